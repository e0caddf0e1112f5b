// Commands that run code the analysis cannot see: eval and source, interpreters given code or a
// script, shells reading their input. A shell given literal code (`bash -c '...'`) is not opaque: the
// code is returned to be parsed in turn.
import { awkEffects } from "../options/awk-program.ts";
import type { Word } from "./words.ts";

export type Runner = { opaque: string } | { code: Word } | undefined;

const POSIX_SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "posh", "yash", "rbash"]);
const OTHER_SHELLS = new Set(["fish", "csh", "tcsh", "nu", "xonsh", "elvish", "rc", "pwsh", "powershell", "cmd"]);
const INTERPRETER =
  /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby[0-9.]*|irb|perl[0-9.]*|php[0-9.]*|lua[0-9.]*|luajit|Rscript|R|tclsh[0-9.]*|wish[0-9.]*|julia|osascript|groovy|jshell|scala|elixir|iex|erl|escript|racket|guile|runghc|runhaskell|ghci|swift|tsx|ts-node|expect)$/;
const INFO = new Set(["--version", "-V", "--help", "-h", "-version", "-help"]);
const VERSION_V = new Set(["node", "nodejs", "perl", "php"]);
const CODE_FLAGS = new Set(["-c", "-e", "-E", "-r", "-p", "--eval", "--print", "--command"]);
const SCRIPT_FILE = /\/|\.(?:[cm]?[jt]sx?|json|sh)$/;
const AWK = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);
// sed's `e` command and the `e` flag of `s` run commands (GNU).
const SED_ADDRESS = String.raw`(?:[0-9$]+|\/(?:[^/\\]|\\.)*\/)`;
const SED_EXEC = new RegExp(
  String.raw`(?:^|[;{}\n])\s*(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?)?\s*!?\s*e(?:\s|;|}|$)|\/[gpiImMw0-9]*e[gpiImMw0-9]*\s*(?:;|}|\n|$)`,
);

export function classifyRunner(name: string, args: Word[]): Runner {
  if (name === "eval") return { opaque: "eval runs a string as shell code" };
  if (name === "source" || name === ".") return { opaque: `${name} runs a script in this shell` };
  if (POSIX_SHELLS.has(name)) return shell(name, args);
  if (OTHER_SHELLS.has(name)) return infoOnly(name, args) ? undefined : { opaque: `${name} runs code that cannot be checked` };
  if (INTERPRETER.test(name)) return interpreter(name, args);
  if (name === "bun") return bun(args);
  if (name === "deno") return deno(args);
  if (AWK.has(name)) return awk(name, args);
  if (name === "sed") return sed(args);
  return builtinCode(name, args);
}

// The builtins whose options take code, a command or a file of code (bash 5.2's `help` for each):
// `mapfile -C` and `compgen -C/-F` run it at once, `compgen -W` and `complete -W` expand their
// word list (running its substitutions), `complete -C/-F` and `bind -x` keep it for later,
// `enable -f` loads a shared object, `enable -n` hands a builtin's name to PATH, `fc` re-runs
// history through an editor, `history -r/-n` reads a file into what `history` then prints,
// `jobs -x` runs a command, `compgen -V` (bash 5.3) assigns the variable it names.
function builtinCode(name: string, args: Word[]): Runner {
  const option = (letters: string) => args.some((a) => a.dynamic || new RegExp(`^-\\w*[${letters}]`).test(a.value));
  switch (name) {
    case "alias":
      return args.some((a) => a.dynamic || a.value.includes("=")) ? { opaque: "alias defines code that later lines can run" } : undefined;
    case "hash":
      return option("p") ? { opaque: "hash -p changes which program a name runs" } : undefined;
    case "enable":
      if (option("f")) return { opaque: "enable -f loads code into the shell" };
      return args.some((a) => a.dynamic || !/^-[aps]+$/.test(a.value)) ? { opaque: "enable changes which builtins the shell has, so a name can run a program instead" } : undefined;
    case "mapfile":
    case "readarray":
      return option("C") ? { opaque: `${name} -C runs a callback` } : undefined;
    case "jobs":
      return option("x") ? { opaque: "jobs -x runs a command" } : undefined;
    case "compgen":
    case "complete":
      if (name === "compgen" && option("V")) return { opaque: "compgen -V assigns a variable named on its command line" };
      if (option("CFW")) return { opaque: `${name} -C, -F and -W run code (a command, a function, a word list it expands)` };
      // compgen -f, -d, -G and -A file list the names in a folder, as ls would: left to ls's rules.
      return name === "compgen" && (option("fdGo") || args.some((a, i) => args[i - 1]?.value === "-A" && /^(?:file|directory)$/.test(a.value)))
        ? { opaque: "compgen lists the names in a folder" }
        : undefined;
    case "bind":
      return args.length > 0 && !args.every((a) => !a.dynamic && /^-[lpPsSvVX]+$/.test(a.value)) ? { opaque: "bind can run shell code on a key (-x) or read a file of bindings" } : undefined;
    case "fc":
      return args.every((a) => !a.dynamic && /^-[lnr]+$|^-?\d+$/.test(a.value)) && args.some((a) => /^-\w*l/.test(a.value)) ? undefined : { opaque: "fc runs commands from the history" };
    case "history":
      return option("anrwps") ? { opaque: "history reads, writes or expands a history file" } : undefined;
  }
  return undefined;
}

function infoOnly(name: string, args: Word[]): boolean {
  return args.length > 0 && args.every((a) => !a.dynamic && (INFO.has(a.value) || (a.value === "-v" && VERSION_V.has(name))));
}

// sh [options] [-c code [name [args]] | script [args] | -s]
function shell(name: string, args: Word[]): Runner {
  let code = false;
  let stdin = false;
  let info = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic) break; // the code or the script, only known when the line runs
    const a = arg.value;
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a.startsWith("--")) {
      if (a === "--version" || a === "--help") info = true;
      else if (a === "--rcfile" || a === "--init-file") i++;
      continue;
    }
    if (!/^[-+]./.test(a)) break;
    for (const c of a.slice(1)) {
      if (c === "c") code = true;
      else if (c === "s") stdin = true;
      else if ((c === "o" || c === "O") && args[++i]?.splits) return { opaque: `${name} is given an option value only known when the line runs` };
    }
  }
  if (code) return args[i] ? { code: args[i]! } : { opaque: `${name} -c is given no code` };
  if (info) return undefined;
  if (stdin || i >= args.length) return { opaque: `${name} reads commands from its input` };
  if (args[i]!.dynamic) return { opaque: `${name} runs a script only known when the line runs` };
  return { opaque: `${name} runs a script file` };
}

function interpreter(name: string, args: Word[]): Runner {
  if (infoOnly(name, args)) return undefined;
  if (args.some((a) => CODE_FLAGS.has(a.value) || /^-\w*[ceE]$/.test(a.value))) return { opaque: `${name} runs code given on its command line` };
  if (args.some((a) => a.dynamic || !a.value.startsWith("-"))) return { opaque: `${name} runs a script` };
  return { opaque: `${name} reads code from its input` };
}

// bun runs code with -e/-p, a file, `bun run <file>` and `bun repl`; `bun exec` runs shell code;
// `bun run <script>`, `bun test`, `bun install`... are left to the rules.
function bun(args: Word[]): Runner {
  if (args.some((a) => a.dynamic || ["-e", "--eval", "-p", "--print"].includes(a.value))) return { opaque: "bun runs code given on its command line" };
  const at = args.findIndex((a) => !a.value.startsWith("-"));
  if (at < 0) return undefined;
  const sub = args[at]!.value;
  if (sub === "repl") return { opaque: "bun repl reads code from its input" };
  if (sub === "exec") return args[at + 1] ? { code: args[at + 1]! } : undefined;
  const target = sub === "run" ? args.slice(at + 1).find((a) => !a.value.startsWith("-"))?.value : sub;
  if (target !== undefined && (SCRIPT_FILE.test(target) || target === "-")) return { opaque: "bun runs a script file" };
  return undefined;
}

function deno(args: Word[]): Runner {
  if (infoOnly("deno", args)) return undefined;
  const sub = args.find((a) => !a.value.startsWith("-"));
  if (!sub) return { opaque: "deno without a subcommand reads code from its input" };
  if (sub.dynamic || ["eval", "repl", "run", "serve", "jupyter"].includes(sub.value) || SCRIPT_FILE.test(sub.value)) {
    return { opaque: `deno ${sub.value} runs code that cannot be checked` };
  }
  return undefined;
}

function awk(name: string, args: Word[]): Runner {
  const programs: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) return { opaque: `${name} is given a program only known when the line runs` };
    const v = a.value;
    if (v === "-f" || v === "-E" || v.startsWith("--file") || v.startsWith("--exec") || /^-f./.test(v)) return { opaque: `${name} runs a program file` };
    if (v === "-e" || v === "--source") {
      if (args[i + 1]) programs.push(args[++i]!);
    } else if (v === "-F" || v === "-v") i++;
    else if (v === "--") {
      if (programs.length === 0 && args[i + 1]) programs.push(args[i + 1]!);
      break;
    } else if (!v.startsWith("-")) {
      if (programs.length === 0) programs.push(a);
      break;
    }
  }
  if (programs.some((p) => p.dynamic)) return { opaque: `${name} is given a program only known when the line runs` };
  // What the program writes and reads is the option table's to report (options/awk.ts).
  const runs = programs.map((p) => awkEffects(p.value)).find((e) => e.runs !== undefined || e.error !== undefined);
  if (runs) return { opaque: runs.runs ?? `the ${name} program cannot be read: ${runs.error}` };
  return undefined;
}

function sed(args: Word[]): Runner {
  const scripts: Word[] = [];
  let explicit = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (a.dynamic) {
      if (!explicit && scripts.length === 0) return { opaque: "sed is given a script only known when the line runs" };
      continue;
    }
    if (v === "-f" || v.startsWith("--file") || /^-[a-zA-Z]*f/.test(v) && !v.startsWith("--")) return { opaque: "sed runs a script file" };
    if (v === "-e" || v === "--expression") {
      explicit = true;
      if (args[i + 1]) scripts.push(args[++i]!);
    } else if (v.startsWith("--expression=")) {
      explicit = true;
      scripts.push({ ...a, value: v.slice("--expression=".length) });
    } else if (v === "-l" || v === "--line-length") i++;
    else if (!v.startsWith("-") && !explicit && scripts.length === 0) scripts.push(a);
  }
  if (scripts.some((s) => s.dynamic)) return { opaque: "sed is given a script only known when the line runs" };
  if (scripts.some((s) => SED_EXEC.test(s.value))) return { opaque: "the sed script runs commands (e)" };
  return undefined;
}
