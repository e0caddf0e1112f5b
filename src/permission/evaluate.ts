// One pure evaluation over data: what is fixed before any rule (sensitive paths, lines that cannot
// be analysed), then the configured rules (last match wins; a wrapped command's inner forms can
// only tighten), then run-time approvals.
import { matchWildcard } from "./wildcard.ts";

export { formatRule } from "./rule-syntax.ts";

export type Action = "allow" | "ask" | "deny";
/** What a tool call touches (the tool API's PermissionRequest plus what the engine adds; this layer imports nothing of ours). */
export type PermissionRequest = {
  permission: string;
  pattern: string;
  always: string[];
  opaque?: boolean;
  /**
   * decided before any rule: a sensitive path (deny, or ask for .env), a line that cannot be
   * analysed (ask); with `host` (a private web address), an allow rule whose pattern names that
   * host lifts the ask
   */
  fixed?: { action: "deny" | "ask"; reason: string; host?: string };
  /** the inner forms of a wrapped command (`rm x` for `sudo rm x`): their deny and pattern ask rules apply too */
  alsoCheck?: string[];
  /** a destructive command: only an approval of exactly this command allows it, never a generalised one */
  destructive?: boolean;
  /** why it is opaque, for explanations */
  reason?: string;
  /** the analysis found the command only reads (its subcommand and every option in git's tables) */
  readOnly?: boolean;
};
/**
 * `source` says where a rule came from (built-in defaults, a mode, a config file, a flag, an approval), for explanations.
 * `readOnly` marks a built-in allow for what the analysis finds read-only (see allowedByAnalysis).
 */
export type Rule = {
  permission: string;
  pattern: string;
  action: Action;
  source?: string;
  readOnly?: boolean;
  /** a built-in rule that matches only a request the analysis found read-only (`request.readOnly`) */
  whenReadOnly?: boolean;
};

export type RequestDecision = { request: PermissionRequest; action: Action; rule?: Rule; approved?: boolean; reason?: string };
export type Decision = { action: Action; requests: RequestDecision[] };

/** The rule that decides one request, or undefined when none matches. */
export function matchRule(request: PermissionRequest, rules: readonly Rule[]): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!matchPermission(rule.permission, request.permission)) continue;
    if (rule.whenReadOnly && (request.readOnly !== true || request.opaque)) continue;
    // What could not be resolved statically is never allowed by a pattern, only by a bare `*`.
    if (request.opaque && rule.action === "allow" && rule.pattern !== "*") continue;
    if (matchWildcard(rule.pattern, request.pattern)) return rule;
  }
  return undefined;
}

/** A rule's permission against a request's; `mcp__SERVER` names every tool of that MCP server. */
function matchPermission(rule: string, permission: string): boolean {
  if (matchWildcard(rule, permission)) return true;
  return rule.startsWith("mcp__") && !rule.slice(5).includes("__") && !rule.includes("*") && permission.startsWith(`${rule}__`);
}

export function evaluateRequest(
  request: PermissionRequest,
  rules: readonly Rule[],
  approvals: readonly Rule[] = [],
): RequestDecision {
  if (request.fixed?.action === "deny") return { request, action: "deny", reason: request.fixed.reason };
  const rule = matchRule(request, rules);
  if (rule?.action === "deny") return { request, action: "deny", rule };
  const inner = innerRule(request, rules);
  if (inner?.action === "deny") return { request, action: "deny", rule: inner, reason: "a rule for the command it wraps denies it" };
  const lifted = rule?.action === "allow" && request.fixed?.host !== undefined && namesHost(rule.pattern, request.fixed.host);
  const forced = lifted ? undefined : request.fixed?.reason;
  if (rule?.action === "allow" && !inner && !forced) return { request, action: "allow", rule };
  const approval = matchRule(request, approvals);
  if (approval?.action === "allow" && (!request.destructive || approval.pattern === request.always[0])) {
    return { request, action: "allow", rule: approval, approved: true };
  }
  const reason = forced ?? (inner ? "a rule for the command it wraps asks" : request.opaque ? request.reason : rule ? undefined : "no rule matches");
  return { request, action: "ask", ...(inner ?? rule ? { rule: inner ?? rule } : {}), ...(reason ? { reason } : {}) };
}

/** Whether a URL pattern spells out `host` itself (`http://127.0.0.1:8080/*`), not a wildcard that happens to match it. */
function namesHost(pattern: string, host: string): boolean {
  const named = /^https?:\/\/(\[[^\]*]+\]|[^/:*?\[\]]+)(?::\d+)?(?:\/|$)/i.exec(pattern)?.[1];
  return named !== undefined && named.replace(/^\[|\]$/g, "").toLowerCase() === host.toLowerCase();
}

/** A deny, or an ask written for something narrower than everything, matching an inner form of a wrapped command. */
function innerRule(request: PermissionRequest, rules: readonly Rule[]): Rule | undefined {
  let found: Rule | undefined;
  for (const pattern of request.alsoCheck ?? []) {
    const rule = matchRule({ ...request, pattern, opaque: false }, rules);
    if (rule?.action === "deny") return rule;
    if (rule?.action === "ask" && rule.pattern !== "*") found ??= rule;
  }
  return found;
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

/**
 * Allowed only because the analysis found the call read-only: every request allowed by a built-in
 * read-only rule, none by a person's approval or a configured rule. Such a call may run with
 * nothing writable (the kernel sandbox as a second line behind the analysis).
 */
export function allowedByAnalysis(decision: Decision): boolean {
  return decision.action === "allow" && decision.requests.every((d) => d.rule?.readOnly === true && !d.approved);
}
