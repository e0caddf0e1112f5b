// What Claude Code installed, for rein plugin import claude: `~/.claude/plugins/installed_plugins.json`
// (version 1: one record per id; version 2: a list per id, by scope), `known_marketplaces.json`
// (each marketplace's clone, `installLocation`) and `enabledPlugins` in `~/.claude/settings.json`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { setEnabled } from "./enabled.ts";
import { finishInstall, prepareSource, type InstallPlaces, type Prepared } from "./install.ts";
import { pluginStore, readInstalled, readMarketplaces, writeMarketplaces, type InstalledPlugin } from "./store.ts";
import { readOwnText } from "../sdk/own-file.ts";

const Record_ = v.looseObject({ installPath: v.string(), version: v.optional(v.string()), gitCommitSha: v.optional(v.string()), scope: v.optional(v.string()) });
const InstalledFile = v.looseObject({ plugins: v.record(v.string(), v.union([Record_, v.array(Record_)])) });
const MarketsFile = v.record(v.string(), v.looseObject({ installLocation: v.string() }));

export type ClaudeOffer = { id: string; name: string; marketplace?: string; installPath: string; version?: string; enabled: boolean };
export type ClaudeInstalls = { offers: ClaudeOffer[]; marketplaces: { name: string; root: string }[]; problems: string[] };

export function claudeInstalls(home: string): ClaudeInstalls {
  const dir = join(home, ".claude", "plugins");
  const found: ClaudeInstalls = { offers: [], marketplaces: [], problems: [] };
  const installed = readJson(join(dir, "installed_plugins.json"), InstalledFile, found.problems);
  const markets = readJson(join(dir, "known_marketplaces.json"), MarketsFile, found.problems);
  const settings = readJson(join(home, ".claude", "settings.json"), v.looseObject({ enabledPlugins: v.optional(v.record(v.string(), v.unknown())) }), found.problems);
  for (const [name, market] of Object.entries(markets ?? {})) {
    if (existsSync(market.installLocation)) found.marketplaces.push({ name, root: market.installLocation });
  }
  for (const [id, records] of Object.entries(installed?.plugins ?? {})) {
    const list = Array.isArray(records) ? records : [records];
    const record = list.find((r) => r.scope === undefined || r.scope === "user") ?? list[0];
    if (!record) continue;
    if (!existsSync(record.installPath)) {
      found.problems.push(`Claude Code's ${id}: its folder ${record.installPath} is gone; skipped`);
      continue;
    }
    const [name, marketplace] = id.split("@") as [string, string | undefined];
    found.offers.push({
      id,
      name,
      ...(marketplace ? { marketplace } : {}),
      installPath: record.installPath,
      ...(record.version ? { version: record.version } : {}),
      enabled: settings?.enabledPlugins?.[id] === true,
    });
  }
  return found;
}

function readJson<T>(file: string, schema: v.GenericSchema<unknown, T>, problems: string[]): T | undefined {
  let text: string;
  try {
    text = readOwnText(file);
  } catch {
    return undefined;
  }
  try {
    const parsed = v.safeParse(schema, JSON.parse(text));
    if (parsed.success) return parsed.output;
    problems.push(`${file}: ${v.getDotPath(parsed.issues[0]) ?? "the file"}: ${parsed.issues[0].message}; not read`);
  } catch {
    problems.push(`${file}: not valid JSON; not read`);
  }
  return undefined;
}

export type ClaudeImport = { prepared: { offer: ClaudeOffer; prepared: Prepared }[]; marketplaces: { name: string; root: string }[]; problems: string[] };

/** Claude Code's plugins that rein has not installed, read from Claude Code's copies (call `finishClaudeImport` after asking). */
export function prepareClaudeImport(home: string, dataDir: string): ClaudeImport {
  const found = claudeInstalls(home);
  const store = pluginStore(dataDir);
  const installed = readInstalled(store);
  const known = readMarketplaces(store);
  const have = typeof installed === "string" ? {} : installed;
  const result: ClaudeImport = { prepared: [], marketplaces: found.marketplaces.filter((m) => typeof known !== "string" && !known[m.name]), problems: found.problems };
  for (const offer of found.offers) {
    if (have[offer.id]) continue;
    const prepared = prepareSource({ kind: "path", path: offer.installPath }, store, offer.id, offer.marketplace, offer.version);
    if ("error" in prepared) result.problems.push(`Claude Code's ${offer.id}: ${prepared.error}`);
    else result.prepared.push({ offer, prepared });
  }
  return result;
}

/** Installs what was prepared, enabled as Claude Code has them, and knows Claude Code's marketplaces (read in Claude Code's clones). */
export function finishClaudeImport(found: ClaudeImport, places: InstallPlaces): { done: InstalledPlugin[]; problems: string[] } {
  const store = pluginStore(places.dataDir);
  const known = readMarketplaces(store);
  if (typeof known !== "string" && found.marketplaces.length) {
    const added = Object.fromEntries(found.marketplaces.map((m) => [m.name, { name: m.name, source: { kind: "path" as const, path: m.root }, root: m.root, addedAt: new Date().toISOString() }]));
    writeMarketplaces(store, { ...known, ...added });
  }
  const done: InstalledPlugin[] = [];
  const problems: string[] = [];
  for (const { offer, prepared } of found.prepared) {
    const record = finishInstall(prepared, places);
    if ("error" in record) problems.push(`${offer.id}: ${record.error}`);
    else done.push(record);
    if (!("error" in record) && !offer.enabled) {
      const problem = setEnabled(places.userConfig, record.id, false);
      if (problem) problems.push(problem);
    }
  }
  return { done, problems };
}
