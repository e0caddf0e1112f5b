// The plugins a run loads (active.ts, plugins.ts, sources.ts) from real folders: rein's plugins
// folder always on, installed copies only when enabled (a project's word only with trust), what
// each feeds the other loaders, and every reason one is left out, told as one problem line.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { activePlugins } from "../../../src/plugins/active.ts";
import { pluginOf, pluginText } from "../../../src/plugins/sources.ts";
import { pluginStore, writeInstalled, type InstalledPlugin } from "../../../src/plugins/store.ts";
import { copyKit, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
beforeEach(() => {
  d = pluginDirs();
});
afterEach(() => {
  chmodSync(d.dir.path, 0o755);
  d.dir.remove();
});

/** A plugin folder (not the kit) with a manifest naming it. */
function plugin(root: string, name: string, extra: Record<string, string> = {}): string {
  put(join(root, ".claude-plugin", "plugin.json"), JSON.stringify({ name }));
  for (const [file, text] of Object.entries(extra)) put(join(root, file), text);
  return root;
}

function installed(...plugins: { id: string; root: string }[]): void {
  const records: Record<string, InstalledPlugin> = {};
  for (const p of plugins) records[p.id] = { id: p.id, name: p.id.split("@")[0]!, source: { kind: "path", path: p.root }, version: "1.0.0", root: p.root, installedAt: "2026-01-01T00:00:00.000Z" };
  writeInstalled(pluginStore(d.dataDir), records);
}

describe("what an active plugin feeds the other loaders", () => {
  test("the kit in rein's plugins folder: prefixed skills, commands and agents, hooks and servers with its variables, bin/ on PATH", () => {
    const root = copyKit(d);
    const { plugins, problems, sources } = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false });
    expect(problems).toEqual([]);
    expect(plugins.map((p) => p.name)).toEqual(["kit"]);
    const dataDir = plugins[0]!.dataDir;
    expect(existsSync(dataDir)).toBe(true); // it runs something: its data folder exists before its hooks run
    expect(sources.skills).toEqual([{ dir: join(root, "skills"), prefix: "kit:" }]);
    expect(sources.commands).toEqual([{ dir: join(root, "commands"), prefix: "kit:", source: "user" }]);
    expect(sources.agents).toEqual([{ dir: join(root, "agents"), prefix: "kit:" }]);
    expect(sources.bin).toEqual([join(root, "bin")]);
    const env = { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir, REIN_PLUGIN_ROOT: root, REIN_PLUGIN_DATA: dataDir };
    expect(sources.hooks).toHaveLength(1);
    expect(sources.hooks[0]!.env).toEqual(env);
    // a shell-form command is left for the shell to expand
    expect(JSON.stringify(sources.hooks[0]!.hooks)).toContain("root=$CLAUDE_PLUGIN_ROOT");
    expect(sources.mcp[0]!.servers).toEqual({ "plugin:kit:where": { command: "bun", args: [`${root}/servers/where.ts`], env } });
    expect(pluginOf("kit:hello", plugins)?.name).toBe("kit");
    expect(pluginText("at ${CLAUDE_PLUGIN_ROOT}", "kit:hello", plugins)).toBe(`at ${root}`);
    expect(pluginText("at ${CLAUDE_PLUGIN_ROOT}", "other:hello", plugins)).toBe("at ${CLAUDE_PLUGIN_ROOT}");
  });

  test("a hook event rein does not run is skipped with a line; an exec-form handler gets the variables filled", () => {
    const root = plugin(join(d.plugins, "hooky"), "hooky", {
      "hooks/hooks.json": JSON.stringify({ hooks: { Teleport: [{ hooks: [{ type: "command", command: "x" }] }], Stop: [{ hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/bin/stop", args: ["${CLAUDE_PLUGIN_DATA}"] }] }] } }),
    });
    const { problems, sources, plugins } = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith(`plugin hooky: ${join(root, "hooks", "hooks.json")}: hook event "Teleport" is not one rein runs (rein runs `);
    expect(sources.hooks[0]!.hooks).toEqual({ Stop: [{ hooks: [{ type: "command", command: `${root}/bin/stop`, args: [plugins[0]!.dataDir] }] }] });
  });

  test("a plugin that runs nothing gets no data folder; two of one name: the first wins, the second is a problem", () => {
    plugin(join(d.plugins, "a-words"), "words", { "commands/say.md": "---\ndescription: say\n---\nsay it" });
    const second = plugin(join(d.plugins, "b-words"), "words");
    const { plugins, problems } = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false });
    expect(plugins.map((p) => p.root)).toEqual([join(d.plugins, "a-words")]);
    expect(existsSync(plugins[0]!.dataDir)).toBe(false);
    expect(problems).toEqual([`${second}: a plugin named "words" is already loaded from ${join(d.plugins, "a-words")}; rename one or disable one`]);
  });
});

describe("which installed plugins load", () => {
  test("only the enabled ones; the user's word wins, a project's only with trust", () => {
    const mine = plugin(join(d.dir.path, "copies", "mine"), "mine");
    const theirs = plugin(join(d.dir.path, "copies", "theirs"), "theirs");
    installed({ id: "mine", root: mine }, { id: "theirs", root: theirs });
    const load = (trusted: boolean, project: Record<string, boolean>) => activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted, enabled: { user: { mine: true }, project } });
    expect(load(false, {}).plugins.map((p) => p.name)).toEqual(["mine"]);
    const untrusted = load(false, { theirs: true, mine: false });
    expect(untrusted.plugins.map((p) => p.name)).toEqual(["mine"]);
    expect(untrusted.problems).toEqual(["the project config asks for plugin theirs: it loads only in a trusted workspace (run with --trust)"]);
    expect(load(true, { theirs: true }).plugins.map((p) => p.name)).toEqual(["mine", "theirs"]);
  });

  test("a damaged marketplace entry in installed.json is told, and the plugin is read without it", () => {
    const root = plugin(join(d.dir.path, "copies", "tool"), "tool", { "commands/go.md": "---\ndescription: go\n---\ngo" });
    installed({ id: "tool@shop", root });
    const file = join(pluginStore(d.dataDir).dir, "installed.json");
    const records = JSON.parse(readFileSync(file, "utf8"));
    records.plugins["tool@shop"].entry = { strict: "yes" };
    put(file, JSON.stringify(records));
    const { plugins, problems } = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false, enabled: { user: { "tool@shop": true }, project: {} } });
    expect(plugins.map((p) => [p.id, p.commands])).toEqual([["tool@shop", [join(root, "commands")]]]);
    expect(problems).toEqual(['plugin tool@shop: its marketplace entry in installed.json: "strict": expected true or false, got "yes"; read without it']);
  });

  test("every reason one is left out is one line: not installed, its copy gone, a damaged installed.json, an unreadable plugins folder", () => {
    const gone = join(d.dir.path, "copies", "gone");
    installed({ id: "gone", root: gone });
    const first = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: true, enabled: { user: { gone: true, ghost: true }, project: { phantom: true } } });
    expect(first.plugins).toEqual([]);
    expect(first.problems).toEqual([
      `plugin gone: its copy ${gone} is gone; run rein plugin update gone`,
      "the project config asks for plugin phantom, which is not installed (rein plugin install phantom)",
      "enabledPlugins in your config names ghost, which is not installed (rein plugin install ghost, or remove it from the config)",
    ]);
    const file = join(pluginStore(d.dataDir).dir, "installed.json");
    put(file, "garbage");
    expect(activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false }).problems).toEqual([`${file}: not valid JSON; fix or delete it (rein rewrites it on the next install); no installed plugin was loaded`]);
    rmSync(file);
    if (process.getuid?.() === 0) return; // root reads any folder
    mkdirSync(d.plugins, { recursive: true });
    chmodSync(d.plugins, 0o000);
    try {
      expect(activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false }).problems).toEqual([`${d.plugins}: cannot read the plugins folder (EACCES)`]);
    } finally {
      chmodSync(d.plugins, 0o755);
    }
  });
});
