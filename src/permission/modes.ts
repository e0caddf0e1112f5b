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
// is written. The asks after the allows catch the flags with which some of them write or run code.
const READ_ONLY_COMMANDS = [
  "cd", "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find", "tree", "file", "stat", "du", "df",
  "diff", "cmp", "sort", "uniq", "cut", "tr", "nl", "column", "jq", "basename", "dirname", "realpath",
  "readlink", "md5sum", "sha1sum", "sha256sum", "sha512sum", "xxd", "od", "hexdump", "strings", "echo", "printf",
  "seq", "pwd", "whoami", "id", "uname", "which", "type", "true", "false", "test", "[",
  "git status", "git diff", "git log", "git show", "git rev-parse", "git ls-files", "git blame", "git describe",
];
// sed is not here: its scripts can write files (w) and run commands (e).
const READ_ONLY_BASH: readonly Rule[] = readOnly([
  ...READ_ONLY_COMMANDS.map((c) => allow("bash", `${c} *`)),
  ...["date", "date +*", "hostname", "git branch", "git branch -a", "git branch -r", "git branch -v", "git branch -vv", "git branch --list*", "git tag", "git tag -l*", "git tag --list*", "git remote", "git remote -v"].map(
    (c) => allow("bash", c),
  ),
  ask("bash", "git * --output*"),
  ask("bash", "find * -delete*"),
  ask("bash", "find * -fprint*"),
  ask("bash", "find * -fls*"),
  ask("bash", "sort * -o*"),
  ask("bash", "tree * -o*"),
]);

export const DEFAULT_RULES: readonly Rule[] = readOnly([
  ask("*"),
  allow("read"),
  allow("todo"),
  ask("read", "*.env"),
  ask("read", "*/.env"),
  ask("read", "*.env.*"),
  allow("read", "*.env.example"),
  ...READ_ONLY_BASH,
]);

const MODE_RULES: Record<PermissionMode, readonly Rule[]> = {
  default: [],
  plan: [deny("edit"), deny("bash"), ...READ_ONLY_BASH],
  "accept-edits": [allow("edit")],
  auto: [allow("*")],
};

export function modeRules(mode: PermissionMode): readonly Rule[] {
  return MODE_RULES[mode];
}
