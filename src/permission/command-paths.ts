// Which arguments of a command are files it reads or writes, as absolute resolved paths, so that
// sensitive paths and paths outside the workspace are caught (`cat ~/.ssh/id_rsa`, `cp x /etc`).
// Redirections are not here: the analysis reports them and the caller checks them.
import { basename } from "node:path";
import type { PathSink } from "./command-options.ts";
import { genericPaths } from "./command-path-handlers.ts";
import { COMMAND_PATHS } from "./command-path-specs.ts";
import { resolveForCheck } from "./paths.ts";
import type { ShellCommand } from "./shell/types.ts";

export type CommandPaths = { reads: string[]; writes: string[] };

/**
 * The files `command` reads and writes, resolved against its cwd (`~` and `$HOME` against `home`,
 * symlinks followed). Known commands are read by their own flag rules (`head -n 5 f`, `cp -t dir
 * src`, `sed -i`); for an unknown one, every argument that looks like a path is a read. Words with
 * expansions (`$X`, backticks) are skipped: the caller handles dynamic commands. A glob (`~/.ssh/*`)
 * counts as its fixed leading folder (`~/.ssh`).
 */
export function commandPaths(command: ShellCommand, home: string): CommandPaths {
  const reads: string[] = [];
  const writes: string[] = [];
  const into = (list: string[]) => (word: string, base?: string) => {
    const path = resolveWord(word, base ?? command.cwd, home);
    if (path !== undefined && !list.includes(path)) list.push(path);
  };
  const sink: PathSink = {
    cwd: command.cwd,
    read: into(reads),
    write: into(writes),
    resolve: (word, base) => resolveWord(word, base ?? command.cwd, home),
  };
  const [name = "", ...args] = command.argv;
  const handler = Object.hasOwn(COMMAND_PATHS, basename(name)) ? COMMAND_PATHS[basename(name)]! : genericPaths;
  handler(args, sink);
  return { reads, writes };
}

/** The absolute path a word names, or undefined for no file (`-`, ``) or an expansion. */
export function resolveWord(word: string, base: string, home: string): string | undefined {
  if (word === "" || word === "-") return undefined;
  const homeVariable = /^(\$HOME|\$\{HOME\})(?=\/|$)/.exec(word)?.[0] ?? "";
  const rest = word.slice(homeVariable.length);
  if (/[$`]/.test(rest)) return undefined;
  return resolveForCheck(homeVariable + globBase(rest), base, home);
}

// A glob's fixed leading folder: `~/.ssh/id_*` -> `~/.ssh`, `*.txt` -> `.`, `/a/b*/c` -> `/a`.
function globBase(word: string): string {
  if (!/[*?[{]/.test(word)) return word;
  const parts = word.split("/");
  const fixed = parts.slice(0, parts.findIndex((part) => /[*?[{]/.test(part)));
  if (fixed.length === 0) return ".";
  return fixed.length === 1 && fixed[0] === "" ? "/" : fixed.join("/");
}
