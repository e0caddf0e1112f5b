// The program a command name runs, looked up through PATH as the shell does. A name that lands on a
// file inside the workspace (a `node_modules/.bin` or `.` entry in PATH, a link into the
// repository) runs code the repository ships, whatever the name promises.
import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { isInside, resolveForCheck } from "./paths.ts";

// Names bash runs itself, never from PATH.
const BUILTINS = new Set(
  `. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable
  eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd
  read readarray readonly return set shift shopt source suspend test time times trap true type typeset ulimit umask
  unalias unset wait`.split(/\s+/),
);

/** The file inside `workspace` that `name` would run, or undefined (a builtin, a path, found elsewhere, not found). */
export function programInWorkspace(name: string, cwd: string, searchPath: string, workspace: string, home: string): string | undefined {
  if (name === "" || name.includes("/") || BUILTINS.has(name)) return undefined;
  for (const entry of searchPath.split(":")) {
    const dir = entry === "" ? cwd : isAbsolute(entry) ? entry : resolve(cwd, entry);
    const candidate = join(dir, name);
    // Folders outside the workspace (/usr/bin...) are looked up once in a while; the workspace's always.
    const real = isInside(dir, workspace) ? lookUp(candidate, home) : cachedLookUp(candidate, home);
    if (real === undefined) continue;
    return isInside(real, workspace) ? real : undefined;
  }
  return undefined;
}

const CACHE_MS = 5_000;
const cache = new Map<string, { real: string | undefined; at: number }>();

function cachedLookUp(candidate: string, home: string): string | undefined {
  const now = Date.now();
  const hit = cache.get(candidate);
  if (hit && now - hit.at < CACHE_MS) return hit.real;
  const real = lookUp(candidate, home);
  if (cache.size > 4096) cache.clear();
  cache.set(candidate, { real, at: now });
  return real;
}

function lookUp(candidate: string, home: string): string | undefined {
  return isExecutableFile(candidate) ? resolveForCheck(candidate, "/", home) : undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path, { throwIfNoEntry: false }); // most entries miss: no exception for them
    return stat !== undefined && stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
