import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const MARKERS = [".git", ".rein"];

/** The nearest directory at or above `cwd` that holds `.git` or `.rein`; `cwd` itself when none does. */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (MARKERS.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** `from`, its parents up to `top` (both included); only `from` when it is not inside `top`. */
export function foldersUpTo(from: string, top: string): string[] {
  const dirs: string[] = [];
  let dir = resolve(from);
  const end = resolve(top);
  if (relative(end, dir).startsWith("..")) return [dir];
  for (;;) {
    dirs.push(dir);
    if (dir === end || dirname(dir) === dir) return dirs;
    dir = dirname(dir);
  }
}
