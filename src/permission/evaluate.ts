// One pure evaluation over data: the configured rules (last match wins), then run-time approvals.
import { matchWildcard } from "./wildcard.ts";

export type Action = "allow" | "ask" | "deny";
/** What a tool call touches (the same shape as the tool API's PermissionRequest; this layer imports nothing of ours). */
export type PermissionRequest = { permission: string; pattern: string; always: string[]; opaque?: boolean };
/** `source` says where a rule came from (built-in defaults, a mode, a config file, a flag, an approval), for explanations. */
export type Rule = { permission: string; pattern: string; action: Action; source?: string };

export type RequestDecision = { request: PermissionRequest; action: Action; rule?: Rule; approved?: boolean };
export type Decision = { action: Action; requests: RequestDecision[] };

/** The rule that decides one request, or undefined when none matches. */
export function matchRule(request: PermissionRequest, rules: readonly Rule[]): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!matchWildcard(rule.permission, request.permission)) continue;
    // What could not be resolved statically is never allowed by a pattern, only by a bare `*`.
    if (request.opaque && rule.action === "allow" && rule.pattern !== "*") continue;
    if (matchWildcard(rule.pattern, request.pattern)) return rule;
  }
  return undefined;
}

export function evaluateRequest(
  request: PermissionRequest,
  rules: readonly Rule[],
  approvals: readonly Rule[] = [],
): RequestDecision {
  const rule = matchRule(request, rules);
  if (rule?.action === "deny" || rule?.action === "allow") return { request, action: rule.action, rule };
  const approval = matchRule(request, approvals);
  if (approval?.action === "allow") return { request, action: "allow", rule: approval, approved: true };
  return { request, action: "ask", rule };
}

/** A call's decision: any request denied -> deny; any ask -> ask; else allow. */
export function evaluate(
  requests: readonly PermissionRequest[],
  rules: readonly Rule[],
  approvals: readonly Rule[] = [],
): Decision {
  const decided = requests.map((r) => evaluateRequest(r, rules, approvals));
  const action: Action = decided.some((d) => d.action === "deny")
    ? "deny"
    : decided.some((d) => d.action === "ask")
      ? "ask"
      : "allow";
  return { action, requests: decided };
}

export function formatRule(rule: Pick<Rule, "permission" | "pattern">): string {
  return rule.pattern === "*" ? rule.permission : `${rule.permission}(${rule.pattern})`;
}
