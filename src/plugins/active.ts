// The plugins a run loads, and what they feed each part: the folders in rein's plugins folder
// (always on), then the installed plugins that are enabled. Read once per run by the front end.
// With no plugin (no plugins folder, no installed.json, none named in a config) this is two stats:
// the reading (load-active.ts and what it imports) loads only when there is something to read.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Enabled } from "./enabled.ts";
import type { PluginLoad } from "./plugins.ts";
import type { PluginSources } from "./sources.ts";

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
  if (nothingToRead(places)) return noPlugins();
  return (require("./load-active.ts") as typeof import("./load-active.ts")).loadActive(places);
}

/** No plugin folder, nothing installed and no config naming a plugin (which would be a problem to tell). */
function nothingToRead(places: PluginPlaces): boolean {
  const named = places.enabled && (Object.keys(places.enabled.user).length > 0 || Object.keys(places.enabled.project).length > 0);
  return !named && !existsSync(join(places.dataDir, "plugins", "installed.json")) && !existsSync(join(places.configDir, "plugins"));
}

function noPlugins(): ActivePlugins {
  return { plugins: [], problems: [], sources: { skills: [], commands: [], agents: [], hooks: [], mcp: [], lsp: [], bin: [], warnings: [] } };
}

export const NO_PLUGINS: ActivePlugins = noPlugins();
