// `enabledPlugins` in the user's config: rein plugin install/enable set an id true, disable sets it
// false, remove drops it. The rest of the file is kept as it was.
import { readConfigObject, writeConfigObject } from "../config/config-object.ts";

export function setEnabled(configFile: string, id: string, on: boolean | undefined): string | undefined {
  const config = readConfigObject(configFile);
  if (!config) return `${configFile} is not a JSON object; fix it, then run this again`;
  const current = config.enabledPlugins;
  const enabled: Record<string, unknown> = current && typeof current === "object" && !Array.isArray(current) ? { ...current } : {};
  if (on === undefined) delete enabled[id];
  else enabled[id] = on;
  if (Object.keys(enabled).length) config.enabledPlugins = enabled;
  else delete config.enabledPlugins;
  writeConfigObject(configFile, config);
  return undefined;
}

export type Enabled = { user: Readonly<Record<string, boolean>>; project: Readonly<Record<string, boolean>> };

/**
 * Whether an installed plugin is on: the user's word wins; a project's `true` counts only in a
 * trusted workspace (a repository may not start programs of its choosing otherwise).
 */
export function isOn(id: string, enabled: Enabled, trusted: boolean): boolean {
  const mine = enabled.user[id];
  if (mine !== undefined) return mine;
  return trusted && enabled.project[id] === true;
}
