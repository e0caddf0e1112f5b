// Which arguments of a command are files it reads or writes, as absolute resolved paths, so that
// sensitive paths and paths outside the workspace are caught (`cat ~/.ssh/id_rsa`, `cp x /etc`),
// and whether the command must be opaque: an option that runs a program, an option its table does
// not know, environment in front of it that changes what it runs, or a word only known when the
// line runs where the command could take it for anything. Redirections are not here: the analysis
// reports them and the caller checks them.
import { basename } from "node:path";
import type { PathSink } from "./command-options.ts";
import { genericPaths } from "./command-path-handlers.ts";
import { COMMAND_PATHS } from "./command-path-specs.ts";
import { expandBraces } from "./options/braces.ts";
import { expandGlob } from "./options/glob.ts";
import { NODE_ENV } from "./options/npm.ts";
import { RUNNER_ENV } from "./options/runners.ts";
import { INERT_COMMANDS, TABLED_PATHS } from "./options/tabled-paths.ts";
import { untrustedNames } from "./options/xargs-input.ts";
import { resolveForCheck } from "./paths.ts";
import type { ShellCommand } from "./shell/types.ts";

/** `unresolved`: a read-only tool (one with an option table) reads what its table cannot name: without a sandbox the line asks. */
export type CommandPaths = { reads: string[]; writes: string[]; opaque?: string; unresolved?: string };

/** Devices a command may name without touching a file. */
export const HARMLESS_DEVICES: ReadonlySet<string> = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom"]);
const NODE_TOOLS = new Set(["npm", "npx", "node", "nodejs", "pnpm", "pnpx", "yarn", "bun", "bunx", "corepack"]);
const ARITHMETIC = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R"]);

/**
 * The files `command` reads and writes, resolved against its cwd (`~` and `$HOME` against `home`,
 * symlinks followed). Known commands are read by their own option tables (`head -n 5 f`, `cp -t
 * dir src`, `sed -i`); for an unknown one, every argument that looks like a path is a read. A glob
 * given to a command with a complete table is expanded (the command gets the matches); other words
 * only known at run time are skipped here and make the command opaque, except for commands whose
 * arguments are never files (`echo $PATH`).
 */
export function commandPaths(command: ShellCommand, home: string): CommandPaths {
  const reads: string[] = [];
  const writes: string[] = [];
  let opaque: string | undefined;
  const into = (list: string[]) => (word: string, base?: string) => {
    if (HARMLESS_DEVICES.has(word)) return; // not resolved: /dev/stderr is a link to wherever stderr goes
    const path = resolveWord(word, base ?? command.cwd, home);
    if (path !== undefined && !HARMLESS_DEVICES.has(path) && !list.includes(path)) list.push(path);
  };
  const sink: PathSink = {
    cwd: command.cwd,
    read: into(reads),
    write: into(writes),
    resolve: (word, base) => resolveWord(word, base ?? command.cwd, home),
    opaque: (reason) => void (opaque ??= reason),
  };
  const [first = "", ...rest] = command.argv;
  const name = basename(first);
  const args = knownWords(command, name, home, sink) ?? rest;
  const handler = Object.hasOwn(COMMAND_PATHS, name) ? COMMAND_PATHS[name]! : genericPaths;
  handler(args, sink);
  const env = command.env.find((e) => (NODE_TOOLS.has(name) && NODE_ENV.test(e)) || RUNNER_ENV[name]?.test(e));
  if (env !== undefined) sink.opaque(`${env.split("=")[0]}= in front of ${name} changes what it runs`);
  const unresolved = (opaque !== undefined && Object.hasOwn(TABLED_PATHS, name) ? opaque : undefined) ?? namesFromList(name, rest);
  return { reads, writes, ...(opaque !== undefined ? { opaque } : {}), ...(unresolved !== undefined ? { unresolved } : {}) };
}

/** The arguments with globs expanded; words only known at run time make the command opaque where they could matter. */
function knownWords(command: ShellCommand, name: string, home: string, sink: PathSink): string[] | undefined {
  const inert = INERT_COMMANDS.has(name);
  const tabled = Object.hasOwn(TABLED_PATHS, name);
  // A command that only prints its words is harmless whatever they turn out to be (`seq 3 | xargs echo`).
  if (command.dynamicContext && !inert) sink.opaque("its words are only known when the line runs");
  // xargs appends the names its input prints: they stand in as one of the folders they are under,
  // so an option left without its value (`xargs sort -o`) takes that as a read or write.
  const appended = command.input && !inert ? names(command.input, tabled, "xargs", home, sink) : undefined;
  if (!command.unknown) return appended === undefined ? undefined : [...command.argv.slice(1), appended];
  const args: string[] = [];
  const unknown = new Map(command.unknown.map((u) => [u.index, u]));
  for (const [index, word] of command.argv.entries()) {
    if (index === 0) continue;
    const u = unknown.get(index);
    if (u === undefined) args.push(word);
    else if (u.input && tabled && !inert) {
      // `wc -l $(git ls-files)`: the names a name printer gives, vouched for as xargs's are.
      const stand = names(u.input, tabled, "the substitution", home, sink);
      if (stand !== undefined) args.push(stand);
    } else if (tabled && /^[<>]\(.*\)$/s.test(word)) {
      args.push("/dev/null"); // `diff <(sort a) <(sort b)`: a pipe from a command checked on its own
    } else if (tabled && u.kind === "split" && expandBraces(word)) {
      // `cat src/{a,b}.ts`: the words bash makes, each a glob of its own when it holds one.
      for (const part of expandBraces(word)!) {
        const matches = /[*?[]/.test(part) ? expandGlob(part, command.cwd, home) : [part];
        if (matches === undefined) sink.opaque(`the glob ${part} matches too many files to check`);
        args.push(...(matches ?? []));
      }
    } else if (u.kind === "glob" && tabled) {
      const matches = expandGlob(word, command.cwd, home);
      if (matches === undefined) sink.opaque(`the glob ${word} matches too many files to check`);
      args.push(...(matches ?? []));
    } else if (isInert(command.argv, name, index, unknown)) continue;
    else sink.opaque("a word is only known when the command runs");
  }
  if (appended !== undefined) args.push(appended);
  return args;
}

/** A folder the names `input` prints are under, when they can be vouched for; else the command is opaque. */
function names(input: ShellCommand, tabled: boolean, via: string, home: string, sink: PathSink): string | undefined {
  const roots = commandPaths(input, home).reads;
  const reason = tabled ? untrustedNames(input, roots, home) : `${via} gives it words from its input`;
  if (reason !== undefined) sink.opaque(reason.replace(/^xargs/, via));
  return reason === undefined ? (roots[0] ?? input.cwd) : undefined;
}

// A word only known at run time is harmless where the command only prints or compares it; not
// where `printf` could take it for `-v NAME` or `test` for an arithmetic operand (which bash evaluates).
function isInert(argv: readonly string[], name: string, index: number, unknown: ReadonlyMap<number, unknown>): boolean {
  if (!INERT_COMMANDS.has(name)) return false;
  if (name === "printf") return index >= 2 && !unknown.has(1) && !argv[1]!.startsWith("-");
  if (name === "test" || name === "[") return !argv.some((w) => ARITHMETIC.has(w));
  return true;
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

// Programs that read the names of the files they take from a list or their input (`tar -T -`,
// `rsync --files-from`, `zip -@`, `cpio -o`): what they read is not on the line.
const NAME_LISTS: Record<string, RegExp> = {
  tar: /^(?:-T.*|--files-from(?:=.*)?|-[a-zA-Z]*T)$/,
  bsdtar: /^(?:-T.*|--files-from(?:=.*)?|-[a-zA-Z]*T)$/,
  rsync: /^--(?:files-from|include-from|exclude-from)(?:=.*)?$/,
  zip: /^(?:-@|--names-stdin|-[a-zA-Z]*@)$/,
  cpio: /^(?:-[a-zA-Z]*o[a-zA-Z]*|--create)$/,
  pax: /^-[a-zA-Z]*w[a-zA-Z]*$/,
};

function namesFromList(name: string, args: readonly string[]): string | undefined {
  const pattern = NAME_LISTS[name];
  // tar's old form: a first word of bundled letters without a dash (`tar cTf list x.tar`).
  const oldForm = name === "tar" && /^[a-zA-Z]*T[a-zA-Z]*$/.test(args[0] ?? "");
  return pattern && (oldForm || args.some((a) => pattern.test(a))) ? `${name} reads the names of the files it takes from a list or its input` : undefined;
}
