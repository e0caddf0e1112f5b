// The repository a git command acts on, found the way git finds it: from its directory upwards, a
// `.git` entry or a bare repository (HEAD, objects/, refs/ in the folder itself). Only the
// workspace's own repository (at its top, or above it when the workspace is a folder of one), or
// one the workspace's git folder holds (a submodule), runs without asking: any other repository's
// configuration can run programs (core.fsmonitor...).
import { existsSync, lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isInside, resolveForCheck } from "../paths.ts";
import { readOwnText } from "../../sdk/own-file.ts";

export type Where = { workspace: string; home: string };

/** Why the repository in `dir` (or `gitDir`) is not the workspace's own, or undefined when it is (or none is found). */
export function foreignRepository(dir: string, where: Where, gitDir?: string): string | undefined {
  const own = resolveForCheck(join(where.workspace, ".git"), "/", where.home);
  if (gitDir !== undefined) {
    const chosen = resolveForCheck(gitDir, dir, where.home);
    return chosen === own || isInside(chosen, own) ? undefined : `git is pointed at another repository (${chosen})`;
  }
  const start = resolveForCheck(dir, "/", where.home);
  for (let current = start; ; current = dirname(current)) {
    const entry = join(current, ".git");
    if (exists(entry)) {
      if (current === where.workspace) return undefined;
      // A workspace inside a repository (a `.rein` folder below the repository's top): that
      // repository is the workspace's own, seen from inside it.
      if (isInside(start, where.workspace) && isInside(where.workspace, current)) return undefined;
      const target = gitFileTarget(entry, current);
      if (target && isInside(resolveForCheck(target, "/", where.home), own)) return undefined; // a submodule's git folder
      return `git would run the repository at ${current}, not the workspace's own: its configuration can run programs`;
    }
    if (bare(current)) {
      if (isInside(current, own)) return undefined; // inside the workspace's git folder
      return `git would run the bare repository at ${current}, whose configuration can run programs`;
    }
    if (current === "/") return undefined;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function bare(dir: string): boolean {
  return existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects")) && existsSync(join(dir, "refs"));
}

// A `.git` file (`gitdir: PATH`) points at the real git folder.
function gitFileTarget(entry: string, dir: string): string | undefined {
  try {
    if (!lstatSync(entry).isFile()) return undefined;
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readOwnText(entry));
    return match ? resolve(dir, match[1]!) : undefined;
  } catch {
    return undefined;
  }
}
