// Installed copies a running session still uses are not deleted under it. A session holds each
// installed copy it loads open (one directory descriptor per copy, for the life of the process);
// an update puts the new copy in place (beside the old version's folder, or swapped in by rename
// for the same version) and deletes a superseded copy only when no other process holds it. What is
// held stays until a later install, update or removal finds it free. Without /proc, which tells
// who holds what, superseded copies are kept (an old copy costs disk, a deleted one a session's hooks).
import { existsSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PluginStore } from "./store.ts";
import { randomHex } from "../sdk/digest.ts";

/** the copies this process holds, by path */
const held = new Map<string, number>();

/**
 * Holds the copy at `root` open for the rest of this process, so an update elsewhere leaves it be.
 * False when the copy is gone (the open is also the run's check that it is there).
 */
export function holdCopy(root: string): boolean {
  if (held.has(root)) return existsSync(root); // a process that loads its plugins again (the server)
  try {
    held.set(root, openSync(root, "r"));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR"; // unreadable: reading it says what is wrong
  }
}

/** A folder beside `root` to copy a new version into before it is put in place. */
export function stagingFor(root: string): string {
  const staging = join(dirname(root), `.staging-${process.pid}-${randomHex(4)}`);
  mkdirSync(dirname(root), { recursive: true });
  return staging;
}

/**
 * Puts the copy made in `staging` at `root`. An existing copy there is moved aside first (a session
 * that runs its files by path then runs the new ones), and deleted unless another process holds it.
 */
export function putInPlace(staging: string, root: string): void {
  if (existsSync(root)) {
    const aside = join(dirname(root), `.superseded-${Date.now()}-${randomHex(4)}`);
    renameSync(root, aside);
    renameSync(staging, root);
    return;
  }
  renameSync(staging, root);
}

/**
 * Deletes every copy in the cache that is not one of `current` (the installed plugins' roots) and
 * that no other process holds: superseded versions, copies moved aside, staging left by a killed install.
 */
export function pruneCopies(store: PluginStore, current: ReadonlySet<string>): void {
  const holders = heldElsewhere();
  let plugins: string[];
  try {
    plugins = readdirSync(store.cache);
  } catch {
    return; // no cache yet
  }
  for (const plugin of plugins) {
    const dir = join(store.cache, plugin);
    let copies: string[];
    try {
      copies = readdirSync(dir);
    } catch {
      continue;
    }
    let left = copies.length;
    for (const copy of copies) {
      const path = join(dir, copy);
      if (current.has(path) || !holders || holders.has(path) || stagingUnderWay(copy)) continue;
      rmSync(path, { recursive: true, force: true });
      left--;
    }
    if (left === 0) rmSync(dir, { recursive: true, force: true });
  }
}

/** A staging folder of an install still running (this process's, or a live one's). */
function stagingUnderWay(name: string): boolean {
  const pid = /^\.staging-(\d+)-/.exec(name)?.[1];
  if (!pid) return false;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The folders other processes hold open (undefined where /proc cannot tell). */
function heldElsewhere(): Set<string> | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return undefined;
  }
  const paths = new Set<string>();
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        paths.add(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        // closed meanwhile
      }
    }
  }
  return paths;
}

