// One index for the installed plugins a run loads: `plugins/index.json` beside installed.json. It
// holds installed.json's text as it was when the index was written (so a start compares the text
// instead of checking every record against the schema again) and, by id, each enabled plugin as
// read from its copy (its copy's own index, plugin-index.ts) with its marketplace entry's component
// lists, the long texts left out (index-texts.ts). A start reads two files, however many plugins
// are installed. Every install, update and
// removal rewrites installed.json, and copies never change in place, so an index whose text and
// build match is true; one that does not match, or lacks a plugin now enabled, is filled in by the
// run that finds it so and written again.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readOwnText } from "../sdk/own-file.ts";
import { BUILD } from "../version.ts";
import type { EntryComponents } from "./entry-manifest.ts";
import { withoutTexts } from "./index-texts.ts";
import type { Plugin } from "./read-plugin.ts";
import type { PluginStore } from "./store.ts";

export const INSTALLED_INDEX = "index.json";
/** Raised when what the index holds changes shape (the build id covers rein's own changes). */
const FORMAT = 1;

/** One installed plugin as a run reads it: the plugin (or why it cannot load), and its entry's lists (or what is wrong with them). */
export type IndexedPlugin = { root: string; plugin: Plugin | string; entry?: EntryComponents | string };

export type InstalledIndex = { key: string; installed: string; plugins: Record<string, IndexedPlugin> };

export function indexKey(store: PluginStore): string {
  return JSON.stringify([FORMAT, BUILD, store.data]);
}

/** The index when it was written for this text of installed.json by this build, else undefined (its plugins' texts are left out: withTextsOnUse). */
export function readInstalledIndex(store: PluginStore, installedText: string): InstalledIndex | undefined {
  try {
    const index = JSON.parse(readOwnText(join(store.dir, INSTALLED_INDEX))) as Partial<InstalledIndex>;
    if (index.key !== indexKey(store) || index.installed !== installedText || typeof index.plugins !== "object" || index.plugins === null) return undefined;
    return index as InstalledIndex;
  } catch {
    return undefined; // none, unreadable or not JSON: the plugins are read from their copies
  }
}

/** Writes the index (a read-only data folder keeps none: the next run reads the copies again). */
export function writeInstalledIndex(store: PluginStore, index: InstalledIndex): void {
  const file = join(store.dir, INSTALLED_INDEX);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const plugins = Object.fromEntries(Object.entries(index.plugins).map(([id, entry]) => [id, typeof entry.plugin === "string" ? entry : { ...entry, plugin: withoutTexts(entry.plugin) }]));
    writeFileSync(tmp, JSON.stringify({ ...index, plugins }));
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {}
  }
}
