// Rules as config files and flags write them. The grammar has one owner, the permission layer
// (parse and format round-trip); config adds the check of the permission's name.
import { checkPermissionName } from "../permission/known-permissions.ts";

export { foreignPermissionWarnings, type ForeignPermission } from "../permission/known-permissions.ts";
import { parseRule, type RuleAction, type WrittenRule } from "../permission/rule-syntax.ts";

export { formatRule, parseRule, RULE_EXAMPLE, type RuleAction } from "../permission/rule-syntax.ts";
export type Rule = WrittenRule;

/** A rule from a config file or a flag: the rule, or the reason it is refused (malformed, or a misspelled permission). */
export function readRule(text: string, action: RuleAction): { rule: Rule } | { error: string } {
  const rule = parseRule(text, action);
  if (typeof rule === "string") return { error: rule };
  const check = checkPermissionName(rule.permission);
  return check && "error" in check ? { error: check.error } : { rule };
}

/** What a loaded rule's permission deserves: a warning (a rule with no effect), `foreign` (maybe a tool loaded later), or nothing. */
export function ruleNote(rule: Rule): { warning: string } | { foreign: true } | undefined {
  const check = checkPermissionName(rule.permission);
  return check && "error" in check ? undefined : check;
}
