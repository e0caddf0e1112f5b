// One git command as the engine checks it: the form the rules see (harmless global options and -C
// dropped: `git --no-pager -C src log` is checked as `git log`), whether it only reads (its
// subcommand and every option in the tables), why it is opaque, and the files it touches.
import { join } from "node:path";
import type { ShellCommand } from "../shell/types.ts";
import { printsTrackedSecret } from "./blob-secrets.ts";
import { configWithSecret } from "./config-secrets.ts";
import { globalOptions } from "./global-options.ts";
import { foreignRepository, type Where } from "./repository.ts";
import { runsProgram } from "./runs-programs.ts";
import { readOnlyForm } from "./subcommands.ts";
import { parseGit } from "./table.ts";

export type GitAnalysis = {
  /** argv with the harmless global options and -C removed. */
  argv: string[];
  readOnly: boolean;
  opaque?: string;
  /** A checkout token or other secret it may print: asks in every mode. */
  secret?: string;
  /** Folders and files it reads or writes, relative to `dir`. */
  dir: string;
  reads: string[];
  writes: string[];
};

// Environment assignments that only change how output looks.
const HARMLESS_ENV = /^(?:LC_\w+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|COLUMNS|LINES|TERM)=/;
// A remote URL may hold a token too, but `git remote get-url` prints it as well: only named secrets ask.
const SECRET_KEY = /extraheader|token|password|secret|credential/i;

export function analyzeGit(command: ShellCommand, where: Where): GitAnalysis {
  const { argv } = command;
  const g = globalOptions(argv);
  let dir = command.cwd;
  for (const d of g.dirs) dir = d.startsWith("/") ? d : join(dir, d);
  const sub = argv[g.at];
  const rest = argv.slice(g.at + 1);
  const out: GitAnalysis = { argv: ["git", ...argv.slice(g.at)], readOnly: false, dir, reads: ["."], writes: [] };
  if (g.workTree !== undefined) out.reads.push(g.workTree);
  // Before the early returns: `git cat-file -p $(git rev-parse HEAD:.env)` prints it too.
  const tracked = sub === undefined ? undefined : printsTrackedSecret(sub, rest, where.workspace, where.home);
  if (tracked) out.secret = tracked;
  if (g.opaque) return { ...out, argv: [...argv], opaque: g.opaque };
  // A word or the folder only known at run time could name any repository or option.
  if (command.dynamic || command.input) return { ...out, argv: [...argv], opaque: "a word or the folder git runs in is only known when the line runs" };
  const foreign = foreignRepository(dir, where, g.gitDir) ?? (g.workTree !== undefined && !sameDir(join(dir, g.workTree), where.workspace) ? "git is given another work tree" : undefined);
  if (foreign) return { ...out, argv: [...argv], opaque: foreign };
  if (sub === undefined) return { ...out, readOnly: g.info };
  const form = readOnlyForm(sub, rest);
  if (sub === "config") configEffects(rest, out, where);
  if (sub === "clean") out.writes.push(".");
  // git var -l lists the configuration; ls-remote --get-url prints a remote's URL (a token in it).
  if ((sub === "var" && rest.includes("-l")) || (sub === "ls-remote" && rest.includes("--get-url"))) printsConfig(out, where);
  if (sub === "remote" && rest.every((arg) => arg.startsWith("-") || arg === "get-url" || arg === "show" || !/^(?:add|set-url|rename|remove|rm|prune|update|set-head|set-branches)$/.test(arg))) printsConfig(out, where);
  const program = runsProgram(sub, rest);
  if (program) return { ...out, opaque: program };
  if (!form) {
    // A form that can write: the rules decide; path-like words are still checked.
    for (const arg of rest) operandPath(arg.replace(/^--[\w-]+=/, ""), out, where, (w) => /^[/~.]|\//.test(w));
    return out;
  }
  const parsed = parseGit(rest.slice(form.skip), form.table);
  // check-ignore and check-attr match their operands against rules: they read no file.
  if (sub !== "config" && sub !== "check-ignore" && sub !== "check-attr") {
    for (const operand of parsed.operands) operandPath(operand, out, where, () => true);
    out.reads.push(...parsed.paths);
  }
  for (const { option, value } of parsed.options) {
    if (option.cls === "runs") return { ...out, opaque: `git ${sub} is given an option that runs a program` };
    if (value === undefined) continue;
    if (option.cls === "read") out.reads.push(value);
    if (option.cls === "write") out.writes.push(value);
  }
  const clean = parsed.unknown === undefined && !command.dynamic && command.opaque === undefined;
  const plainEnv = command.env.every((e) => HARMLESS_ENV.test(e));
  const plainWrappers = command.wrappers.every((w) => w === "time" || w === "command");
  return { ...out, readOnly: clean && plainEnv && plainWrappers && out.writes.length === 0 && out.secret === undefined };
}

// An operand may name a file: `rev:path` one in the repository (from its top level; `rev:./path`
// from the current folder), and with `--no-index` or as a pathspec any file.
function operandPath(arg: string, out: GitAnalysis, where: Where, pathLike: (word: string) => boolean): void {
  if (arg === "" || arg.startsWith("-") || /^[a-z][\w+.-]*:\/\//i.test(arg)) return;
  const revPath = /^[^:]*:(?:\d:)?(.+)$/.exec(arg)?.[1];
  if (revPath !== undefined) out.reads.push(/^\.\.?\//.test(revPath) ? revPath : join(where.workspace, revPath));
  else if (pathLike(arg)) out.reads.push(arg);
}

// `git config` reads a config file and may print a secret in it; setting a value writes it.
function configEffects(args: readonly string[], out: GitAnalysis, where: Where): void {
  const file = args.find((a, i) => args[i - 1] === "-f" || args[i - 1] === "--file") ?? /^--file=(.*)$/.exec(args.find((a) => a.startsWith("--file=")) ?? "")?.[1];
  const target = file ?? (args.includes("--global") ? join(where.home, ".gitconfig") : args.includes("--system") ? "/etc/gitconfig" : join(where.workspace, ".git", "config"));
  const form = readOnlyForm("config", args);
  if (!form) {
    out.writes.push(target);
    return;
  }
  const operands = args.filter((a) => !a.startsWith("-") && a !== "get" && a !== "list" && a !== file);
  const listing = args.some((a) => /^(?:-l|--list|--get-regexp|--get-urlmatch|list|--name-only)$/.test(a)) || args.includes("--regexp");
  if (operands.some((key) => SECRET_KEY.test(key))) out.secret = "git config can print a checkout token or another secret kept in the configuration";
  else if (listing) printsConfig(out, where, file !== undefined ? [join(out.dir, file)] : []);
}

// A listing of the configuration (or of remote URLs) shows whatever secret it holds.
function printsConfig(out: GitAnalysis, where: Where, extra: readonly string[] = []): void {
  const file = configWithSecret(where.workspace, where.home, extra);
  if (file) out.secret = `git would print configuration holding a secret (${file})`;
}

function sameDir(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}
