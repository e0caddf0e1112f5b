// Rules as config files and flags write them. The grammar has one owner, the permission layer
// (parse and format round-trip); config adds the check of the permission's name.
import { checkPermissionName } from "../permission/known-permissions.ts";
import { parseRule, type RuleAction, type WrittenRule } from "../permission/rule-syntax.ts";

export { formatRule, parseRule, RULE_EXAMPLE, type RuleAction } from "../permission/rule-syntax.ts";
export type Rule = WrittenRule;

/**
 * A rule from a config file or a flag: the rule, or the reason it is refused (malformed, or a
 * misspelled permission). `warning` says when its permission is none of rein's own.
 */
export function readRule(text: string, action: RuleAction): { rule: Rule; warning?: string } | { error: string } {
  const rule = parseRule(text, action);
  if (typeof rule === "string") return { error: rule };
  const check = checkPermissionName(rule.permission);
  if (check && "error" in check) return { error: check.error };
  return { rule, ...(check ? { warning: check.warning } : {}) };
}

/** The warning for a parsed rule whose permission is none of rein's own, if it is not. */
export function ruleWarning(rule: Rule): string | undefined {
  const check = checkPermissionName(rule.permission);
  return check && "warning" in check ? check.warning : undefined;
}
