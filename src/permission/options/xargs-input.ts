// `a | xargs b`: xargs turns a's output into more words for b. When a only prints names of files
// under folders it was given (find with -print, rg --files or -l, grep -l, git ls-files), and
// those folders are checked here to hold nothing b could be misled by, the words are files under
// folders the line already reads: b runs as if given them. Checked: no entry whose name xargs
// would split or b would take for an option (blanks, quotes, a leading `-`), no symlink leading
// out of the folder, nothing sensitive (`.env`, credentials).
import { existsSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { trackedNames } from "../git/blob-secrets.ts";
import { parseOptions, hasOption } from "../command-options.ts";
import { isInside } from "../paths.ts";
import { sensitivePath } from "../sensitive.ts";
import type { ShellCommand } from "../shell/types.ts";
import { globMatcher } from "./glob.ts";
import { GREP, RG } from "./search.ts";

const MAX_ENTRIES = 50_000;
const FIND_OUTPUTS = /^-(f?printf|fprint0?|f?ls|exec(dir)?|ok(dir)?|delete)$/;
// Also glob characters: an unquoted $(...) expands the names it gets as patterns.
const MISLEADING = /^-|[\s'"\\*?[]/;

/** Why the names `input` prints cannot be vouched for, or undefined when they can. */
export function untrustedNames(input: ShellCommand, roots: readonly string[], home: string): string | undefined {
  if (input.opaque !== undefined || input.dynamic) return "xargs reads words from a command only known when the line runs";
  if (!printsNames(input)) return `xargs reads words from ${input.argv[0]} that need not be file names`;
  const tracked = trackedListing(input, roots, home);
  if (tracked !== null) return tracked;
  let budget = MAX_ENTRIES;
  const printed = printedNames(input);
  for (const root of roots) {
    const found = scan(root, root, { home, printed, more: () => --budget >= 0, ...skipped(input) });
    if (found) return `xargs reads file names from ${root}, which holds ${found}`;
  }
  return undefined;
}

// git ls-files prints what the index tracks (not what else the folder holds: an untracked .env, a
// gitignored link): those names are checked, as git prints them from its folder. null: the index
// cannot be read, or the listing adds untracked files, so the folders are scanned instead.
function trackedListing(input: ShellCommand, roots: readonly string[], home: string): string | undefined | null {
  const [name = "", first, ...rest] = input.argv;
  if (basename(name) !== "git" || first !== "ls-files" || rest.some((a) => /^-(?:o|i|k|-others|-ignored|-killed|-directory|-with-tree.*|-recurse-submodules)$/.test(a))) return null;
  const top = repositoryTop(input.cwd);
  const names = top === undefined ? undefined : trackedNames(top, home);
  if (top === undefined || names === undefined) return null;
  let budget = MAX_ENTRIES;
  for (const path of names) {
    const absolute = join(top, path);
    if (!roots.some((root) => isInside(absolute, root))) continue;
    if (--budget < 0) return "xargs reads more file names than rein checks";
    const printed = relative(input.cwd, absolute);
    if (MISLEADING.test(printed) || /[^\x20-\x7e]/.test(printed)) return `xargs reads file names from git ls-files, one of which is ${JSON.stringify(printed)}`;
    if (sensitivePath(absolute, home)) return `xargs reads file names from git ls-files, which lists ${printed}, which is sensitive`;
    if (lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink()) {
      const target = realTarget(absolute);
      if (target === undefined || !roots.some((root) => isInside(target, root))) return `xargs reads file names from git ls-files, which lists a symlink (${printed}) leading out`;
    }
  }
  return undefined;
}

function repositoryTop(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dir === dirname(dir)) return undefined;
  }
}

function printsNames(input: ShellCommand): boolean {
  const [name = "", ...args] = input.argv;
  switch (basename(name)) {
    case "find":
      return !args.some((a) => FIND_OUTPUTS.test(a));
    case "rg":
      return hasOption(parseOptions(args, RG), "--files", "-l", "--files-with-matches", "--files-without-match");
    case "grep":
    case "egrep":
    case "fgrep":
      return hasOption(parseOptions(args, GREP), "-l", "-L", "--files-with-matches", "--files-without-match");
    case "git":
      return args[0] === "ls-files";
  }
  return false;
}

// find prints only the entries whose base name matches every -name/-iname test of an expression
// that is a plain conjunction (no -o, no `,`): the others need no check.
function printedNames(input: ShellCommand): ((name: string) => boolean) | undefined {
  const [name = "", ...args] = input.argv;
  if (basename(name) !== "find" || args.some((a) => a === "-o" || a === "-or" || a === ",")) return undefined;
  const tests: RegExp[] = [];
  args.forEach((a, i) => {
    const negated = args[i - 1] === "!" || args[i - 1] === "-not";
    if ((a === "-name" || a === "-iname") && !negated && args[i + 1] !== undefined) tests.push(globMatcher(args[i + 1]!, a === "-iname"));
  });
  return tests.length === 0 ? undefined : (entry) => tests.every((t) => t.test(entry));
}

/** `links`: the lister skips the symlinks it meets (never prints them); `hidden`: it skips dot entries. */
type Scan = { home: string; printed: ((name: string) => boolean) | undefined; more: () => boolean; links?: boolean; hidden?: boolean };

// rg skips symlinks unless -L/--follow and hidden entries unless --hidden, -., -uu; grep -r skips
// the symlinks it meets (-R follows them). find prints symlinks, and the command reading the name follows it.
function skipped(input: ShellCommand): { links?: boolean; hidden?: boolean } {
  const [name = "", ...args] = input.argv;
  switch (basename(name)) {
    case "rg": {
      const options = parseOptions(args, RG);
      return { links: !hasOption(options, "-L", "--follow"), hidden: !hasOption(options, "--hidden", "-.", "-u", "--unrestricted") };
    }
    case "grep":
    case "egrep":
    case "fgrep":
      return { links: !hasOption(parseOptions(args, GREP), "-R", "--dereference-recursive") };
  }
  return {};
}

/** Something under `dir` that xargs or the command would read otherwise than as a file inside it. */
function scan(dir: string, root: string, s: Scan): string | undefined {
  let entries: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return sensitivePath(dir, s.home) ? `${basename(dir)}, which is sensitive` : undefined;
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!s.more()) return "more files than rein checks";
    const path = join(dir, entry);
    if (s.hidden && entry.startsWith(".")) continue;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (s.links && stat?.isSymbolicLink()) continue;
    const isDir = stat?.isDirectory() === true;
    // A folder's name is part of every path printed below it; a file matters only when printed.
    if (!isDir && s.printed && !s.printed(entry)) continue;
    if (MISLEADING.test(entry)) return `an entry named ${JSON.stringify(entry)}`;
    if (!isDir && sensitivePath(path, s.home)) return `${entry}, which is sensitive`;
    if (stat?.isSymbolicLink()) {
      const target = realTarget(path);
      if (target === undefined || !isInside(target, root)) return `a symlink (${entry}) leading out of it`;
    } else if (isDir) {
      const found = scan(path, root, s);
      if (found) return found;
    }
  }
  return undefined;
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
