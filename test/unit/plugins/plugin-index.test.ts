// An installed copy's index (.rein-index.json): written at install time, read by a run instead of
// the copy's component files, giving what reading the files gives; passed over (and written again)
// when it is missing, broken or written for another copy; never taken from the plugin itself. The
// installed plugins' index (plugins/index.json, installed-index.test.ts) is made from these: each
// test here drops it first, so the run reads the copies' own.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadAgents } from "../../../src/agents/sources.ts";
import { activePlugins } from "../../../src/plugins/active.ts";
import { prepareInstall } from "../../../src/plugins/install.ts";
import { INSTALLED_INDEX } from "../../../src/plugins/installed-index.ts";
import { INDEX_FILE } from "../../../src/plugins/plugin-index.ts";
import { loadExtensions } from "../../../src/session/skills.ts";
import { KIT, installOrThrow, pluginDirs, places, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
let where: { dataDir: string; cwd: string; userConfig: string };
beforeEach(() => {
  d = pluginDirs();
  where = { dataDir: d.dataDir, cwd: d.work, userConfig: join(d.configDir, "config.json") };
});
afterEach(() => d.dir.remove());

const install = (source: string) => installOrThrow(source, where);

/** A copy of the fixture kit with an <example> agent, a command that does not load and a skill with a remark. */
function source(): string {
  const dir = join(d.dir.path, "src-kit");
  cpSync(KIT, dir, { recursive: true });
  put(join(dir, "agents/simplifier.md"), "---\nname: simplifier\ndescription: Use this agent to simplify code. Examples: <example>user: tidy this\nassistant: I will use the simplifier agent</example>\ntools: [\"Read\", \"Grep\"]\n---\nSimplify.\n");
  put(join(dir, "commands/bad name.md"), "x\n");
  put(join(dir, "skills/other/SKILL.md"), "---\nname: not-other\ndescription: Named unlike its folder\n---\nbody\n");
  return dir;
}

/** What a run gets from the installed plugins: every loader's output (read from the copies' indexes, not the installed plugins' one). */
function load() {
  rmSync(join(d.dataDir, "plugins", INSTALLED_INDEX), { force: true });
  const active = activePlugins({ configDir: d.configDir, dataDir: d.dataDir, enabled: { user: JSON.parse(readFileSync(where.userConfig, "utf8")).enabledPlugins, project: {} }, trusted: false });
  const extensions = loadExtensions(places(d), [], active);
  const agents = loadAgents({ ...places(d), plugins: active.sources.agents });
  return {
    problems: active.problems,
    skills: extensions.skills,
    commands: extensions.commands,
    extensionProblems: extensions.problems,
    agents: agents.agents.filter((a) => a.name.startsWith("kit:")),
    report: agents.report,
    hooks: active.sources.hooks,
    mcp: active.sources.mcp,
  };
}

test("install writes the copy's index; a run reads it instead of the component files and gets what reading them gives", () => {
  const done = install(source());
  const index = join(done.root, INDEX_FILE);
  expect(existsSync(index)).toBe(true);
  const fromIndex = load();
  expect(fromIndex.commands.map((c) => c.name)).toEqual(["kit:greet", "kit:hello", "kit:other", "kit:review"]);
  expect(fromIndex.agents.map((a) => `${a.name} ${a.tools?.join(",")}`)).toEqual(["kit:reviewer read,grep", "kit:simplifier read,grep"]);
  expect(fromIndex.extensionProblems.some((p) => p.includes('"kit:bad name" is not a valid command name'))).toBe(true);
  expect(fromIndex.skills.warnings.some((w) => w.includes('name "not-other" differs from its folder "other"'))).toBe(true);

  // The component files are not read: the run still has them when they are gone from the copy.
  for (const part of ["commands", "skills", "agents"]) rmSync(join(done.root, part), { recursive: true });
  expect(load()).toEqual(fromIndex);

  // Without the index, the copy is read from its files (here: what is left of them) and the index written again.
  rmSync(index);
  const fromFiles = load();
  expect(fromFiles.commands).toEqual([]);
  expect(existsSync(index)).toBe(true);
});

test("reading the files and reading the index give the same run", () => {
  const done = install(source());
  const fromIndex = load();
  rmSync(join(done.root, INDEX_FILE));
  expect(load()).toEqual(fromIndex);
});

test("a broken index, or one written for another copy, is passed over and written again", () => {
  const done = install(source());
  const index = join(done.root, INDEX_FILE);
  const expected = load();
  writeFileSync(index, "{ not json");
  expect(load()).toEqual(expected);
  expect(JSON.parse(readFileSync(index, "utf8")).key).toContain(done.root);

  const moved = JSON.parse(readFileSync(index, "utf8"));
  moved.key = moved.key.replace(done.root, "/somewhere/else");
  moved.plugin.read.commands = {};
  writeFileSync(index, JSON.stringify(moved));
  expect(load().commands.map((c) => c.name)).toEqual(expected.commands.map((c) => c.name));
});

test("a plugin's own .rein-index.json is never copied: it cannot tell a run what the plugin holds", () => {
  const dir = source();
  writeFileSync(join(dir, INDEX_FILE), JSON.stringify({ key: "whatever", plugin: { name: "kit", read: { skills: {}, commands: {}, agents: {} } } }));
  const done = install(dir);
  expect(JSON.parse(readFileSync(join(done.root, INDEX_FILE), "utf8")).key).not.toBe("whatever");
  expect(load().commands.map((c) => c.name)).toContain("kit:hello");
});
