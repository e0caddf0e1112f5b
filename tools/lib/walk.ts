// Walks a folder the way `rg --hidden` does: .gitignore files at the root, in every folder
// below it and in the folders above it (up to the repository's top, the folder holding `.git`,
// or the file-system root outside a repository) decide what is skipped; `.git` and
// `node_modules` are always skipped; symlinks are reported but never followed, so there are no
// loops. The walk stops at the next folder once the signal aborts.
//
// Speed (a 100,000-file tree is walked in about the time `rg --files` takes): each folder is read
// with one synchronous readdir (half the CPU of the promise form, which also waits a thread-pool
// round trip per folder), entries are handed out a folder at a time, and the walk gives the event
// loop a turn every few milliseconds so an abort and the terminal are still seen.
import { existsSync, readdirSync, type Dirent } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isIgnored, parseGitignore, type IgnoreRule } from "./gitignore.ts";

export type EntryKind = "file" | "dir" | "link";

export type Entry = {
  path: string;
  /** relative to the walk's root, with `/` separators */
  rel: string;
  name: string;
  kind: EntryKind;
  /** 1 for the root's own children */
  depth: number;
};

/** A folder about to be read, with the ignore rules in force above it. */
export type Folder = { path: string; rel: string; depth: number; rules: readonly IgnoreRule[] };

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
/** How long the walk runs before it lets the event loop take a turn. */
const SLICE_MS = 8;

export async function rootFolder(root: string): Promise<Folder> {
  return { path: root, rel: "", depth: 0, rules: await parentRules(root) };
}

/** The folder's children that survive the ignore rules (folders first, then by name), and the
 * rules in force for its subfolders. An unreadable folder has no children. */
export async function readFolder(folder: Folder): Promise<{ entries: Entry[]; rules: readonly IgnoreRule[] }> {
  const read = await readUnsorted(folder);
  read.entries.sort((a, b) => (a.kind === "dir") !== (b.kind === "dir") ? (a.kind === "dir" ? -1 : 1) : compare(a.name, b.name));
  return read;
}

export function subfolder(entry: Entry, rules: readonly IgnoreRule[]): Folder {
  return { path: entry.path, rel: entry.rel, depth: entry.depth, rules };
}

/**
 * Every entry under root, folders included, down to maxDepth: one folder's entries at a time (in no
 * promised order, folders or entries).
 */
export async function* walk(root: string, signal: AbortSignal, maxDepth = Number.POSITIVE_INFINITY): AsyncGenerator<Entry[]> {
  const pending: Folder[] = [await rootFolder(root)];
  let sliceStart = performance.now();
  while (pending.length > 0 && !signal.aborted) {
    const { entries, rules } = await readUnsorted(pending.pop()!);
    for (const entry of entries) {
      if (entry.kind === "dir" && entry.depth < maxDepth) pending.push(subfolder(entry, rules));
    }
    if (entries.length > 0) yield entries;
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** Code-unit order: the one order every listing here sorts by. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function readUnsorted(folder: Folder): Promise<{ entries: Entry[]; rules: readonly IgnoreRule[] }> {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(folder.path, { withFileTypes: true });
  } catch {
    return { entries: [], rules: folder.rules };
  }
  // A .gitignore is read only when it is a regular file (a named pipe would never end the read).
  const own = dirents.some((d) => d.name === ".gitignore" && d.isFile())
    ? parseGitignore(await readText(join(folder.path, ".gitignore")), folder.path)
    : [];
  const rules = own.length > 0 ? [...folder.rules, ...own] : folder.rules;
  const prefix = folder.path.endsWith("/") ? folder.path : `${folder.path}/`;
  const relPrefix = folder.rel === "" ? "" : `${folder.rel}/`;
  const depth = folder.depth + 1;
  const entries: Entry[] = [];
  for (const d of dirents) {
    const kind: EntryKind | undefined = d.isSymbolicLink() ? "link" : d.isDirectory() ? "dir" : d.isFile() ? "file" : undefined;
    if (!kind || ALWAYS_SKIPPED.has(d.name)) continue;
    const path = prefix + d.name;
    if (rules.length > 0 && isIgnored(rules, path, kind === "dir")) continue;
    entries.push({ path, rel: relPrefix + d.name, name: d.name, kind, depth });
  }
  return { entries, rules };
}

/** Rules from the .gitignore files above root, shallowest first. */
async function parentRules(root: string): Promise<IgnoreRule[]> {
  const layers: IgnoreRule[][] = [];
  let dir = root;
  while (!existsSync(join(dir, ".git")) && dirname(dir) !== dir) {
    dir = dirname(dir);
    const file = join(dir, ".gitignore");
    if (existsSync(file)) layers.unshift(parseGitignore(await readText(file), dir));
  }
  return layers.flat();
}

function readText(path: string): Promise<string> {
  return readFile(path, "utf8").catch(() => "");
}
