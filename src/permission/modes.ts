// Built-in defaults and the permission modes, as rule sets (data, not code paths).
import type { Rule } from "./evaluate.ts";

export type PermissionMode = "default" | "plan" | "accept-edits" | "auto";
export const PERMISSION_MODES: readonly PermissionMode[] = ["default", "plan", "accept-edits", "auto"];

const allow = (permission: string, pattern = "*"): Rule => ({ permission, pattern, action: "allow" });
const ask = (permission: string, pattern = "*"): Rule => ({ permission, pattern, action: "ask" });
const deny = (permission: string, pattern = "*"): Rule => ({ permission, pattern, action: "deny" });

// Commands that only read and take no paths worth guarding. The full engine (shell analysis and
// workspace paths) widens this list; until then anything with shell syntax is opaque and asks.
// The asks after the allows catch the flags with which these commands write.
const READ_ONLY_BASH: readonly Rule[] = [
  ...["echo *", "pwd", "true", "false", "date", "date +*", "whoami", "ls *", "git status *", "git diff *", "git log *", "git show *", "git branch"].map(
    (c) => allow("bash", c),
  ),
  ask("bash", "git * --output*"),
  ask("bash", "git * -o *"),
];

export const DEFAULT_RULES: readonly Rule[] = [
  ask("*"),
  allow("read"),
  allow("todo"),
  ask("read", "*.env"),
  ask("read", "*/.env"),
  ask("read", "*.env.*"),
  allow("read", "*.env.example"),
  ...READ_ONLY_BASH,
];

const MODE_RULES: Record<PermissionMode, readonly Rule[]> = {
  default: [],
  plan: [deny("edit"), deny("bash"), ...READ_ONLY_BASH],
  "accept-edits": [allow("edit")],
  auto: [allow("*")],
};

export function modeRules(mode: PermissionMode): readonly Rule[] {
  return MODE_RULES[mode];
}
