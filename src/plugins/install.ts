// Installing: a spec (a folder, a git URL or NAME@MARKETPLACE) is fetched and read, then copied into
// rein's data folder, pinned to its version (or its git commit), recorded and enabled. The person
// sees what it runs between the two steps (see summary.ts).
import { cpSync, existsSync, lstatSync, mkdirSync, realpathSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { stageSource, type Staged } from "./fetch-source.ts";
import { isGitUrl } from "./git.ts";
import { entryComponents, type EntryComponents } from "./entry-manifest.ts";
import { entrySource, readMarketplace } from "./marketplace.ts";
import { INDEX_FILE, writePluginIndex } from "./plugin-index.ts";
import { readPlugin, type Plugin } from "./read-plugin.ts";
import { setEnabled } from "./enabled.ts";
import { pruneCopies, putInPlace, stagingFor } from "./copies.ts";
import { pluginStore, readInstalled, readMarketplaces, safeName, writeInstalled, type InstalledPlugin, type PluginSource, type PluginStore } from "./store.ts";

export type InstallPlaces = { dataDir: string; cwd: string; userConfig: string };
export type Prepared = { id: string; plugin: Plugin; source: PluginSource; marketplace?: string; entry?: EntryComponents; version: string; commit?: string; staged: Staged };
type Failed = { error: string };

const MARKET_SPEC = /^([a-z0-9][a-z0-9_-]*)@([a-z0-9][a-z0-9_.-]*)$/;

/** Fetches and reads the plugin a spec names; call `staged.done()` when finished with it. */
export function prepareInstall(spec: string, places: InstallPlaces): Prepared | Failed {
  const store = pluginStore(places.dataDir);
  const market = MARKET_SPEC.exec(spec);
  if (market && !existsSync(resolve(places.cwd, spec))) return fromMarketplace(market[1]!, market[2]!, store);
  const source: PluginSource = isGitUrl(spec) ? { kind: "git", url: spec } : { kind: "path", path: resolve(places.cwd, spec) };
  return prepareSource(source, store);
}

/** The same source again (and the marketplace's current entry), for rein plugin update. */
export function prepareUpdate(installed: InstalledPlugin, places: InstallPlaces): Prepared | Failed {
  const store = pluginStore(places.dataDir);
  return installed.marketplace ? fromMarketplace(installed.name, installed.marketplace, store) : prepareSource(installed.source, store);
}

function fromMarketplace(name: string, marketName: string, store: PluginStore): Prepared | Failed {
  const known = readMarketplaces(store);
  if (typeof known === "string") return { error: known };
  const market = known[marketName];
  if (!market) return { error: `no marketplace named "${marketName}" (known: ${Object.keys(known).join(", ") || "none"}; add one with rein plugin marketplace add PATH | GIT_URL)` };
  const listed = readMarketplace(market.root);
  if (typeof listed === "string") return { error: listed };
  const entry = listed.plugins.find((p) => p.name === name);
  if (!entry) return { error: `marketplace ${marketName} has no plugin "${name}" (it has ${listed.plugins.map((p) => p.name).join(", ") || "none"})` };
  const source = entrySource(entry, listed, market.root);
  if (typeof source === "string") return { error: source };
  const components = entryComponents(entry);
  if (typeof components === "string") return { error: `marketplace ${marketName}, plugin ${name}: ${components}` };
  return prepareSource(source, store, `${name}@${marketName}`, marketName, "local", components);
}

/** A source read as the plugin `id` (default: its name); `fallbackVersion` pins one with no version and no commit. */
export function prepareSource(source: PluginSource, store: PluginStore, id?: string, marketplace?: string, fallbackVersion = "local", entry?: EntryComponents): Prepared | Failed {
  const staged = stageSource(source, store);
  if ("error" in staged) return staged;
  const plugin = readPlugin(staged.root, { ...(id ? { id } : {}), name: id ? id.split("@")[0]! : staged.name, dataRoot: store.data, ...(entry ? { entry } : {}) });
  if (typeof plugin === "string") {
    staged.done();
    return { error: plugin };
  }
  const version = plugin.version ?? staged.commit?.slice(0, 12) ?? fallbackVersion;
  return { id: plugin.id, plugin, source, ...(marketplace ? { marketplace } : {}), ...(entry && Object.keys(entry).length ? { entry } : {}), version, ...(staged.commit ? { commit: staged.commit } : {}), staged };
}

/** Copies the plugin into the cache, records it (replacing an older copy) and enables it in the user config. */
export function finishInstall(prepared: Prepared, places: InstallPlaces, onNote?: (line: string) => void): InstalledPlugin | Failed {
  const store = pluginStore(places.dataDir);
  const installed = readInstalled(store);
  if (typeof installed === "string") return { error: installed };
  // A version is a folder name: no separators, and never `.` or `..`.
  const root = join(store.cache, safeName(prepared.id), prepared.version.replace(/[^A-Za-z0-9_.+-]/g, "-").replace(/^\.+/, "_"));
  // Copied beside it first, then put in place: a session running the copy there never sees it half made.
  const staging = stagingFor(root);
  mkdirSync(staging, { recursive: true });
  const outside: string[] = [];
  const shipped = join(prepared.staged.root, INDEX_FILE);
  cpSync(prepared.staged.root, staging, { recursive: true, filter: (from) => !/(^|\/)\.git$/.test(from) && from !== shipped && keptLink(prepared.staged.root, from, outside) });
  if (outside.length) onNote?.(`plugin ${prepared.id}: left out ${outside.length === 1 ? "a symlink that points" : `${outside.length} symlinks that point`} out of the plugin (${outside.slice(0, 3).join(", ")}${outside.length > 3 ? ", ..." : ""}): a plugin's files stay inside it`);
  prepared.staged.done();
  putInPlace(staging, root);
  writePluginIndex(root, { id: prepared.id, name: prepared.plugin.name, dataRoot: store.data, ...(prepared.entry ? { entry: prepared.entry } : {}) });
  const record: InstalledPlugin = {
    id: prepared.id,
    name: prepared.plugin.name,
    source: prepared.source,
    ...(prepared.marketplace ? { marketplace: prepared.marketplace } : {}),
    version: prepared.version,
    ...(prepared.commit ? { commit: prepared.commit } : {}),
    root,
    installedAt: new Date().toISOString(),
    ...(prepared.entry ? { entry: prepared.entry } : {}),
  };
  const now = { ...installed, [prepared.id]: record };
  writeInstalled(store, now);
  // The copy it replaces goes, unless a running session holds it (copies.ts).
  pruneCopies(store, rootsOf(now));
  const problem = setEnabled(places.userConfig, prepared.id, true);
  return problem ? { error: `installed, but not enabled: ${problem}` } : record;
}

/** The installed plugin an id or a plain name means (a name must be unambiguous). */
export function findInstalled(nameOrId: string, dataDir: string): InstalledPlugin | Failed {
  const installed = readInstalled(pluginStore(dataDir));
  if (typeof installed === "string") return { error: installed };
  const exact = installed[nameOrId];
  if (exact) return exact;
  const named = Object.values(installed).filter((p) => p.name === nameOrId);
  if (named.length === 1) return named[0]!;
  const ids = Object.keys(installed);
  if (named.length > 1) return { error: `"${nameOrId}" is installed from more than one place: say which (${named.map((p) => p.id).join(", ")})` };
  return { error: `no installed plugin "${nameOrId}" (installed: ${ids.join(", ") || "none"})` };
}

/** Deletes the copy and the record and drops it from the user config; its data folder is kept. */
export function removeInstalled(plugin: InstalledPlugin, places: InstallPlaces): string | undefined {
  const store = pluginStore(places.dataDir);
  const installed = readInstalled(store);
  if (typeof installed === "string") return installed;
  const { [plugin.id]: _gone, ...rest } = installed;
  writeInstalled(store, rest);
  pruneCopies(store, rootsOf(rest));
  return setEnabled(places.userConfig, plugin.id, undefined);
}

const rootsOf = (installed: Record<string, InstalledPlugin>) => new Set(Object.values(installed).map((p) => p.root));

/** False for a symlink whose target is outside the plugin (or cannot be resolved): it is not copied, and `outside` names it. */
function keptLink(pluginRoot: string, from: string, outside: string[]): boolean {
  let link: boolean;
  try {
    link = lstatSync(from).isSymbolicLink();
  } catch {
    return true;
  }
  if (!link) return true;
  const root = realpathSync(pluginRoot);
  let target: string | undefined;
  try {
    target = realpathSync(from);
  } catch {
    target = undefined;
  }
  if (target && (target === root || target.startsWith(`${root}/`))) return true;
  outside.push(relative(pluginRoot, from));
  return false;
}
