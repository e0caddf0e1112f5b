// Files outside the workspace that rein's own file tools wrote: copied into the store before the
// first write of a turn and after the turn (within the size limit), so undo and redo can put them
// back, refusing (unless forced) when one changed since the turn left it.
import { chmodSync, copyFileSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Checkpoint, OutsideFile, SavedFile } from "./journal.ts";
import { readOwnBytes } from "../sdk/own-file.ts";
import { digestHex } from "../sdk/digest.ts";

/** Copies `path` into the store as `name`; null when there is no file, "big" when it is over the limit. */
export function saveOutside(storeDir: string, name: string, path: string, maxFileBytes: number): SavedFile | null | "big" {
  const stat = statOrUndefined(path);
  if (!stat) return null;
  if (stat.size > maxFileBytes) return "big";
  const file = join("outside", name);
  mkdirSync(dirname(join(storeDir, file)), { recursive: true });
  copyFileSync(path, join(storeDir, file));
  return { file, sha256: hashOf(join(storeDir, file)), mode: stat.mode & 0o7777 };
}

/** For each outside file of the checkpoints (oldest first): its state before the first and after the last. */
export function outsideSpan(group: readonly Checkpoint[]): OutsideFile[] {
  const span = new Map<string, OutsideFile>();
  for (const checkpoint of group) {
    for (const entry of checkpoint.outside ?? []) {
      const seen = span.get(entry.path);
      span.set(entry.path, { path: entry.path, before: seen ? seen.before : entry.before, ...(entry.after !== undefined ? { after: entry.after } : {}) });
    }
  }
  return [...span.values()];
}

/** The files whose content now is not `expected` (what the turn left, for an undo). */
export function changedSince(files: readonly { path: string; expected: SavedFile | null | undefined }[]): string[] {
  return files.filter(({ path, expected }) => expected !== undefined && !same(path, expected)).map(({ path }) => path);
}

/** Puts `path` back as `saved` has it (removes it when there was no file). */
export function putOutside(storeDir: string, path: string, saved: SavedFile | null): void {
  if (!saved) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(join(storeDir, saved.file), path);
  chmodSync(path, saved.mode);
}

function same(path: string, saved: SavedFile | null): boolean {
  const stat = statOrUndefined(path);
  if (!saved || !stat) return !saved && !stat;
  return (stat.mode & 0o7777) === saved.mode && hashOf(path) === saved.sha256;
}

function hashOf(path: string): string {
  return digestHex("sha256", readOwnBytes(path).bytes);
}

function statOrUndefined(path: string) {
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}
