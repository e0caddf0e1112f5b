// Installing plugins from a folder, a git repository (file:// URLs, the system's git) and a
// marketplace in a local git repository: copied into rein's data folder, pinned, recorded, enabled
// in the user config, updated, removed; the failures are one line each.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { activePlugins } from "../../../src/plugins/active.ts";
import { findInstalled, finishInstall, prepareInstall, prepareUpdate, removeInstalled } from "../../../src/plugins/install.ts";
import { addMarketplace, removeMarketplace } from "../../../src/plugins/marketplaces.ts";
import { pluginStore, readInstalled } from "../../../src/plugins/store.ts";
import { commitAll, copyKit, git, gitRepo, KIT, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";
import { cpSync } from "node:fs";

let d: PluginDirs;
let where: { dataDir: string; cwd: string; userConfig: string };
beforeEach(() => {
  d = pluginDirs();
  where = { dataDir: d.dataDir, cwd: d.work, userConfig: join(d.configDir, "config.json") };
});
afterEach(() => d.dir.remove());

const userConfig = () => JSON.parse(readFileSync(where.userConfig, "utf8")) as { enabledPlugins?: Record<string, boolean> } & Record<string, unknown>;
const enabledFromConfig = (trusted = false, project: Record<string, boolean> = {}) =>
  activePlugins({ configDir: d.configDir, dataDir: d.dataDir, enabled: { user: userConfig().enabledPlugins ?? {}, project }, trusted });

function install(spec: string) {
  const prepared = prepareInstall(spec, where);
  if ("error" in prepared) throw new Error(prepared.error);
  const done = finishInstall(prepared, where);
  if ("error" in done) throw new Error(done.error);
  return done;
}

test("symlinks in a plugin that point out of it are not copied, with one line; links inside it are kept", () => {
  const source = join(d.dir.path, "linked-kit");
  cpSync(KIT, source, { recursive: true });
  mkdirSync(join(source, "commands"), { recursive: true });
  const secret = put(join(d.dir.path, "outside", "secret.md"), "---\ndescription: from outside\n---\nleaked");
  symlinkSync(secret, join(source, "commands", "leak.md"));
  symlinkSync(join(d.dir.path, "outside"), join(source, "commands", "elsewhere"));
  put(join(source, "commands", "real.md"), "---\ndescription: inside\n---\nfine");
  symlinkSync("real.md", join(source, "commands", "alias.md"));
  const prepared = prepareInstall(source, where);
  if ("error" in prepared) throw new Error(prepared.error);
  const notes: string[] = [];
  const done = finishInstall(prepared, where, (line) => notes.push(line));
  if ("error" in done) throw new Error(done.error);
  expect(notes).toEqual(["plugin kit: left out 2 symlinks that point out of the plugin (commands/elsewhere, commands/leak.md): a plugin's files stay inside it"]);
  expect(existsSync(join(done.root, "commands", "leak.md"))).toBe(false);
  expect(existsSync(join(done.root, "commands", "elsewhere"))).toBe(false);
  expect(readFileSync(join(done.root, "commands", "alias.md"), "utf8")).toContain("fine");
});

test("a folder is copied into the data folder, pinned to its manifest's version, and enabled in the user config", () => {
  const source = join(d.dir.path, "src-kit");
  cpSync(KIT, source, { recursive: true });
  put(where.userConfig, JSON.stringify({ model: "claude-sonnet-5-5" }));
  const done = install(source);
  expect(done).toMatchObject({ id: "kit", name: "kit", version: "1.0.0", source: { kind: "path", path: source }, root: join(d.dataDir, "plugins/cache/kit/1.0.0") });
  expect(userConfig()).toEqual({ model: "claude-sonnet-5-5", enabledPlugins: { kit: true } });
  // The copy is what loads: changing the source afterwards changes nothing.
  writeFileSync(join(source, "commands/hello.md"), "changed\n");
  const loaded = enabledFromConfig();
  expect(loaded.plugins.map((p) => `${p.id} ${p.root}`)).toEqual([`kit ${done.root}`]);
  expect(readFileSync(join(done.root, "commands/hello.md"), "utf8")).toContain("Say hello to $ARGUMENTS");
});

test("a git repository without a version is pinned to its commit; .git is not copied; update takes the new commit", () => {
  const repo = join(d.dir.path, "tidy");
  put(join(repo, "commands/fmt.md"), "Format $ARGUMENTS\n");
  const url = gitRepo(repo);
  const first = install(url);
  const commit = git(repo, "rev-parse", "HEAD");
  expect(first).toMatchObject({ id: "tidy", version: commit.slice(0, 12), commit, source: { kind: "git", url } });
  expect(existsSync(join(first.root, ".git"))).toBe(false);
  expect(existsSync(join(first.root, "commands/fmt.md"))).toBe(true);
  // Named after the repository, also when loaded from its copy (a folder named after the commit).
  expect(enabledFromConfig().plugins.map((p) => p.name)).toEqual(["tidy"]);

  const same = prepareUpdate(first, where);
  expect("error" in same ? same.error : same.version).toBe(first.version);
  if (!("error" in same)) same.staged.done();

  put(join(repo, "commands/lint.md"), "Lint\n");
  const next = commitAll(repo, "second");
  const update = prepareUpdate(first, where);
  if ("error" in update) throw new Error(update.error);
  const updated = finishInstall(update, where);
  expect(updated).toMatchObject({ version: next.slice(0, 12) });
  expect(existsSync(first.root)).toBe(false);
  expect(Object.keys(readInstalled(pluginStore(d.dataDir)))).toEqual(["tidy"]);
});

test("a marketplace in a git repository: ./ sources are relative to its root, git sources are cloned; ids are name@marketplace", () => {
  const pluginRepo = join(d.dir.path, "remote-plugin");
  put(join(pluginRepo, ".claude-plugin/plugin.json"), JSON.stringify({ name: "remote", version: "2.0.0" }));
  put(join(pluginRepo, "skills/far/SKILL.md"), "---\nname: far\ndescription: From far away\n---\nbody\n");
  const pluginUrl = gitRepo(pluginRepo);
  const market = join(d.dir.path, "market");
  cpSync(KIT, join(market, "plugins/kit"), { recursive: true });
  put(join(market, ".claude-plugin/marketplace.json"), JSON.stringify({
    name: "team-tools",
    owner: { name: "The team" },
    plugins: [
      { name: "kit", source: "./plugins/kit", description: "One of each" },
      { name: "remote", source: { source: "url", url: pluginUrl } },
      { name: "gone", source: { source: "url", url: `file://${join(d.dir.path, "no-such-repo")}` } },
      { name: "packaged", source: { source: "npm", package: "@team/packaged" } },
    ],
  }));
  const added = addMarketplace(gitRepo(market), { dataDir: d.dataDir, cwd: d.work });
  if ("error" in added) throw new Error(added.error);
  expect(added.known.root).toBe(join(d.dataDir, "plugins/marketplaces/team-tools"));

  const kit = install("kit@team-tools");
  expect(kit).toMatchObject({ id: "kit@team-tools", marketplace: "team-tools", version: "1.0.0", source: { kind: "path", path: join(added.known.root, "plugins/kit") } });
  const remote = install("remote@team-tools");
  expect(remote).toMatchObject({ id: "remote@team-tools", version: "2.0.0", source: { kind: "git", url: pluginUrl } });
  const loaded = enabledFromConfig();
  expect(loaded.plugins.map((p) => `${p.id} ${p.dataDir}`)).toEqual([`kit@team-tools ${join(d.dataDir, "plugins/data/kit-team-tools")}`, `remote@team-tools ${join(d.dataDir, "plugins/data/remote-team-tools")}`]);

  const gone = prepareInstall("gone@team-tools", where);
  expect("error" in gone && gone.error).toStartWith(`cannot clone file://${join(d.dir.path, "no-such-repo")}: `);
  expect("error" in gone && gone.error.includes("\n")).toBe(false);
  const npm = prepareInstall("packaged@team-tools", where);
  expect("error" in npm && npm.error).toBe('plugin packaged: rein cannot fetch a "npm" source (it fetches ./ folders and git: github, url, git-subdir)');
  const unknown = prepareInstall("kit@nowhere", where);
  expect("error" in unknown && unknown.error).toBe('no marketplace named "nowhere" (known: team-tools; add one with rein plugin marketplace add PATH | GIT_URL)');

  expect(removeMarketplace("team-tools", d.dataDir)).toMatchObject({ name: "team-tools" });
  expect(existsSync(added.known.root)).toBe(false);
});

test("an unreachable marketplace, or a folder that is no marketplace, is one line", () => {
  const missing = addMarketplace("file:///nonexistent/market.git", { dataDir: d.dataDir, cwd: d.work });
  expect("error" in missing && missing.error).toStartWith("cannot clone file:///nonexistent/market.git: ");
  const plain = addMarketplace(d.work, { dataDir: d.dataDir, cwd: d.work });
  expect("error" in plain && plain.error).toBe(`${d.work} has no .claude-plugin/marketplace.json: it is not a marketplace`);
});

test("a plugin a project config asks for loads only in a trusted workspace; the user's false wins over it", () => {
  const source = copyKit(d, "../src-kit");
  install(source);
  put(where.userConfig, JSON.stringify({}));
  expect(enabledFromConfig(false, { kit: true }).plugins).toEqual([]);
  expect(enabledFromConfig(false, { kit: true }).problems).toEqual(["the project config asks for plugin kit: it loads only in a trusted workspace (run with --trust)"]);
  expect(enabledFromConfig(true, { kit: true }).plugins.map((p) => p.id)).toEqual(["kit"]);
  put(where.userConfig, JSON.stringify({ enabledPlugins: { kit: false } }));
  expect(enabledFromConfig(true, { kit: true }).plugins).toEqual([]);
  expect(enabledFromConfig(true, { other: true }).problems).toEqual(["the project config asks for plugin other, which is not installed (rein plugin install other)"]);
});

test("remove deletes the copy and the record and drops it from the config; a name finds its id", () => {
  const done = install(copyKit(d, "../src-kit"));
  const found = findInstalled("kit", d.dataDir);
  expect("error" in found ? found.error : found.id).toBe("kit");
  expect(removeInstalled(done, where)).toBeUndefined();
  expect(existsSync(done.root)).toBe(false);
  expect(readInstalled(pluginStore(d.dataDir))).toEqual({});
  expect(userConfig()).toEqual({});
  const again = findInstalled("kit", d.dataDir);
  expect("error" in again && again.error).toBe('no installed plugin "kit" (installed: none)');
});

test("a folder that is not there, or a plugin whose manifest is broken, is not installed", () => {
  const none = prepareInstall("./nope", where);
  expect("error" in none && none.error).toBe(`${join(d.work, "nope")}: no such folder (give a plugin's folder, a git URL or NAME@MARKETPLACE)`);
  const bad = put(join(d.dir.path, "bad/.claude-plugin/plugin.json"), JSON.stringify({ name: "Bad Name" }));
  const broken = prepareInstall(join(d.dir.path, "bad"), where);
  expect("error" in broken && broken.error).toBe(`${bad}: "name": use kebab-case: a-z, 0-9, - and _; the plugin was not loaded`);
  expect(existsSync(pluginStore(d.dataDir).cache)).toBe(false);
});
