// `a | xargs b`: xargs turns a's output into more words for b. When a only prints names of files
// under folders it was given (find with -print, rg --files or -l, grep -l, git ls-files), and
// those folders are checked here to hold nothing b could be misled by, the words are files under
// folders the line already reads: b runs as if given them. Checked: no entry whose name xargs
// would split or b would take for an option (blanks, quotes, a leading `-`), no symlink leading
// out of the folder, nothing sensitive (`.env`, credentials).
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, join } from "node:path";
import { parseOptions, hasOption } from "../command-options.ts";
import { isInside } from "../paths.ts";
import { sensitivePath } from "../sensitive.ts";
import type { ShellCommand } from "../shell/types.ts";
import { GREP, RG } from "./search.ts";

const MAX_ENTRIES = 50_000;
const FIND_OUTPUTS = /^-(f?printf|fprint0?|f?ls|exec(dir)?|ok(dir)?|delete)$/;
const MISLEADING = /^-|[\s'"\\]/;

/** Why the names `input` prints cannot be vouched for, or undefined when they can. */
export function untrustedNames(input: ShellCommand, roots: readonly string[], home: string): string | undefined {
  if (input.opaque !== undefined || input.dynamic) return "xargs reads words from a command only known when the line runs";
  if (!printsNames(input)) return `xargs reads words from ${input.argv[0]} that need not be file names`;
  let budget = MAX_ENTRIES;
  for (const root of roots) {
    const found = scan(root, root, home, () => --budget >= 0);
    if (found) return `xargs reads file names from ${root}, which holds ${found}`;
  }
  return undefined;
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

/** Something under `dir` that xargs or the command would read otherwise than as a file inside it. */
function scan(dir: string, root: string, home: string, more: () => boolean): string | undefined {
  let entries: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return sensitivePath(dir, home) ? `${basename(dir)}, which is sensitive` : undefined;
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!more()) return "more files than rein checks";
    const path = join(dir, entry);
    if (MISLEADING.test(entry)) return `an entry named ${JSON.stringify(entry)}`;
    if (sensitivePath(path, home)) return `${entry}, which is sensitive`;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) {
      const target = realTarget(path);
      if (target === undefined || !isInside(target, root)) return `a symlink (${entry}) leading out of it`;
    } else if (stat?.isDirectory()) {
      const found = scan(path, root, home, more);
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
