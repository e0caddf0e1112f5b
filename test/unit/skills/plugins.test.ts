// Plugins in Claude Code's layout from rein's plugins folder: their commands and skills, namespaced,
// through a real Session; a broken plugin is reported for itself only.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPlugins } from "../../../src/plugins/plugins.ts";
import { loadExtensions } from "../../../src/session/skills.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let configDir: string;
let plugins: string;

beforeEach(() => {
  dir = tempDir("rein-plugins-");
  configDir = join(dir.path, "config");
  plugins = join(configDir, "plugins");
  mkdirSync(join(dir.path, "work"), { recursive: true });
});
afterEach(() => dir.remove());

function put(file: string, content: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}
const places = () => ({ cwd: join(dir.path, "work"), projectRoot: join(dir.path, "work"), home: join(dir.path, "home"), configDir, trusted: false });

describe("loadPlugins", () => {
  test("a plugin without a manifest is named after its folder, its components found by folder", () => {
    put(join(plugins, "tidy/commands/fmt.md"), "Format $ARGUMENTS\n");
    put(join(plugins, "tidy/skills/lint/SKILL.md"), "---\nname: lint\ndescription: Lint the code\n---\nRun the linter.\n");
    put(join(plugins, "tidy/hooks/hooks.json"), "{}");
    const loaded = loadExtensions(places());
    expect(loaded.plugins.map((p) => p.name)).toEqual(["tidy"]);
    expect(loaded.commands.map((c) => `${c.name} ${c.kind}`)).toEqual(["tidy:fmt command", "tidy:lint skill"]);
    expect(loaded.skills.skills.map((s) => s.name)).toEqual(["tidy:lint"]);
    // Its hooks are named, not silently dropped.
    expect(loaded.problems).toEqual(["plugin tidy: its hooks are not loaded (rein reads only commands and skills from plugins so far)"]);
  });

  test("a manifest names the plugin and its paths; unknown fields are ignored", () => {
    put(join(plugins, "folder/.claude-plugin/plugin.json"), JSON.stringify({ name: "review-kit", version: "1.2.0", commands: "./cmds", futureField: { x: 1 } }));
    put(join(plugins, "folder/cmds/pr.md"), "Review PR $1\n");
    put(join(plugins, "folder/commands/ignored.md"), "replaced by ./cmds\n");
    const { plugins: found, problems } = loadPlugins(plugins);
    expect(problems).toEqual([]);
    expect(found).toMatchObject([{ name: "review-kit", version: "1.2.0", commands: [join(plugins, "folder/cmds")] }]);
  });

  test("a wrong type, a path outside the plugin or broken JSON is that plugin's load error; the others load", () => {
    const typed = put(join(plugins, "a-typed/.claude-plugin/plugin.json"), JSON.stringify({ name: "typed", version: 2 }));
    const outside = put(join(plugins, "b-outside/.claude-plugin/plugin.json"), JSON.stringify({ skills: "../../elsewhere" }));
    const broken = put(join(plugins, "c-broken/.claude-plugin/plugin.json"), "{ not json");
    put(join(plugins, "d-good/commands/ok.md"), "ok\n");
    const { plugins: found, problems } = loadPlugins(plugins);
    expect(found.map((p) => p.name)).toEqual(["d-good"]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toStartWith(`${typed}: "version": Invalid type`);
    expect(problems[1]).toBe(`${outside}: "skills" names ../../elsewhere, which is not a ./ path inside the plugin; the plugin was not loaded`);
    expect(problems[2]).toStartWith(`${broken}: not valid JSON`);
  });

  test("${CLAUDE_PLUGIN_ROOT} in a plugin's command and skill is the plugin's folder", () => {
    put(join(plugins, "kit/commands/run.md"), "Run ${CLAUDE_PLUGIN_ROOT}/bin/check $1\n");
    put(join(plugins, "kit/skills/use/SKILL.md"), "---\nname: use\ndescription: Use the kit\n---\nScripts are in ${CLAUDE_PLUGIN_ROOT}/scripts.\n");
    const loaded = loadExtensions(places());
    const root = join(plugins, "kit");
    expect(loaded.commands.find((c) => c.name === "kit:run")?.template).toBe(`Run ${root}/bin/check $1\n`);
    expect(loaded.skills.skills[0]!.body).toBe(`Scripts are in ${root}/scripts.\n`);
    const command = loaded.commands.find((c) => c.name === "kit:use");
    expect(command?.kind === "skill" && command.skill.body).toBe(`Scripts are in ${root}/scripts.\n`);
  });

  test("a plugin's command is weaker than the user's own command of the same full name", () => {
    put(join(plugins, "kit/commands/go.md"), "from the plugin\n");
    put(join(configDir, "commands/kit/go.md"), "from the user\n");
    const loaded = loadExtensions(places());
    expect(loaded.commands.find((c) => c.name === "kit:go")?.template).toBe("from the user\n");
  });
});
