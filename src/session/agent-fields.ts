// What an agent file's Claude Code fields change in the session of a task that runs it, as Claude
// Code applies them: `memory` (its memory folder's MEMORY.md in its prompt, read, write and edit
// offered, and writing there asks nothing), `hooks` (active only in its own session, `Stop` as
// `SubagentStop`) and `mcpServers` naming configured servers (their tools offered past its tool
// list). The parent's agent-file hooks do not pass to the child.
import type { AgentDefinition } from "../agents/types.ts";
import { agentHookEntries } from "../hooks/sources.ts";
import { agentMemory } from "../memory/agent-memory.ts";
import type { Rule } from "../permission/evaluate.ts";
import { resolveForCheck } from "../permission/paths.ts";
import { serverPermission } from "../mcp/names.ts";
import type { Tool } from "../sdk.ts";
import type { HookEntry } from "../hooks/sources.ts";
import type { SessionOptions } from "./session-options.ts";

export type AgentFields = {
  /** the agent as offered its tools: with read, write and edit when it keeps a memory */
  agent: AgentDefinition;
  /** system prompt parts after the agent's own prompt */
  system: string[];
  /** approvals of the agent's session (writing in its memory folder) */
  rules: Rule[];
  /** the hooks of its session: the parent's without the parent's agent-file hooks, and its own */
  hookEntries: HookEntry[];
  /** the configured servers' tools it names, offered whatever its tool list says */
  serverTools: (tools: readonly Tool[]) => Tool[];
};

const MEMORY_TOOLS = ["read", "write", "edit"];

export function agentFields(agent: AgentDefinition, parent: SessionOptions, cwd: string): AgentFields {
  // What cannot be read or made (a memory folder) leaves that part out; the task still runs.
  const warnings: string[] = [];
  const places = parent.places ?? { home: process.env.HOME ?? "/", projectRoot: parent.hooks?.projectDir ?? cwd };
  const memory = agent.memory ? agentMemory(agent.name, agent.memory, places, warnings) : undefined;
  const offered = memory && agent.tools ? { ...agent, tools: [...new Set([...agent.tools, ...MEMORY_TOOLS])] } : agent;
  const rules = memory ? memoryRules(memory.dir, places.home) : [];
  const servers = (agent.mcpServers ?? []).filter((s): s is string => typeof s === "string").map((name) => `${serverPermission(name)}__`);
  return {
    agent: offered,
    system: memory ? [memory.prompt] : [],
    rules,
    hookEntries: [...(parent.hooks?.entries ?? []).filter((entry) => entry.agent === undefined), ...(agent.hooks ? agentHookEntries({ name: agent.name, source: agent.source, hooks: agent.hooks }, warnings, []) : [])],
    serverTools: (tools) => (servers.length ? tools.filter((tool) => servers.some((prefix) => tool.name.startsWith(prefix))) : []),
  };
}

/**
 * The main agent's `memory` (`--agent NAME`, as Claude Code applies it on the main thread): its
 * MEMORY.md after the session's prompt (not passed to the subagents it starts), read, write and
 * edit offered, its folder writable without asking. `options` were made for `agent` as `withTools` gives it.
 */
export function mainAgentMemory(agent: AgentDefinition, places: { home: string; projectRoot: string }): { agent: AgentDefinition; apply: (options: SessionOptions) => SessionOptions } | undefined {
  if (!agent.memory) return undefined;
  const memory = agentMemory(agent.name, agent.memory, places);
  const offered = agent.tools ? { ...agent, tools: [...new Set([...agent.tools, ...MEMORY_TOOLS])] } : agent;
  const rules = memoryRules(memory.dir, places.home);
  return {
    agent: offered,
    apply: (options) => ({
      ...options,
      system: [options.system, memory.prompt].join("\n\n"),
      childSystem: options.childSystem ?? options.system,
      inherited: () => [...(options.inherited?.() ?? []), ...rules],
    }),
  };
}

/** Writing and reading in the memory folder ask nothing (the agent's own denies still hold). */
function memoryRules(dir: string, home: string): Rule[] {
  const source = "the agent's memory folder";
  return [dir, resolveForCheck(dir, "/", home)].flatMap((folder) => [
    { permission: "external_directory", pattern: `${folder}/*`, action: "allow" as const, source },
    { permission: "edit", pattern: `${folder}/*`, action: "allow" as const, source },
    { permission: "read", pattern: `${folder}/*`, action: "allow" as const, source },
  ]);
}
