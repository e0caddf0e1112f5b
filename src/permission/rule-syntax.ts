// How a rule is written: `PERMISSION` or `PERMISSION(PATTERN)`, the one grammar every reader and
// writer uses (config files, flags, saved approvals, explanations). The pattern is everything
// between the first `(` and the final `)`, taken as it is, so any pattern round-trips: parentheses,
// quotes, `*` and backslashes included. A permission name cannot hold `(`, so nothing is escaped.

export type RuleAction = "allow" | "ask" | "deny";
export type WrittenRule = { permission: string; pattern: string; action: RuleAction };

export const RULE_EXAMPLE = "bash(npm test *)";

/** A tool's permission name (`bash`, `myTool`, `mcp__server__tool`, `my.tool-2`), or a wildcard over names. */
const PERMISSION_NAME = /^[A-Za-z0-9_.*-]+$/;

/**
 * Parses `PERMISSION` or `PERMISSION(PATTERN)`. `PERMISSION` alone means pattern `*`. Returns the
 * problem as a short phrase (no trailing period) when the text is malformed, so callers can say
 * where the text came from.
 */
export function parseRule(text: string, action: RuleAction): WrittenRule | string {
  const rule = text.trim();
  if (rule === "") return "empty rule";
  const open = rule.indexOf("(");
  if (open === -1) return withName(rule, "*", action);
  if (!rule.endsWith(")")) return "missing the closing parenthesis at the end";
  const name = rule.slice(0, open).trim();
  const pattern = rule.slice(open + 1, -1);
  if (pattern === "") return `empty pattern; write ${name || "PERMISSION"} alone to match everything`;
  return withName(name, pattern, action);
}

/** The text that parseRule reads back as this rule. */
export function formatRule(rule: { permission: string; pattern: string }): string {
  return rule.pattern === "*" ? rule.permission : `${rule.permission}(${rule.pattern})`;
}

function withName(permission: string, pattern: string, action: RuleAction): WrittenRule | string {
  if (permission === "") return "empty permission name";
  if (!PERMISSION_NAME.test(permission)) {
    return `invalid permission name ${JSON.stringify(permission)} (use letters, digits, _, -, . and *)`;
  }
  return { permission, pattern, action };
}
