// rein's record of installed plugins and known marketplaces, in its data folder:
// `plugins/installed.json`, `plugins/marketplaces.json`, the copies in `plugins/cache/ID/VERSION/`,
// marketplace clones in `plugins/marketplaces/NAME/` and each plugin's data in `plugins/data/ID/`.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { parseJson, readOptionalText } from "../config/optional-json.ts";
import { once } from "../sdk/once.ts";

// The files' schemas, made at their first use (a file the hand-written check does not accept, or one
// of marketplaces.json): a start with plugins reads installed.json without them, and making about 30
// valibot schemas at every start pushes valibot's constructors into JavaScriptCore's optimizing JIT.
const schemas = once(() => {
  const Source = v.variant("kind", [
    v.object({ kind: v.literal("path"), path: v.string() }),
    v.object({ kind: v.literal("git"), url: v.string(), ref: v.optional(v.string()), subdir: v.optional(v.string()) }),
  ]);
  const Installed = v.object({
  id: v.string(),
  name: v.string(),
  source: Source,
  marketplace: v.optional(v.string()),
  version: v.string(),
  commit: v.optional(v.string()),
  root: v.string(),
  installedAt: v.string(),
    /** the marketplace entry's component lists and `strict` (entry-manifest.ts), read with the copy */
    entry: v.optional(v.record(v.string(), v.unknown())),
  });
  const Market = v.object({ name: v.string(), source: Source, root: v.string(), addedAt: v.string() });
  return { Source, Installed, Market, InstalledFile: v.object({ plugins: v.record(v.string(), Installed) }), MarketsFile: v.object({ marketplaces: v.record(v.string(), Market) }) };
});
type Schemas = ReturnType<typeof schemas>;
export type PluginSource = v.InferOutput<Schemas["Source"]>;
export type InstalledPlugin = v.InferOutput<Schemas["Installed"]>;
export type KnownMarketplace = v.InferOutput<Schemas["Market"]>;
type InstalledFile = v.InferOutput<Schemas["InstalledFile"]>;

export type PluginStore = { dir: string; cache: string; data: string; marketplaces: string; tmp: string };

export function pluginStore(dataDir: string): PluginStore {
  const dir = join(dataDir, "plugins");
  return { dir, cache: join(dir, "cache"), data: join(dir, "data"), marketplaces: join(dir, "marketplaces"), tmp: join(dir, "tmp") };
}

/** A folder name for an id: characters outside [A-Za-z0-9_-] become `-` (as Claude Code names data folders). */
export function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "-");
}

export function readInstalled(store: PluginStore): Record<string, InstalledPlugin> | string {
  const read = readInstalledText(store);
  return typeof read === "string" ? read : read.plugins;
}

/**
 * installed.json's records with its text (none when there is no file). `known(text)` says the text
 * was checked before (plugins/index.json was written for it): it is then parsed without the check.
 */
export function readInstalledText(store: PluginStore, known?: (text: string) => boolean): { plugins: Record<string, InstalledPlugin>; text?: string } | string {
  const file = join(store.dir, "installed.json");
  const read = readOptionalText(file);
  if (read && "text" in read && known?.(read.text)) return { plugins: (JSON.parse(read.text) as InstalledFile).plugins, text: read.text };
  const plugins = readRecord(file, () => schemas().InstalledFile, (f) => f.plugins, { plugins: {} }, plainInstalled, read);
  if (typeof plugins === "string") return plugins;
  return read && "text" in read ? { plugins, text: read.text } : { plugins };
}

/**
 * The shape InstalledFile checks, tested by hand: read at every start with one record per plugin,
 * where the schema's walk costs milliseconds. Anything it does not accept goes to the schema,
 * which says what is wrong.
 */
function plainInstalled(json: unknown): json is InstalledFile {
  if (!isObject(json) || !isObject(json.plugins)) return false;
  const str = (value: unknown) => typeof value === "string";
  const optional = (value: unknown) => value === undefined || typeof value === "string";
  return Object.values(json.plugins).every((p) => {
    if (!isObject(p) || !str(p.id) || !str(p.name) || !str(p.version) || !str(p.root) || !str(p.installedAt) || !optional(p.marketplace) || !optional(p.commit)) return false;
    if (p.entry !== undefined && !isObject(p.entry)) return false;
    const s = p.source;
    if (!isObject(s)) return false;
    return s.kind === "path" ? str(s.path) : s.kind === "git" && str(s.url) && optional(s.ref) && optional(s.subdir);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function writeInstalled(store: PluginStore, plugins: Record<string, InstalledPlugin>): void {
  writeJson(join(store.dir, "installed.json"), { plugins });
}

export function readMarketplaces(store: PluginStore): Record<string, KnownMarketplace> | string {
  return readRecord(join(store.dir, "marketplaces.json"), () => schemas().MarketsFile, (f) => f.marketplaces, { marketplaces: {} });
}

export function writeMarketplaces(store: PluginStore, marketplaces: Record<string, KnownMarketplace>): void {
  writeJson(join(store.dir, "marketplaces.json"), { marketplaces });
}

/** The file's records ({} when there is none), or one line saying what is wrong with it. */
function readRecord<F, T>(file: string, schema: () => v.GenericSchema<unknown, F>, pick: (f: F) => T, empty: F, plain?: (json: unknown) => json is F, read = readOptionalText(file)): T | string {
  if (!read) return pick(empty);
  if ("problem" in read) return `${file}: ${read.problem}`;
  const json = parseJson(read.text);
  if ("problem" in json) return `${file}: not valid JSON; fix or delete it (rein rewrites it on the next install)`;
  if (plain?.(json.value)) return pick(json.value);
  const parsed = v.safeParse(schema(), json.value);
  return parsed.success ? pick(parsed.output) : `${file}: ${v.getDotPath(parsed.issues[0]) ?? "the file"}: ${parsed.issues[0].message}; fix or delete it`;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}
