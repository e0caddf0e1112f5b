// Explains what the permission engine decides for a command line, rule by rule: the same requests
// and the same evaluation a real call would get.
import { evaluate, formatRule, type Action, type Rule } from "../permission/evaluate.ts";
import type { PermissionMode } from "../permission/modes.ts";
import { builtinTools } from "../registry/builtin.ts";
import { ruleSet } from "./factory.ts";

export type Explanation = {
  command: string;
  decision: Action;
  requests: { permission: string; pattern: string; opaque: boolean; action: Action; rule: string | null; always: string[] }[];
};

export function explainCommand(command: string, cwd: string, mode: PermissionMode, rules: { user: Rule[]; project: Rule[]; flags: Rule[] }): Explanation {
  const bash = builtinTools().find((t) => t.name === "bash")!;
  const requests = bash.permissions!({ command }, { cwd });
  const decision = evaluate(requests, ruleSet(mode, rules));
  return {
    command,
    decision: decision.action,
    requests: decision.requests.map((d) => ({
      permission: d.request.permission,
      pattern: d.request.pattern,
      opaque: d.request.opaque === true,
      action: d.action,
      rule: d.rule ? `${d.rule.action} ${formatRule(d.rule)}` : null,
      always: d.request.always,
    })),
  };
}

export { formatRule };
