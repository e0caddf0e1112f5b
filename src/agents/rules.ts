// How an agent's rule set meets the user's so that it only tightens. A primary agent's rules take
// the place of a permission mode (the user's rules after them still decide); its denies that no
// later rule of its own softens are repeated last, so no rule of anyone else loosens them. A
// subagent runs on its parent's rules unchanged, and its own rules can only add a deny or an ask.
import { evaluateRequest, type PermissionRequest, type Rule } from "../permission/evaluate.ts";
import { modeRules } from "../permission/modes.ts";
import { toolPermission } from "../permission/tool-names.ts";
import { matchWildcard } from "../permission/wildcard.ts";
import type { Tool } from "../sdk.ts";
import type { AgentDefinition } from "./types.ts";

/** The agent's own rules, its permission mode's first, each saying where it came from. */
export function agentLayer(agent: AgentDefinition): Rule[] {
  const source = `agent ${agent.name}${agent.source === "built-in" ? "" : ` (${agent.source})`}`;
  const mode = agent.permissionMode ? modeRules(agent.permissionMode) : [];
  return [...mode, ...agent.rules].map((rule) => ({ ...rule, source: rule.source ?? source }));
}

/**
 * The agent's denies, repeated after everyone's rules; a deny its own later rules soften (plan's
 * `deny edit` then `allow edit(.rein/plans/*.md)`) comes back with those rules, so no one else's
 * allow (a flag's `--allow edit`) reopens what the agent closed, and the agent's own exceptions stay.
 */
export function agentTail(agent: AgentDefinition): Rule[] {
  const layer = agentLayer(agent);
  return layer.filter((rule, i) => {
    if (rule.action === "deny") return true;
    return layer.slice(0, i).some((earlier) => earlier.action === "deny" && matchWildcard(earlier.permission, rule.permission));
  });
}

const PASS: Rule = { permission: "*", pattern: "*", action: "allow" };

/**
 * A subagent's tightening: each request its agent's rules deny (or ask for) is marked so before any
 * rule of the parent's is read; what they allow is left to the parent's rules.
 */
export function tightening(agent: AgentDefinition): (requests: PermissionRequest[]) => PermissionRequest[] {
  const rules = [PASS, ...agentLayer(agent)];
  return (requests) =>
    requests.map((request) => {
      if (request.fixed?.action === "deny") return request;
      // The agent's own rules judge the request; what was fixed before them (an ask a rule naming a host may lift) stays as it was.
      const { fixed: _, ...plain } = request;
      const decided = evaluateRequest(plain, rules);
      if (decided.action === "allow") return request;
      const reason = `the ${agent.name} agent's rules ${decided.action === "deny" ? "forbid" : "ask for"} it`;
      return { ...request, fixed: { action: decided.action, reason: request.fixed ? `${request.fixed.reason}; ${reason}` : reason } };
    });
}

/**
 * Where blanketDenied looks in a rule set: the last rule naming each permission plainly, and the
 * rules whose permission is a pattern, in order. Made in one pass over the rules (a session's
 * start asks of each tool, and a rule set holds a few hundred rules).
 */
type DenyIndex = { plain: Map<string, number>; patterns: number[] };

function denyIndex(rules: readonly Rule[]): DenyIndex {
  const plain = new Map<string, number>();
  const patterns: number[] = [];
  for (let i = 0; i < rules.length; i++) {
    const permission = rules[i]!.permission;
    // matchWildcard's plain names: no `*` and no escape
    if (permission.includes("*") || permission.includes("\\")) patterns.push(i);
    else plain.set(permission, i);
  }
  return { plain, patterns };
}

/** Whether the rules deny the permission outright: the last rule naming it is a deny of everything. */
function blanketDenied(permission: string, rules: readonly Rule[], index: DenyIndex): boolean {
  let last = index.plain.get(permission) ?? -1;
  for (let k = index.patterns.length - 1; k >= 0 && index.patterns[k]! > last; k--) {
    const at = index.patterns[k]!;
    if (matchWildcard(rules[at]!.permission, permission)) {
      last = at;
      break;
    }
  }
  if (last < 0) return false;
  const rule = rules[last]!;
  return rule.action === "deny" && rule.pattern === "*";
}

/** blanketDenied's answers per rule set: a session asks before every turn, with the same rules. */
const deniedByRules = new WeakMap<readonly Rule[], { index: DenyIndex; answers: Map<string, boolean> }>();

/** The tools an agent is shown: its list (or all), less its disallowed ones and those the rules deny outright. */
export function offeredTools(tools: readonly Tool[], agent: AgentDefinition | undefined, rules: readonly Rule[]): Tool[] {
  let denied = deniedByRules.get(rules);
  if (!denied) deniedByRules.set(rules, (denied = { index: denyIndex(rules), answers: new Map() }));
  const { index, answers } = denied;
  const isDenied = (permission: string) => {
    let answer = answers.get(permission);
    if (answer === undefined) answers.set(permission, (answer = blanketDenied(permission, rules, index)));
    return answer;
  };
  return tools.filter(
    (tool) =>
      (!agent?.tools || agent.tools.includes(tool.name)) &&
      !agent?.disallowedTools?.includes(tool.name) &&
      !isDenied(toolPermission(tool.name)),
  );
}
