// An agent from an untrusted repository tightens only: its allow rules and a loosening permission
// mode are dropped, and so are what would run the repository's code or let it write outside its
// own folder (its hooks, its MCP servers, its memory folder), with a note naming the file.
import type { AgentDefinition } from "./types.ts";

const RUNS = ["hooks", "mcpServers", "memory"] as const;

export function trusting(agent: AgentDefinition, notes: string[]): AgentDefinition {
  const allows = agent.rules.filter((rule) => rule.action === "allow");
  const loosening = agent.permissionMode === "accept-edits" || agent.permissionMode === "auto";
  const runs = RUNS.filter((field) => agent[field] !== undefined);
  if (allows.length === 0 && !loosening && runs.length === 0) return agent;
  const dropped = [...(loosening ? [`permissionMode ${agent.permissionMode}`] : []), ...allows.map((r) => `allow ${r.permission}(${r.pattern})`), ...runs];
  notes.push(`agent file ${agent.source}: ${dropped.join(", ")} not applied: the workspace is not trusted (run with --trust to apply them)`);
  const { permissionMode, hooks: _h, mcpServers: _m, memory: _mem, ...rest } = agent;
  return { ...rest, ...(loosening ? {} : permissionMode ? { permissionMode } : {}), rules: agent.rules.filter((rule) => rule.action !== "allow") };
}
