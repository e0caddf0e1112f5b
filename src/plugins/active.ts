// The plugins a run loads, and what they feed each part. Read once per run by the front end.
import { join } from "node:path";
import { folderPlugins, loadPlugins, type PluginLoad } from "./plugins.ts";
import { pluginSources, type PluginSources } from "./sources.ts";

export type PluginPlaces = {
  /** rein's user config folder: its `plugins/` holds plugin folders that are always on */
  configDir: string;
  /** rein's data folder: installed plugins and their data folders */
  dataDir: string;
  trusted: boolean;
};

export type ActivePlugins = PluginLoad & { sources: PluginSources };

export function pluginsDir(dataDir: string): string {
  return join(dataDir, "plugins");
}

export function activePlugins(places: PluginPlaces): ActivePlugins {
  const problems: string[] = [];
  const roots = folderPlugins(join(places.configDir, "plugins"), problems);
  const load = loadPlugins(roots, join(pluginsDir(places.dataDir), "data"), problems);
  const sources = pluginSources(load.plugins);
  return { ...load, problems: [...load.problems, ...sources.warnings], sources };
}

export const NO_PLUGINS: ActivePlugins = { plugins: [], problems: [], sources: pluginSources([]) };
