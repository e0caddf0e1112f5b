// The plugins a run loads, and what they feed each part: the folders in rein's plugins folder
// (always on), then the installed plugins that are enabled. Read once per run by the front end.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { holdCopy } from "./copies.ts";
import { isOn, type Enabled } from "./enabled.ts";
import { entryComponents } from "./entry-manifest.ts";
import { folderPlugins, loadPlugins, type Plugin, type PluginLoad, type PluginRoot } from "./plugins.ts";
import { pluginSources, type PluginSources } from "./sources.ts";
import { pluginStore, readInstalled } from "./store.ts";

export type PluginPlaces = {
  /** rein's user config folder: its `plugins/` holds plugin folders that are always on */
  configDir: string;
  /** rein's data folder: installed plugins and their data folders */
  dataDir: string;
  /** `enabledPlugins` of the user and project configs */
  enabled?: Enabled;
  trusted: boolean;
};

export type ActivePlugins = PluginLoad & { sources: PluginSources };

export function activePlugins(places: PluginPlaces): ActivePlugins {
  const problems: string[] = [];
  const roots = [...folderPlugins(join(places.configDir, "plugins"), problems), ...enabledRoots(places, problems)];
  const load = loadPlugins(roots, pluginStore(places.dataDir).data, problems);
  for (const plugin of load.plugins) if (runsSomething(plugin)) makeDataDir(plugin.dataDir, plugin.name, load.problems);
  const sources = pluginSources(load.plugins);
  return { ...load, problems: [...load.problems, ...sources.warnings], sources };
}

function enabledRoots(places: PluginPlaces, problems: string[]): PluginRoot[] {
  const installed = readInstalled(pluginStore(places.dataDir));
  if (typeof installed === "string") {
    problems.push(`${installed}; no installed plugin was loaded`);
    return [];
  }
  const enabled = places.enabled ?? { user: {}, project: {} };
  const roots: PluginRoot[] = [];
  for (const plugin of Object.values(installed)) {
    if (!isOn(plugin.id, enabled, places.trusted)) continue;
    if (!existsSync(plugin.root)) {
      problems.push(`plugin ${plugin.id}: its copy ${plugin.root} is gone; run rein plugin update ${plugin.id}`);
      continue;
    }
    const entry = plugin.entry ? entryComponents(plugin.entry) : undefined;
    if (typeof entry === "string") problems.push(`plugin ${plugin.id}: its marketplace entry in installed.json: ${entry}; read without it`);
    // Held while this process runs: an update meanwhile leaves this copy in place (copies.ts).
    holdCopy(plugin.root);
    roots.push({ root: plugin.root, id: plugin.id, name: plugin.name, ...(entry && typeof entry !== "string" ? { entry } : {}), installed: true });
  }
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

function runsSomething(plugin: Plugin): boolean {
  return plugin.hooks.length > 0 || plugin.mcpServers.length > 0 || plugin.bin !== undefined;
}

/** ${CLAUDE_PLUGIN_DATA} exists before the plugin's hooks and servers run, as in Claude Code. */
function makeDataDir(dir: string, name: string, problems: string[]): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    problems.push(`plugin ${name}: cannot make its data folder ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

export const NO_PLUGINS: ActivePlugins = { plugins: [], problems: [], sources: pluginSources([]) };
