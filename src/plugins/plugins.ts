// The plugins of a run, from two places: the folders linked or copied into rein's plugins folder
// (`~/.config/rein/plugins/*/`, always on: for a plugin you are writing) and the installed plugins
// that are enabled. A broken plugin is a problem line; the others still load.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathKind } from "../skills/path-kind.ts";
import type { EntryComponents } from "./entry-manifest.ts";
import type { Plugin } from "./read-plugin.ts";

export type { Plugin } from "./read-plugin.ts";
export type PluginLoad = { plugins: Plugin[]; problems: string[] };
/**
 * A plugin to load: its folder and, for an installed one, its id and name (`installed`: a copy with
 * an index, plugin-index.ts); `indexed`: what reading it gave, from the installed plugins' index.
 */
export type PluginRoot = { root: string; id?: string; name?: string; entry?: EntryComponents; installed?: boolean; indexed?: Plugin | string };

/** The plugin folders in `dir` (rein's plugins folder), sorted by name. */
export function folderPlugins(dir: string, problems: string[]): PluginRoot[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") problems.push(`${dir}: cannot read the plugins folder (${code ?? String(error)})`);
    return [];
  }
  return entries.filter((entry) => !entry.startsWith(".") && pathKind(join(dir, entry)) === "dir").map((entry) => ({ root: join(dir, entry) }));
}

/** Reads each root; the first plugin of a name wins, a later one is a problem. `dataRoot` holds each plugin's data folder. */
export function loadPlugins(roots: readonly PluginRoot[], dataRoot: string, problems: string[] = []): PluginLoad {
  const load: PluginLoad = { plugins: [], problems };
  const seen = new Map<string, string>();
  for (const { root, id, name, entry, installed, indexed } of roots) {
    const identity = { ...(id ? { id } : {}), ...(name ? { name } : {}), ...(entry ? { entry } : {}), dataRoot };
    const plugin = indexed ?? (installed ? indexModule().readIndexedPlugin(root, identity) : readerModule().readPlugin(root, identity));
    if (typeof plugin === "string") {
      load.problems.push(plugin);
      continue;
    }
    const first = seen.get(plugin.name);
    if (first) {
      load.problems.push(`${plugin.root}: a plugin named "${plugin.name}" is already loaded from ${first}; rename one or disable one`);
      continue;
    }
    seen.set(plugin.name, plugin.root);
    load.plugins.push(plugin);
    // a loop, not map: map's calls over a start's plugins add up past JavaScriptCore's optimizing threshold
    for (const problem of plugin.problems) load.problems.push(`plugin ${plugin.name}: ${problem}`);
  }
  return load;
}

// Reading a plugin's folder (and its schemas) loads only for a plugin the installed plugins' index lacks.
const indexModule = () => require("./plugin-index.ts") as typeof import("./plugin-index.ts");
const readerModule = () => require("./read-plugin.ts") as typeof import("./read-plugin.ts");
