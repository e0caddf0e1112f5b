export type RuleAction = "allow" | "ask" | "deny";
export type Rule = { permission: string; pattern: string; action: RuleAction };

export const RULE_EXAMPLE = "bash(npm test *)";

const PERMISSION_NAME = /^[a-z0-9_*-]+$/;

/**
 * Parses `PERMISSION` or `PERMISSION(PATTERN)`. `PERMISSION` alone means pattern `*`.
 * Returns the problem as a short phrase (no trailing period) when the text is malformed,
 * so callers can say where the text came from.
 */
export function parseRule(text: string, action: RuleAction): Rule | string {
  const rule = text.trim();
  if (rule === "") return "empty rule";
  const open = rule.indexOf("(");
  if (open === -1) {
    if (rule.includes(")")) return "unbalanced parentheses";
    return withName(rule, "*", action);
  }
  const close = matchingClose(rule, open);
  if (close === -1) return "unbalanced parentheses";
  if (close !== rule.length - 1) return `unexpected text after the closing parenthesis: ${JSON.stringify(rule.slice(close + 1))}`;
  const name = rule.slice(0, open).trim();
  const pattern = rule.slice(open + 1, close).trim();
  if (pattern === "") return `empty pattern; write ${name || "PERMISSION"} alone to match everything`;
  return withName(name, pattern, action);
}

function withName(permission: string, pattern: string, action: RuleAction): Rule | string {
  if (permission === "") return "empty permission name";
  if (!PERMISSION_NAME.test(permission)) {
    return `invalid permission name ${JSON.stringify(permission)} (use only a-z, 0-9, _, - and *)`;
  }
  return { permission, pattern, action };
}

/** Index of the ")" that closes the "(" at `open`, or -1 when the parentheses do not balance. */
function matchingClose(text: string, open: number): number {
  let depth = 0;
  let close = -1;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    if (text[i] !== ")") continue;
    depth--;
    if (depth < 0) return -1;
    if (depth === 0 && close === -1) close = i;
  }
  return depth === 0 ? close : -1;
}
