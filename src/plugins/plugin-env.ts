// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} (and rein's names for them): substituted where
// Claude Code substitutes them, and exported to the processes a plugin's hooks and servers start.
import type { Plugin } from "./read-plugin.ts";

const VARIABLE = /\$\{(?:CLAUDE|REIN)_PLUGIN_(ROOT|DATA)\}/g;

export function pluginEnv(plugin: Pick<Plugin, "root" | "dataDir">): Record<string, string> {
  return { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir, REIN_PLUGIN_ROOT: plugin.root, REIN_PLUGIN_DATA: plugin.dataDir };
}

export function fillPluginVars(text: string, plugin: Pick<Plugin, "root" | "dataDir">): string {
  return text.replace(VARIABLE, (_whole, which: string) => (which === "ROOT" ? plugin.root : plugin.dataDir));
}

/** Every string in a JSON value, substituted (keys stay as they are). */
export function fillDeep(value: unknown, plugin: Pick<Plugin, "root" | "dataDir">): unknown {
  if (typeof value === "string") return fillPluginVars(value, plugin);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, plugin));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, fillDeep(item, plugin)]));
  return value;
}
