// An installed copy's index: what reading the copy gives (the plugin and its skills, commands and
// agents, read as their loaders read them), kept in `.rein-index.json` at the copy's root. It is
// written at install time, so a run reads one file per installed plugin instead of every component
// file. A copy never changes in place (rein plugin update makes a new one), so its index stays true;
// an index written by another build of rein or for another identity, or one that cannot be read,
// is passed over: the copy is read as before and the index written again.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { readPluginAgents, type AgentFolderRead } from "../agents/sources.ts";
import { readOwnText } from "../sdk/own-file.ts";
import { readCommandDir, type CommandDirRead } from "../skills/commands.ts";
import { readSkillRoot, type SkillRootRead } from "../skills/discover.ts";
import { BUILD } from "../version.ts";
import { readPlugin, type Plugin, type PluginIdentity } from "./read-plugin.ts";
import { skillKey } from "./sources.ts";

/** The file at an installed copy's root; a plugin's own file of that name is never copied. */
export const INDEX_FILE = ".rein-index.json";
/** Raised when what an index holds changes shape (a build id covers rein's own changes). */
const FORMAT = 1;

/** What reading each component folder gave, by folder (a skill root by `single` and folder). */
export type ComponentReads = {
  skills: Record<string, SkillRootRead>;
  commands: Record<string, CommandDirRead>;
  agents: Record<string, AgentFolderRead>;
};


/** The installed copy at `root` with its components read: from its index when that is current, else from its files (and the index written again). */
export function readIndexedPlugin(root: string, identity: PluginIdentity): Plugin | string {
  const key = indexKey(root, identity);
  const indexed = readIndex(root, key);
  if (indexed) return indexed;
  const plugin = readWithComponents(root, identity);
  if (typeof plugin !== "string") writeIndex(root, key, plugin);
  return plugin;
}

/** Writes the copy's index (at install time); a copy without one is read from its files. */
export function writePluginIndex(root: string, identity: PluginIdentity): void {
  const plugin = readWithComponents(root, identity);
  if (typeof plugin === "string") rmSync(join(root, INDEX_FILE), { force: true });
  else writeIndex(root, indexKey(root, identity), plugin);
}

function readWithComponents(root: string, identity: PluginIdentity): Plugin | string {
  const plugin = readPlugin(root, identity);
  if (typeof plugin === "string") return plugin;
  return { ...plugin, read: componentReads(plugin) };
}

/** Each folder read as pluginSources hands it to the loaders: skills and commands named `plugin:name`, agents `plugin:agent`. */
function componentReads(plugin: Plugin): ComponentReads {
  const prefix = `${plugin.name}:`;
  const reads: ComponentReads = { skills: {}, commands: {}, agents: {} };
  const skill = (dir: string, single?: string) => (reads.skills[skillKey(dir, single)] = readSkillRoot({ dir, scope: "user", prefix, ...(single ? { single } : {}) }));
  for (const dir of plugin.skills) skill(dir);
  for (const dir of plugin.skillDirs) skill(dir, basename(dir));
  if (plugin.skill) skill(plugin.root, plugin.name);
  for (const dir of plugin.commands) reads.commands[dir] = readCommandDir({ dir, source: "user", prefix });
  for (const dir of plugin.agents) reads.agents[dir] = readPluginAgents(dir, prefix);
  return reads;
}

function indexKey(root: string, identity: PluginIdentity): string {
  return JSON.stringify([FORMAT, BUILD, root, identity.id ?? null, identity.name ?? null, identity.dataRoot, identity.entry ?? null]);
}

function readIndex(root: string, key: string): Plugin | undefined {
  try {
    const index = JSON.parse(readOwnText(join(root, INDEX_FILE))) as { key?: unknown; plugin?: Plugin };
    return index.key === key && typeof index.plugin === "object" && index.plugin !== null && index.plugin.read ? index.plugin : undefined;
  } catch {
    return undefined; // none, unreadable or not JSON: the copy is read instead
  }
}

function writeIndex(root: string, key: string, plugin: Plugin): void {
  const file = join(root, INDEX_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ key, plugin }));
    renameSync(tmp, file);
  } catch {
    // a read-only data folder: the next run reads the copy again
    try {
      rmSync(tmp, { force: true });
    } catch {}
  }
}
