// One index for the installed plugins a run loads: `plugins/index.json` beside installed.json. It
// holds a digest of installed.json's text as it was when the index was written (so a start compares
// it instead of checking every record against the schema again) and, by id, each enabled plugin as
// read from its copy (its copy's own index, plugin-index.ts) with its marketplace entry's component
// lists, the long texts left out (index-texts.ts). A start reads two files, however many plugins
// are installed. Every install, update and
// removal rewrites installed.json, and copies never change in place, so an index whose text and
// build match is true; one that does not match, or lacks a plugin now enabled, is filled in by the
// run that finds it so and written again.
import { closeSync, constants, fstatSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readOwnText } from "../sdk/own-file.ts";
import { BUILD } from "../version.ts";
import type { EntryComponents } from "./entry-manifest.ts";
import { withoutTexts } from "./index-texts.ts";
import type { Plugin } from "./read-plugin.ts";
import type { PluginStore } from "./store.ts";

export const INSTALLED_INDEX = "index.json";
/** Raised when what the index holds changes shape (the build id covers rein's own changes). */
const FORMAT = 2;

/** One installed plugin as a run reads it: the plugin (or why it cannot load), and its entry's lists (or what is wrong with them). */
export type IndexedPlugin = { root: string; plugin: Plugin | string; entry?: EntryComponents | string };

/** `installed`: installedDigest of installed.json's text */
export type InstalledIndex = { key: string; installed: string; plugins: Record<string, IndexedPlugin> };

/** What the index keeps of installed.json's text: its length and a 64-bit hash (the text is about 300 bytes a plugin). */
export function installedDigest(text: string): string {
  return `${text.length}:${Bun.hash(text).toString(16)}`;
}

export function indexKey(store: PluginStore): string {
  return JSON.stringify([FORMAT, BUILD, store.data]);
}

/** The index when it was written for this text of installed.json by this build, else undefined (its plugins' texts are left out: withTextsOnUse). */
export function readInstalledIndex(store: PluginStore, installedText: string): InstalledIndex | undefined {
  try {
    const index = JSON.parse(readIndexText(join(store.dir, INSTALLED_INDEX))) as Partial<InstalledIndex>;
    if (index.key !== indexKey(store) || index.installed !== installedDigest(installedText) || typeof index.plugins !== "object" || index.plugins === null) return undefined;
    return index as InstalledIndex;
  } catch {
    return undefined; // none, unreadable or not JSON: the plugins are read from their copies
  }
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * The index's text, as readOwnText reads it (a regular file, opened without blocking), but mapped
 * rather than read: a read fills a fresh buffer (here a page fault per 4 KiB, before the string's
 * own) where a mapping takes the page cache's pages. The index is only ever replaced whole (a
 * rename), never written in place, so the mapping cannot shrink under the read. Without
 * /proc/self/fd, or for an empty file (which cannot be mapped), it is read.
 */
function readIndexText(file: string): string {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size === 0) return readOwnText(file);
    let mapped: Uint8Array;
    try {
      mapped = Bun.mmap(`/proc/self/fd/${fd}`, { shared: false });
    } catch {
      return readOwnText(file);
    }
    return new TextDecoder().decode(mapped);
  } finally {
    closeSync(fd);
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
