// rein plugin import claude: the plugins in Claude Code's installed_plugins.json (both versions of
// the file) are copied from Claude Code's folders, enabled as Claude Code's settings have them, and
// its marketplaces become known; what is gone or broken is a line.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { finishClaudeImport, prepareClaudeImport } from "../../../src/plugins/claude-import.ts";
import { pluginStore, readInstalled, readMarketplaces } from "../../../src/plugins/store.ts";
import { KIT, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
let claude: string;
beforeEach(() => {
  d = pluginDirs();
  claude = join(d.home, ".claude/plugins");
});
afterEach(() => d.dir.remove());

const places = () => ({ dataDir: d.dataDir, cwd: d.work, userConfig: join(d.configDir, "config.json") });

test("Claude Code's plugins are offered, copied, enabled as Claude Code has them; its marketplaces are known; a second run offers nothing", () => {
  const kitPath = join(claude, "cache/team/kit/1.0.0");
  cpSync(KIT, kitPath, { recursive: true });
  const bare = join(claude, "cache/team/bare/abc123");
  put(join(bare, "commands/go.md"), "go\n");
  put(join(claude, "marketplaces/team/.claude-plugin/marketplace.json"), JSON.stringify({ name: "team", owner: { name: "t" }, plugins: [] }));
  put(join(claude, "installed_plugins.json"), JSON.stringify({
    version: 2,
    plugins: {
      "kit@team": [{ scope: "user", installPath: kitPath, version: "1.0.0", installedAt: "2026-01-01T00:00:00Z", lastUpdated: "2026-01-01T00:00:00Z" }],
      "bare@team": [{ scope: "project", projectPath: "/x", installPath: bare, version: "abc123" }],
      "lost@team": [{ scope: "user", installPath: join(claude, "cache/team/lost/1") }],
    },
  }));
  put(join(claude, "known_marketplaces.json"), JSON.stringify({ team: { source: { source: "github", repo: "org/team" }, installLocation: join(claude, "marketplaces/team"), lastUpdated: "x" } }));
  put(join(d.home, ".claude/settings.json"), JSON.stringify({ enabledPlugins: { "kit@team": true, "bare@team": false } }));

  const found = prepareClaudeImport(d.home, d.dataDir);
  expect(found.problems).toEqual([`Claude Code's lost@team: its folder ${join(claude, "cache/team/lost/1")} is gone; skipped`]);
  expect(found.prepared.map(({ offer, prepared }) => `${prepared.id} ${prepared.plugin.name} ${prepared.version} ${offer.enabled}`)).toEqual(["kit@team kit 1.0.0 true", "bare@team bare abc123 false"]);
  const { done, problems } = finishClaudeImport(found, places());
  expect(problems).toEqual([]);
  expect(done.map((p) => p.root)).toEqual([join(d.dataDir, "plugins/cache/kit-team/1.0.0"), join(d.dataDir, "plugins/cache/bare-team/abc123")]);
  expect(JSON.parse(readFileSync(places().userConfig, "utf8"))).toEqual({ enabledPlugins: { "kit@team": true, "bare@team": false } });
  const markets = readMarketplaces(pluginStore(d.dataDir));
  expect(typeof markets !== "string" && markets.team?.root).toBe(join(claude, "marketplaces/team"));
  expect(Object.keys(readInstalled(pluginStore(d.dataDir)))).toEqual(["kit@team", "bare@team"]);

  expect(prepareClaudeImport(d.home, d.dataDir).prepared).toEqual([]);
});

test("the first version of installed_plugins.json (one record per id) is read too; a broken file is a line", () => {
  const kitPath = join(claude, "cache/team/kit/1.0.0");
  cpSync(KIT, kitPath, { recursive: true });
  put(join(claude, "installed_plugins.json"), JSON.stringify({ version: 1, plugins: { "kit@team": { version: "1.0.0", installPath: kitPath, isLocal: false } } }));
  put(join(claude, "known_marketplaces.json"), "{ nope");
  const found = prepareClaudeImport(d.home, d.dataDir);
  expect(found.prepared.map(({ prepared }) => prepared.id)).toEqual(["kit@team"]);
  expect(found.problems).toEqual([`${join(claude, "known_marketplaces.json")}: not valid JSON; not read`]);
  found.prepared.forEach(({ prepared }) => prepared.staged.done());
});

test("without Claude Code's files there is nothing to offer", () => {
  expect(prepareClaudeImport(d.home, d.dataDir)).toEqual({ prepared: [], marketplaces: [], problems: [] });
});
