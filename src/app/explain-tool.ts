// `rein permissions explain --tool NAME`: a call of a tool that asks one permission by its own
// name (an MCP tool, a user tool without a permissions function), evaluated like a run's.
import { evaluate, type Rule } from "../permission/evaluate.ts";
import type { PermissionMode } from "../permission/modes.ts";
import { explainedRequests, type Explanation } from "./explain.ts";
import { ruleSet } from "./factory.ts";

export function explainTool(tool: string, opts: { mode: PermissionMode; rules: { user: Rule[]; project: Rule[]; flags: Rule[] } }): Explanation {
  const decision = evaluate([{ permission: tool, pattern: "*", always: ["*"] }], ruleSet(opts.mode, opts.rules));
  return {
    decision: decision.action,
    read_only: false,
    commands: [],
    requests: explainedRequests(decision),
  };
}
