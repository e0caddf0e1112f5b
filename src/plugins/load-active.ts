// Reading the plugins of a run (active.ts loads this only when there is a plugin to read): the
// folders in rein's plugins folder, read afresh, then the enabled installed plugins, from the one
// index of installed plugins (installed-index.ts) or, for what it lacks, from their copies.
import { mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ActivePlugins, PluginPlaces } from "./active.ts";
import { holdCopy } from "./copies.ts";
import { isOn } from "./enabled.ts";
import { withTextsOnUse } from "./index-texts.ts";
import { indexKey, installedDigest, readInstalledIndex, writeInstalledIndex, type IndexedPlugin, type InstalledIndex } from "./installed-index.ts";
import { folderPlugins, loadPlugins, type Plugin, type PluginRoot } from "./plugins.ts";
import { pluginRuns, pluginSources } from "./sources.ts";
import { pluginStore, readInstalledText, type InstalledPlugin, type PluginStore } from "./store.ts";

export function loadActive(places: PluginPlaces): ActivePlugins {
  const problems: string[] = [];
  const store = pluginStore(places.dataDir);
  const roots = [...folderPlugins(join(places.configDir, "plugins"), problems), ...enabledRoots(places, store, problems)];
  const load = loadPlugins(roots, store.data, problems);
  const made = madeDataDirs(load.plugins);
  for (const plugin of load.plugins) if (runsSomething(plugin) && !made.has(plugin.dataDir)) makeDataDir(plugin.dataDir, plugin.name, load.problems);
  const sources = pluginSources(load.plugins);
  return { ...load, problems: [...load.problems, ...sources.warnings], sources };
}

function enabledRoots(places: PluginPlaces, store: PluginStore, problems: string[]): PluginRoot[] {
  let index: InstalledIndex | undefined;
  const read = readInstalledText(store, (text) => (index = readInstalledIndex(store, text)) !== undefined);
  if (typeof read === "string") {
    problems.push(`${read}; no installed plugin was loaded`);
    return [];
  }
  const installed = read.plugins;
  const enabled = places.enabled ?? { user: {}, project: {} };
  const indexed: Record<string, IndexedPlugin> = { ...(index?.plugins ?? {}) };
  let changed = false;
  const roots: PluginRoot[] = [];
  const fromIndex: Plugin[] = [];
  for (const plugin of Object.values(installed)) {
    if (!isOn(plugin.id, enabled, places.trusted)) continue;
    // Held while this process runs: an update meanwhile leaves this copy in place (copies.ts).
    if (!holdCopy(plugin.root)) {
      problems.push(`plugin ${plugin.id}: its copy ${plugin.root} is gone; run rein plugin update ${plugin.id}`);
      continue;
    }
    const cached = index?.plugins[plugin.id];
    let found: IndexedPlugin;
    if (cached?.root === plugin.root && typeof cached.plugin !== "string") {
      found = cached;
      fromIndex.push(cached.plugin);
    }
    else {
      found = readInstalledPlugin(plugin, store);
      // What cannot load is read again next time (it may be a passing fault); the rest is kept.
      if (typeof found.plugin !== "string") {
        indexed[plugin.id] = found;
        changed = true;
      }
    }
    const entry = found.entry;
    if (typeof entry === "string") problems.push(`plugin ${plugin.id}: its marketplace entry in installed.json: ${entry}; read without it`);
    roots.push({ root: plugin.root, id: plugin.id, name: plugin.name, ...(entry && typeof entry !== "string" ? { entry } : {}), installed: true, indexed: found.plugin });
  }
  withTextsOnUse(fromIndex);
  if (changed && read.text !== undefined) writeInstalledIndex(store, { key: indexKey(store), installed: installedDigest(read.text), plugins: indexed });
  for (const [id, on] of Object.entries(enabled.project)) {
    if (!on || enabled.user[id] !== undefined) continue;
    if (!installed[id]) problems.push(`the project config asks for plugin ${id}, which is not installed (rein plugin install ${id})`);
    else if (!places.trusted) problems.push(`the project config asks for plugin ${id}: it loads only in a trusted workspace (run with --trust)`);
  }
  for (const [id, on] of Object.entries(enabled.user)) {
    if (on && !installed[id]) problems.push(`enabledPlugins in your config names ${id}, which is not installed (rein plugin install ${id}, or remove it from the config)`);
  }
  return roots;
}

/** An installed plugin read from its copy (the copy's own index when it is current): what the index lacks, so loaded only then. */
function readInstalledPlugin(plugin: InstalledPlugin, store: PluginStore): IndexedPlugin {
  const { entryComponents } = require("./entry-manifest.ts") as typeof import("./entry-manifest.ts");
  const { readIndexedPlugin } = require("./plugin-index.ts") as typeof import("./plugin-index.ts");
  const entry = plugin.entry ? entryComponents(plugin.entry) : undefined;
  const identity = { id: plugin.id, name: plugin.name, dataRoot: store.data, ...(entry && typeof entry !== "string" ? { entry } : {}) };
  const read = readIndexedPlugin(plugin.root, identity);
  return { root: plugin.root, plugin: typeof read === "string" ? read : { ...read, runs: pluginRuns(read) }, ...(entry !== undefined ? { entry } : {}) };
}

function runsSomething(plugin: Plugin): boolean {
  return plugin.hooks.length > 0 || plugin.mcpServers.length > 0 || plugin.bin !== undefined;
}

/**
 * The data folders that exist already, from one listing of each folder that holds them (the data
 * root: one read however many plugins run something, where a make of each costs a call apiece).
 */
function madeDataDirs(plugins: readonly Plugin[]): Set<string> {
  const made = new Set<string>();
  const parents = new Set<string>();
  for (const plugin of plugins) if (runsSomething(plugin)) parents.add(dirname(plugin.dataDir)); // a loop, not filter and map: see sources.ts
  for (const parent of parents) {
    try {
      for (const entry of readdirSync(parent, { withFileTypes: true })) if (entry.isDirectory()) made.add(join(parent, entry.name));
    } catch {
      // none yet, or unreadable: each is made (and a failure said) as before
    }
  }
  return made;
}

/** ${CLAUDE_PLUGIN_DATA} exists before the plugin's hooks and servers run, as in Claude Code. */
function makeDataDir(dir: string, name: string, problems: string[]): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    problems.push(`plugin ${name}: cannot make its data folder ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
