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
    if (!isExecutableFile(candidate)) continue;
    const real = resolveForCheck(candidate, "/", home);
    return isInside(real, workspace) ? real : undefined;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
