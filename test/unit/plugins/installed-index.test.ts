// The installed plugins' index (plugins/index.json, installed-index.ts): written by the first run
// after an install, read by later runs instead of one index per copy; it gives the loaders what
// reading the copies gives, leaves the long texts (skill bodies, command templates, agent prompts)
// to be read from their files when used, and is passed over when installed.json or the build changed.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadAgents } from "../../../src/agents/sources.ts";
import { hookEntries } from "../../../src/hooks/sources.ts";
import { activePlugins } from "../../../src/plugins/active.ts";
import { removeInstalled } from "../../../src/plugins/install.ts";
import { INSTALLED_INDEX, installedDigest } from "../../../src/plugins/installed-index.ts";
import { loadExtensions } from "../../../src/session/skills.ts";
import { planSlash } from "../../../src/skills/slash-commands.ts";
import { KIT, installOrThrow, pluginDirs, places, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
let where: { dataDir: string; cwd: string; userConfig: string };
let index: string;
beforeEach(() => {
  d = pluginDirs();
  where = { dataDir: d.dataDir, cwd: d.work, userConfig: join(d.configDir, "config.json") };
  index = join(d.dataDir, "plugins", INSTALLED_INDEX);
});
afterEach(() => d.dir.remove());

const install = (source: string) => installOrThrow(source, where);

/** A copy of the fixture kit named `name`, with an <example> agent and a skill that uses the plugin's root. */
function source(name = "kit"): string {
  const dir = join(d.dir.path, `src-${name}`);
  cpSync(KIT, dir, { recursive: true });
  put(join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name }));
  put(join(dir, "agents/simplifier.md"), "---\nname: simplifier\ndescription: Use this agent to simplify code. Examples: <example>user: tidy this\nassistant: I will use the simplifier agent</example>\n---\n\nSimplify what changed.\n\n");
  put(join(dir, "skills/tools/SKILL.md"), "---\nname: tools\ndescription: Where the tools are\n---\nRun ${CLAUDE_PLUGIN_ROOT}/bin/kit-hello, keep notes in ${CLAUDE_PLUGIN_DATA}.\n");
  return dir;
}

/** What a run gets from the installed plugins: every loader's output, the texts read. */
function load() {
  const enabled = { user: JSON.parse(readFileSync(where.userConfig, "utf8")).enabledPlugins ?? {}, project: {} };
  const active = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, enabled, trusted: false });
  const extensions = loadExtensions(places(d), [], active);
  const agents = loadAgents({ ...places(d), plugins: active.sources.agents }).agents.filter((a) => a.name.includes(":"));
  return {
    problems: active.problems,
    hooks: active.sources.hooks,
    mcp: active.sources.mcp,
    bin: active.sources.bin,
    skills: extensions.skills.skills.map((s) => ({ ...s })),
    commands: extensions.commands.map((c) => ({ ...c, ...(c.kind === "skill" ? { skill: { ...c.skill } } : {}) })),
    agents: agents.map((a) => ({ ...a })),
  };
}

test("the first run writes the index; a later run reads it and gets what reading the copies gives", () => {
  const done = install(source());
  expect(existsSync(index)).toBe(false);
  const fromCopies = load();
  expect(existsSync(index)).toBe(true);
  const written = readFileSync(index, "utf8");
  expect(load()).toEqual(fromCopies);
  expect(readFileSync(index, "utf8")).toBe(written); // read, not written again
  expect(fromCopies.commands.map((c) => c.name)).toEqual(["kit:greet", "kit:hello", "kit:review", "kit:tools"]);
  expect(fromCopies.agents.map((a) => a.name)).toEqual(["kit:reviewer", "kit:simplifier"]);
  expect(fromCopies.bin).toEqual([join(done.root, "bin")]);
});

test("the index leaves out the texts; each is read from its file when used, with the plugin's variables filled", () => {
  const done = install(source());
  load();
  const written = readFileSync(index, "utf8");
  expect(written).not.toContain("Simplify what changed");
  expect(written).not.toContain("Say hello to $ARGUMENTS");
  expect(written).not.toContain("keep notes in");
  expect(written).toContain("Use this agent to simplify code"); // a description stays: the task tool lists it at start

  const run = load();
  const dataDir = join(d.dataDir, "plugins", "data", "kit");
  expect(run.skills.find((s) => s.name === "kit:tools")?.body).toBe(`Run ${done.root}/bin/kit-hello, keep notes in ${dataDir}.\n`);
  expect(run.commands.find((c) => c.name === "kit:hello")?.template).toBe(`Say hello to $ARGUMENTS. The kit lives in ${done.root}.\n`);
  expect(run.agents.find((a) => a.name === "kit:simplifier")?.prompt).toBe("Simplify what changed.");
  expect(run.skills.find((s) => s.name === "kit:tools")?.plugin).toBe("kit");
  expect(run.commands.find((c) => c.name === "kit:hello")?.plugin).toBe("kit");
});

test("a run from the index reads no text it does not use; /command reads its own and sends it filled", () => {
  const done = install(source());
  load();
  const enabled = { user: JSON.parse(readFileSync(where.userConfig, "utf8")).enabledPlugins, project: {} };
  const active = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, enabled, trusted: false });
  const extensions = loadExtensions(places(d), [], active);
  // Gone after the start: a text read at start would still be there; one read on use says it is gone.
  rmSync(join(done.root, "agents/simplifier.md"));
  const agent = loadAgents({ ...places(d), plugins: active.sources.agents }).agents.find((a) => a.name === "kit:simplifier");
  expect(agent?.description).toContain("simplify code");
  expect(agent?.prompt).toContain("rein could not read");
  const plan = planSlash("/kit:hello Ann", extensions.commands, false);
  expect(plan).toMatchObject({ type: "command", text: `Say hello to Ann. The kit lives in ${done.root}.\n` });
});

test("an install, an update or a removal (a new installed.json) makes the next run read the copies again", () => {
  install(source("kit"));
  load();
  const other = install(source("other"));
  const both = load();
  expect(both.commands.map((c) => c.name)).toContain("other:hello");
  expect(JSON.parse(readFileSync(index, "utf8")).installed).toBe(installedDigest(readFileSync(join(d.dataDir, "plugins", "installed.json"), "utf8")));
  expect(removeInstalled(other, where)).toBeUndefined();
  expect(load().commands.map((c) => c.name)).not.toContain("other:hello");
});

test("an index that is broken, or written by another build or for another text of installed.json, is passed over and written again", () => {
  install(source());
  const expected = load();
  writeFileSync(index, "{ not json");
  expect(load()).toEqual(expected);
  const good = JSON.parse(readFileSync(index, "utf8"));
  for (const forged of [{ ...good, key: good.key.replace(/\+[0-9a-f]+/, "+000000000000") }, { ...good, installed: installedDigest(`${readFileSync(join(d.dataDir, "plugins", "installed.json"), "utf8")} `) }]) {
    const empty = Object.fromEntries(Object.entries(good.plugins as Record<string, { plugin: { read: unknown } }>).map(([id, e]) => [id, { ...e, plugin: { ...e.plugin, read: { skills: {}, commands: {}, agents: {} } } }]));
    writeFileSync(index, JSON.stringify({ ...forged, plugins: empty }));
    expect(load()).toEqual(expected);
  }
});

test("a plugin's hook files are checked once, when the index is written: a later run gets the same hooks, warnings and notes without checking again", () => {
  const dir = source();
  // security-guidance's unknown key (rewakeSummary), a group rein cannot read and one it can
  put(join(dir, "hooks/hooks.json"), JSON.stringify({
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "echo stop", rewakeSummary: "x" }] }],
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" }] }, { matcher: "Edit", hooks: [{ type: "command", command: "echo ${CLAUDE_PLUGIN_ROOT}", timeout: 5 }] }],
    },
  }));
  install(dir);
  const hooks = () => {
    const enabled = { user: JSON.parse(readFileSync(where.userConfig, "utf8")).enabledPlugins ?? {}, project: {} };
    const sources = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, enabled, trusted: false }).sources.hooks;
    return { sources, read: hookEntries({ rein: [], home: d.home, projectRoot: d.work, trusted: false, plugins: sources }) };
  };
  const first = hooks();
  const file = first.sources[0]!.file;
  expect(first.read.entries.map((e) => [e.event, e.matcher, e.handler])).toEqual([
    ["Stop", undefined, { type: "command", command: "echo stop" }],
    ["PreToolUse", "Edit", { type: "command", command: "echo ${CLAUDE_PLUGIN_ROOT}", timeout: 5 }],
  ]);
  expect(first.read.warnings).toEqual([expect.stringMatching(new RegExp(`^${file}: "hooks\\.PreToolUse\\[0\\]\\.hooks\\.0\\.command": .*; that group was skipped$`))]);
  expect(first.read.notes).toEqual([`${file}: "hooks.Stop[0].hooks[0]": key "rewakeSummary" is not one rein reads; ignored`]);
  // what the index keeps for a run is the checked hooks: the unknown key and the bad group are not in them
  const runs = JSON.parse(readFileSync(index, "utf8")).plugins.kit.plugin.runs.hooks;
  expect(runs.map((r: { hooks: unknown }) => r.hooks)).toEqual([{ Stop: [{ hooks: [{ type: "command", command: "echo stop" }] }], PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "echo ${CLAUDE_PLUGIN_ROOT}", timeout: 5 }] }] }]);
  const later = hooks();
  expect(later.sources[0]!.checked).toEqual({ warnings: first.read.warnings, notes: first.read.notes });
  expect(later.read).toEqual(first.read);
});

test("a copy gone from the data folder is one problem line, index or not", () => {
  const done = install(source());
  load();
  rmSync(done.root, { recursive: true });
  const run = load();
  expect(run.problems).toEqual([`plugin kit: its copy ${done.root} is gone; run rein plugin update kit`]);
  expect(run.commands).toEqual([]);
});

test("a disabled plugin is not loaded from the index; enabled again, it is", () => {
  install(source());
  const on = load();
  writeFileSync(where.userConfig, JSON.stringify({ enabledPlugins: { kit: false } }));
  expect(load().commands).toEqual([]);
  writeFileSync(where.userConfig, JSON.stringify({ enabledPlugins: { kit: true } }));
  expect(load()).toEqual(on);
});

test("with nothing installed and no plugins folder there is nothing to read, and no index is written", () => {
  const run = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted: false });
  expect(run).toEqual({ plugins: [], problems: [], sources: { skills: [], commands: [], agents: [], hooks: [], mcp: [], lsp: [], bin: [], warnings: [] } });
  expect(existsSync(join(d.dataDir, "plugins"))).toBe(false);
  // a config naming a plugin that is not installed is still told
  const named = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, enabled: { user: { ghost: true }, project: {} }, trusted: false });
  expect(named.problems).toEqual(["enabledPlugins in your config names ghost, which is not installed (rein plugin install ghost, or remove it from the config)"]);
});
