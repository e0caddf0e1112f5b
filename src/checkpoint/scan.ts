// What a snapshot must read: the paths whose stat differs from the session's index (git's stat
// cache), sorted into those to record, those over the size limit (listed, never read) and the
// folders git lists whole (new folders, nested repositories).
import { existsSync, lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export type Sorted = {
  /** paths to hash into the index (or to take out of it, when they are gone) */
  update: string[];
  /** paths over the size limit: taken out of the index, listed as not covered */
  drop: string[];
  uncovered: string[];
  /** new folders git listed whole (their files are listed by a second, narrower call) */
  folders: string[];
};

/** Sorts changed and untracked paths (folders end in "/"). */
export function sortChanged(root: string, paths: Iterable<string>, maxFileBytes: number, except?: ReadonlySet<string>): Sorted {
  const sorted: Sorted = { update: [], drop: [], uncovered: [], folders: [] };
  for (const path of new Set(paths)) {
    if (except?.has(path)) continue;
    if (path.endsWith("/")) {
      // A nested repository: its own git keeps it.
      if (existsSync(join(root, path, ".git"))) sorted.uncovered.push(path);
      else sorted.folders.push(path.slice(0, -1));
      continue;
    }
    const stat = lstatOrUndefined(join(root, path));
    if (stat && !stat.isSymbolicLink() && !stat.isDirectory() && stat.size > maxFileBytes) {
      sorted.uncovered.push(path);
      sorted.drop.push(path);
    } else sorted.update.push(path);
  }
  return sorted;
}

/** The empty folders in and under `dirs` (git keeps no folders, so they are found by looking). */
export function emptyDirsUnder(root: string, dirs: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    let names: string[];
    try {
      if (!lstatSync(join(root, dir)).isDirectory()) return;
      names = readdirSync(join(root, dir));
    } catch {
      return;
    }
    if (names.length === 0) found.push(dir);
    else if (depth < 8 && names.length < 1000) for (const name of names) visit(`${dir}/${name}`, depth + 1);
  };
  for (const dir of dirs) visit(dir, 0);
  return found;
}

export function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export function isEmptyDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

export const nulInput = (paths: readonly string[]) => paths.map((p) => `${p}\0`).join("");

/**
 * Removes the temporary object files git leaves behind when it fails (a full disk) or is killed:
 * those modified at or after `since` (the failed call's own; rarely, another session's in flight,
 * whose checkpoint is then marked incomplete) and those older than an hour.
 */
export function dropTemporaryObjects(objectsDir: string, since: number): void {
  const stale = Date.now() - 3_600_000;
  let dirs: string[];
  try {
    dirs = readdirSync(objectsDir);
  } catch {
    return;
  }
  for (const dir of dirs) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    let names: string[] = [];
    try {
      names = readdirSync(join(objectsDir, dir)).filter((name) => name.startsWith("tmp_obj_"));
    } catch {
      continue;
    }
    for (const name of names) {
      const mtime = lstatOrUndefined(join(objectsDir, dir, name))?.mtimeMs ?? 0;
      if (mtime >= since || mtime < stale) rmSync(join(objectsDir, dir, name), { force: true });
    }
  }
}
