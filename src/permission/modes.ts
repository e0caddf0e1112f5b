// Built-in defaults and the permission modes, as rule sets (data, not code paths).
import type { Rule } from "./evaluate.ts";

/** The one list of permission modes: config, flags, help, the server and its OpenAPI document read it. */
export const PERMISSION_MODES = ["default", "plan", "accept-edits", "auto"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

const allow = (permission: string, pattern = "*"): Rule => ({ permission, pattern, action: "allow" });
const ask = (permission: string, pattern = "*"): Rule => ({ permission, pattern, action: "ask" });
const deny = (permission: string, pattern = "*"): Rule => ({ permission, pattern, action: "deny" });
/** The allows among `rules` are for what only reads: a call they alone allow runs in the read-only sandbox. */
const readOnly = (rules: readonly Rule[]): Rule[] => rules.map((rule) => (rule.action === "allow" ? { ...rule, readOnly: true } : rule));

// Commands that only read. The engine makes each command of a line a request of its own and adds
// `read`/`edit`/`external_directory` requests for the files it touches, so these allow a command
// only when every part of the line is one of them, every path is inside the workspace and nothing
// is written. Each has a complete option table (options/tabled-paths.ts): an option that writes
// makes an `edit` request, one that runs a program or that the table does not know makes the
// command opaque, which no pattern allows. sed and awk are here because their scripts are read too.
const READ_ONLY_COMMANDS = [
  "cd", "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find", "tree", "file", "stat", "du", "df",
  "diff", "cmp", "sort", "uniq", "cut", "tr", "nl", "column", "jq", "basename", "dirname", "realpath",
  "readlink", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "xxd", "od",
  "hexdump", "hd", "strings", "echo", "printf", "seq", "pwd", "whoami", "id", "uname", "which", "type", "true",
  "false", "test", "[", ":", "date", "hostname", "sed", "awk", "gawk", "mawk", "nawk", "tac", "paste", "comm", "join",
  "fold", "rev", "expand", "unexpand", "fmt", "nproc", "arch", "uptime", "sleep", "expr", "command -v", "command -V",
  "npm ls", "npm list",
];
// Version queries of toolchains that read no project file to answer them (yarn, cargo and rustc
// are not here: a repository's .yarnrc.yml or rust-toolchain.toml can choose the program run; nor
// `ruby -v`, which then reads a program from its input).
const VERSION_QUERIES = [
  "node --version", "node -v", "npm --version", "npm -v", "npx --version", "pnpm --version", "pnpm -v", "bun --version",
  "bun -v", "deno --version", "python --version", "python -V", "python3 --version", "python3 -V", "pip --version",
  "pip3 --version", "make --version", "gcc --version", "g++ --version", "clang --version", "cmake --version",
  "tsc --version", "tsc -v", "bash --version", "go version", "java -version", "java --version", "javac -version",
  "javac --version", "ruby --version", "perl --version", "perl -v", "php --version", "php -v", "docker --version",
  "kubectl version --client", "terraform --version", "terraform -version", "gh --version",
];
// The tables are made with plain loops and object literals, no helper call per rule: a few hundred
// calls of allow() or a map callback at every start are enough for JavaScriptCore to compile them
// with its optimizing JIT, which a one-shot then pays for in memory and CPU.
/** The read-only bash rules, each `source` when given; all allows but the last are read-only. */
function readOnlyBash(source: string | undefined): Rule[] {
  const out: Rule[] = [];
  for (const c of READ_ONLY_COMMANDS) {
    const rule: Rule = { permission: "bash", pattern: `${c} *`, action: "allow", readOnly: true };
    if (source) rule.source = source;
    out.push(rule);
  }
  for (const c of VERSION_QUERIES) {
    const rule: Rule = { permission: "bash", pattern: c, action: "allow", readOnly: true };
    if (source) rule.source = source;
    out.push(rule);
  }
  // What the analysis itself finds read-only: git's subcommands and forms in the workspace's own
  // repository (src/permission/git/), and the shell's state builtins (`read`, `export`, `set -e`).
  const analysed: Rule = { permission: "bash", pattern: "*", action: "allow", whenReadOnly: true, readOnly: true };
  if (source) analysed.source = source;
  out.push(analysed);
  // `find . -name '*.ts' | xargs wc -l`: the engine vouches for the words xargs adds, or makes the command opaque.
  for (const c of READ_ONLY_COMMANDS) {
    if (c === "cd" || c.includes(" ")) continue;
    const rule: Rule = { permission: "bash", pattern: `xargs ${c} *`, action: "allow", readOnly: true };
    if (source) rule.source = source;
    out.push(rule);
  }
  const output: Rule = ask("bash", "git * --output*");
  if (source) output.source = source;
  out.push(output);
  return out;
}

export const DEFAULT_SOURCE = "built-in default";

/**
 * The rules every rule set starts with, each saying where it came from ("built-in default"), so a
 * session's rule set takes them as they are; the mode's and everyone's come after.
 */
export const DEFAULT_RULES: readonly Rule[] = [
  ...readOnly([ask("*"), allow("read"), allow("todo"), ask("read", "*.env"), ask("read", "*/.env"), ask("read", "*.env.*"), allow("read", "*.env.example")]).map((rule) => ({ ...rule, source: DEFAULT_SOURCE })),
  ...readOnlyBash(DEFAULT_SOURCE),
];

let planRules: readonly Rule[] | undefined;

const MODE_RULES: Record<Exclude<PermissionMode, "plan">, readonly Rule[]> = {
  default: [],
  "accept-edits": [allow("edit")],
  auto: [allow("*")],
};

export function modeRules(mode: PermissionMode): readonly Rule[] {
  // Plan mode's table is made when a run asks for it.
  if (mode === "plan") return (planRules ??= [deny("edit"), deny("bash"), ...readOnlyBash(undefined)]);
  return MODE_RULES[mode];
}
