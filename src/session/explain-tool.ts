// `rein permissions explain --tool NAME`: a call of a tool that asks one permission by its own
// name (an MCP tool, a user tool without a permissions function), evaluated like a run's.
import { evaluate, type Rule } from "../permission/evaluate.ts";
import type { PermissionMode } from "../permission/modes.ts";
import type { Explanation } from "./explain.ts";
import { ruleSet } from "./factory.ts";

export function explainTool(tool: string, opts: { mode: PermissionMode; rules: { user: Rule[]; project: Rule[]; flags: Rule[] } }): Explanation {
  const decision = evaluate([{ permission: tool, pattern: "*", always: ["*"] }], ruleSet(opts.mode, opts.rules));
  return {
    decision: decision.action,
    read_only: false,
    commands: [],
    requests: decision.requests.map((r) => ({
      permission: r.request.permission,
      pattern: r.request.pattern,
      decision: r.action,
      always: r.request.always,
      rule: r.rule ? { permission: r.rule.permission, pattern: r.rule.pattern, action: r.rule.action, source: r.rule.source ?? "" } : null,
      reason: r.reason ?? null,
    })),
  };
}
