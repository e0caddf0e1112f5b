// Walks a folder the way `rg --hidden` does: .gitignore files at the root, in every folder
// below it and in the folders above it (up to the repository's top, the folder holding `.git`,
// or the file-system root outside a repository) decide what is skipped; `.git` and
// `node_modules` are always skipped; symlinks are reported but never followed, so there are no
// loops. The walk stops at the next folder once the signal aborts.
//
// Speed (a 100,000-file tree is walked in well under the time `rg --files` takes): up to
// READS_AT_ONCE folders are read at a time, by the runtime's thread pool, while this thread sorts
// out the entries already read; entries are handed out a folder at a time. Every read ends on the
// event loop, so an abort and the terminal are seen while a long walk runs.
import { existsSync, type Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ignoredIn, parseGitignore, type IgnoreRule } from "./gitignore.ts";

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

/** A folder's children that survive the ignore rules, and the rules in force for its subfolders. */
type FolderRead = { entries: Entry[]; rules: readonly IgnoreRule[] };

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
/** Folders read at once. On the 2-core bench machine under load 13, 8 took 0.44x the wall time
 * of `rg --files -g '*.md'` where one synchronous read at a time took 1.30x (alone: 0.7x, 0.85x). */
const READS_AT_ONCE = 8;

export async function rootFolder(root: string): Promise<Folder> {
  return { path: root, rel: "", depth: 0, rules: await parentRules(root) };
}

/** The folder's children that survive the ignore rules (folders first, then by name), and the
 * rules in force for its subfolders. An unreadable folder has no children. */
export async function readFolder(folder: Folder): Promise<FolderRead> {
  const read = await readUnsorted(folder);
  read.entries.sort((a, b) => (a.kind === "dir") !== (b.kind === "dir") ? (a.kind === "dir" ? -1 : 1) : compare(a.name, b.name));
  return read;
}

export function subfolder(entry: Entry, rules: readonly IgnoreRule[]): Folder {
  return { path: entry.path, rel: entry.rel, depth: entry.depth, rules };
}

/**
 * Every entry under root, folders included, down to maxDepth: one folder's entries at a time (in no
 * promised order, folders or entries). No folder is read once the signal has aborted.
 */
export async function* walk(root: string, signal: AbortSignal, maxDepth = Number.POSITIVE_INFINITY): AsyncGenerator<Entry[]> {
  const pending: Folder[] = [await rootFolder(root)];
  const read: FolderRead[] = [];
  let reading = 0;
  let wake: (() => void) | undefined;
  const start = (folder: Folder) => {
    reading++;
    void readUnsorted(folder).then((done) => {
      reading--;
      read.push(done);
      wake?.();
    });
  };
  while (!signal.aborted) {
    while (reading < READS_AT_ONCE && pending.length > 0) start(pending.pop()!);
    const next = read.pop();
    if (!next) {
      if (reading === 0) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      continue;
    }
    for (const entry of next.entries) {
      if (entry.kind === "dir" && entry.depth < maxDepth) pending.push(subfolder(entry, next.rules));
    }
    if (next.entries.length > 0) yield next.entries;
  }
}

/** Never rejects: a folder that cannot be read (or sorted out) has no children. */
async function readUnsorted(folder: Folder): Promise<FolderRead> {
  try {
    return await entriesOf(folder, await readdir(folder.path, { withFileTypes: true }));
  } catch {
    return { entries: [], rules: folder.rules };
  }
}

/** Code-unit order: the one order every listing here sorts by. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function entriesOf(folder: Folder, dirents: Dirent[]): Promise<FolderRead> {
  // A .gitignore is read only when it is a regular file (a named pipe would never end the read).
  const own = dirents.some((d) => d.name === ".gitignore" && d.isFile())
    ? parseGitignore(await readText(join(folder.path, ".gitignore")), folder.path)
    : [];
  const rules = own.length > 0 ? [...folder.rules, ...own] : folder.rules;
  const prefix = folder.path.endsWith("/") ? folder.path : `${folder.path}/`;
  const relPrefix = folder.rel === "" ? "" : `${folder.rel}/`;
  const depth = folder.depth + 1;
  const ignored = ignoredIn(rules, prefix);
  const entries: Entry[] = [];
  for (const d of dirents) {
    const kind: EntryKind | undefined = d.isSymbolicLink() ? "link" : d.isDirectory() ? "dir" : d.isFile() ? "file" : undefined;
    if (!kind || ALWAYS_SKIPPED.has(d.name)) continue;
    const path = prefix + d.name;
    if (ignored(d.name, kind === "dir")) continue;
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
