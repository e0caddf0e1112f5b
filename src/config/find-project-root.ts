import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const MARKERS = [".git", ".rein"];

/** The nearest directory at or above `cwd` that holds `.git` or `.rein`; `cwd` itself when none does. */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (MARKERS.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
