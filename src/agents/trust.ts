// An agent from an untrusted repository tightens only: its allow rules and a loosening permission
// mode are dropped, with a note naming the file.
import type { AgentDefinition } from "./types.ts";

export function trusting(agent: AgentDefinition, notes: string[]): AgentDefinition {
  const allows = agent.rules.filter((rule) => rule.action === "allow");
  const loosening = agent.permissionMode === "accept-edits" || agent.permissionMode === "auto";
  if (allows.length === 0 && !loosening) return agent;
  const dropped = [...(loosening ? [`permissionMode ${agent.permissionMode}`] : []), ...allows.map((r) => `allow ${r.permission}(${r.pattern})`)];
  notes.push(`agent file ${agent.source}: ${dropped.join(", ")} not applied: the workspace is not trusted (run with --trust to apply them)`);
  const { permissionMode, ...rest } = agent;
  return { ...rest, ...(loosening ? {} : permissionMode ? { permissionMode } : {}), rules: agent.rules.filter((rule) => rule.action !== "allow") };
}
