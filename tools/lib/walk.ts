// Walks a folder the way `rg --hidden` does: .gitignore files at the root, in every folder
// below it and in the folders above it (up to the repository's top, the folder holding `.git`,
// or the file-system root outside a repository) decide what is skipped; `.git` and
// `node_modules` are always skipped; symlinks are reported but never followed, so there are no
// loops. The walk stops at the next folder once the signal aborts.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
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

export async function rootFolder(root: string): Promise<Folder> {
  return { path: root, rel: "", depth: 0, rules: await parentRules(root) };
}

/** The folder's children that survive the ignore rules (folders first, then by name), and the
 * rules in force for its subfolders. An unreadable folder has no children. */
export async function readFolder(folder: Folder): Promise<{ entries: Entry[]; rules: readonly IgnoreRule[] }> {
  const dirents = await readdir(folder.path, { withFileTypes: true }).catch(() => []);
  const own = dirents.some((d) => d.name === ".gitignore" && d.isFile())
    ? parseGitignore(await readText(join(folder.path, ".gitignore")), folder.path)
    : [];
  const rules = own.length > 0 ? [...folder.rules, ...own] : folder.rules;
  const entries: Entry[] = [];
  for (const d of dirents) {
    const kind: EntryKind | undefined = d.isSymbolicLink() ? "link" : d.isDirectory() ? "dir" : d.isFile() ? "file" : undefined;
    if (!kind || ALWAYS_SKIPPED.has(d.name)) continue;
    const path = join(folder.path, d.name);
    if (isIgnored(rules, path, kind === "dir")) continue;
    const rel = folder.rel === "" ? d.name : `${folder.rel}/${d.name}`;
    entries.push({ path, rel, name: d.name, kind, depth: folder.depth + 1 });
  }
  entries.sort((a, b) => (a.kind === "dir") !== (b.kind === "dir") ? (a.kind === "dir" ? -1 : 1) : compare(a.name, b.name));
  return { entries, rules };
}

export function subfolder(entry: Entry, rules: readonly IgnoreRule[]): Folder {
  return { path: entry.path, rel: entry.rel, depth: entry.depth, rules };
}

/** Every entry under root (in no promised order), folders included, down to maxDepth. */
export async function* walk(root: string, signal: AbortSignal, maxDepth = Number.POSITIVE_INFINITY): AsyncGenerator<Entry> {
  const pending: Folder[] = [await rootFolder(root)];
  while (pending.length > 0 && !signal.aborted) {
    const folder = pending.pop()!;
    const { entries, rules } = await readFolder(folder);
    for (const entry of entries) {
      yield entry;
      if (entry.kind === "dir" && entry.depth < maxDepth) pending.push(subfolder(entry, rules));
    }
  }
}

/** Code-unit order: the one order every listing here sorts by. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
