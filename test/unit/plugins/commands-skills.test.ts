// Plugins in Claude Code's layout from rein's plugins folder: their commands and skills, namespaced,
// through a real Session; a broken plugin is reported for itself only.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { loadExtensions } from "../../../src/session/skills.ts";
import { active, places as placesOf, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
let configDir: string;
let plugins: string;

beforeEach(() => {
  d = pluginDirs();
  ({ configDir, plugins } = d);
});
afterEach(() => d.dir.remove());

const places = () => placesOf(d);
const extensions = () => loadExtensions(places(), [], active(d));
const loadPlugins = () => active(d);

describe("loadPlugins", () => {
  test("a plugin without a manifest is named after its folder, its components found by folder", () => {
    put(join(plugins, "tidy/commands/fmt.md"), "Format $ARGUMENTS\n");
    put(join(plugins, "tidy/skills/lint/SKILL.md"), "---\nname: lint\ndescription: Lint the code\n---\nRun the linter.\n");
    const loaded = extensions();
    expect(loaded.plugins.map((p) => p.name)).toEqual(["tidy"]);
    expect(loaded.commands.map((c) => `${c.name} ${c.kind}`)).toEqual(["tidy:fmt command", "tidy:lint skill"]);
    expect(loaded.skills.skills.map((s) => s.name)).toEqual(["tidy:lint"]);
    expect(loaded.problems).toEqual([]);
  });

  test("a manifest names the plugin and its paths; unknown fields are ignored", () => {
    put(join(plugins, "folder/.claude-plugin/plugin.json"), JSON.stringify({ name: "review-kit", version: "1.2.0", commands: "./cmds", futureField: { x: 1 } }));
    put(join(plugins, "folder/cmds/pr.md"), "Review PR $1\n");
    put(join(plugins, "folder/commands/ignored.md"), "replaced by ./cmds\n");
    const { plugins: found, problems } = loadPlugins();
    expect(problems).toEqual([]);
    expect(found).toMatchObject([{ name: "review-kit", version: "1.2.0", commands: [join(plugins, "folder/cmds")] }]);
  });

  test("a wrong type or broken JSON is that plugin's load error; the others load", () => {
    const typed = put(join(plugins, "a-typed/.claude-plugin/plugin.json"), JSON.stringify({ name: "typed", version: 2 }));
    const keywords = put(join(plugins, "b-keywords/.claude-plugin/plugin.json"), JSON.stringify({ keywords: "one, two" }));
    const broken = put(join(plugins, "c-broken/.claude-plugin/plugin.json"), "{ not json");
    put(join(plugins, "d-good/commands/ok.md"), "ok\n");
    const { plugins: found, problems } = loadPlugins();
    expect(found.map((p) => p.name)).toEqual(["d-good"]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toStartWith(`${typed}: "version": Invalid type`);
    expect(problems[1]).toStartWith(`${keywords}: "keywords": Invalid type`);
    expect(problems[2]).toStartWith(`${broken}: not valid JSON`);
  });

  test("a manifest path leading out of the plugin (by .. or a symlink) is refused for that path; the rest loads", () => {
    const manifest = put(join(plugins, "kit/.claude-plugin/plugin.json"), JSON.stringify({ skills: ["../../elsewhere", "./linked", "./more"], commands: "/etc" }));
    put(join(d.dir.path, "outside/sneak/SKILL.md"), "---\nname: sneak\ndescription: From outside\n---\nbody\n");
    symlinkSync(join(d.dir.path, "outside"), join(plugins, "kit/linked"));
    put(join(plugins, "kit/more/extra/SKILL.md"), "---\nname: extra\ndescription: Inside\n---\nbody\n");
    const loaded = extensions();
    expect(loaded.skills.skills.map((s) => s.name)).toEqual(["kit:extra"]);
    expect(loaded.problems).toEqual([
      `plugin kit: ${manifest}: "commands" names /etc, which is not a ./ path inside the plugin; that path was not loaded`,
      `plugin kit: ${manifest}: "skills" names ../../elsewhere, which is not a ./ path inside the plugin; that path was not loaded`,
      `plugin kit: ${manifest}: "skills" names ./linked, which is not a ./ path inside the plugin; that path was not loaded`,
    ]);
  });

  test("${CLAUDE_PLUGIN_ROOT} in a plugin's command and skill is the plugin's folder", () => {
    put(join(plugins, "kit/commands/run.md"), "Run ${CLAUDE_PLUGIN_ROOT}/bin/check $1\n");
    put(join(plugins, "kit/skills/use/SKILL.md"), "---\nname: use\ndescription: Use the kit\n---\nScripts are in ${CLAUDE_PLUGIN_ROOT}/scripts.\n");
    const loaded = extensions();
    const root = join(plugins, "kit");
    expect(loaded.commands.find((c) => c.name === "kit:run")?.template).toBe(`Run ${root}/bin/check $1\n`);
    expect(loaded.skills.skills[0]!.body).toBe(`Scripts are in ${root}/scripts.\n`);
    const command = loaded.commands.find((c) => c.name === "kit:use");
    expect(command?.kind === "skill" && command.skill.body).toBe(`Scripts are in ${root}/scripts.\n`);
  });

  test("a plugin's command is weaker than the user's own command of the same full name", () => {
    put(join(plugins, "kit/commands/go.md"), "from the plugin\n");
    put(join(configDir, "commands/kit/go.md"), "from the user\n");
    const loaded = extensions();
    expect(loaded.commands.find((c) => c.name === "kit:go")?.template).toBe("from the user\n");
  });
});

describe("a single-skill plugin", () => {
  test("a SKILL.md at the root and no skills folder: the plugin is one skill, named after the plugin", () => {
    put(join(plugins, "lint-kit/SKILL.md"), "---\nname: lint-kit\ndescription: Lint the way the team does\n---\nRun the linter on $ARGUMENTS.\n");
    const loaded = extensions();
    expect(loaded.skills.skills.map((s) => `${s.name} ${s.plugin} ${s.dir}`)).toEqual([`lint-kit:lint-kit lint-kit ${join(plugins, "lint-kit")}`]);
    expect(loaded.skills.warnings).toEqual([]);
  });

  test("with a skills folder, a root SKILL.md is not a skill of its own", () => {
    put(join(plugins, "kit/SKILL.md"), "---\nname: kit\ndescription: The readme-like root file\n---\nbody\n");
    put(join(plugins, "kit/skills/fmt/SKILL.md"), "---\nname: fmt\ndescription: Format\n---\nbody\n");
    expect(extensions().skills.skills.map((s) => s.name)).toEqual(["kit:fmt"]);
  });
});
