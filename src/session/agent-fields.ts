// What an agent file's Claude Code fields change in the session of a task that runs it, as Claude
// Code applies them: `memory` (its memory folder's MEMORY.md in its prompt, read, write and edit
// offered, and writing there asks nothing), `hooks` (active only in its own session, `Stop` as
// `SubagentStop`), `mcpServers` (configured servers it names, and servers it defines inline, started
// for its run only: their tools offered past its tool list) and `effort`. The parent's agent-file
// hooks do not pass to the child. As the main agent (`--agent NAME`): its memory, hooks (`Stop`
// stays `Stop`), inline servers (started with the session's), not its effort (Claude Code sends none).
import type { StreamFn } from "../agent/types.ts";
import type { AgentDefinition } from "../agents/types.ts";
import { agentHookEntries } from "../hooks/sources.ts";
import { agentMemory } from "../memory/agent-memory.ts";
import type { Rule } from "../permission/evaluate.ts";
import { resolveForCheck } from "../permission/paths.ts";
import { serverPermission } from "../mcp/names.ts";
import type { Tool } from "../sdk.ts";
import type { HookEntry } from "../hooks/sources.ts";
import type { AgentServers } from "../mcp/session.ts";
import type { McpSettings } from "../mcp/settings.ts";
import type { ServerConfig as McpServerConfig } from "../mcp/sources.ts";
import type { SessionHookSettings } from "./session-hooks.ts";
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
  /** the configured servers' tools it names (all of them, also where the search tool stands in for them in the parent), offered whatever its tool list says */
  serverTools: (tools: readonly Tool[]) => Promise<Tool[]>;
  /** the servers it defines inline, started at its run's first turn; `close` ends them (the run is over) */
  ownServers?: AgentServers;
};

const MEMORY_TOOLS = ["read", "write", "edit"];

export function agentFields(agent: AgentDefinition, parent: SessionOptions, cwd: string): AgentFields {
  // What cannot be read or made (a memory folder) leaves that part out; the task still runs.
  const warnings: string[] = [];
  const places = parent.places ?? { home: process.env.HOME ?? "/", projectRoot: parent.hooks?.projectDir ?? cwd };
  const memory = agent.memory ? agentMemory(agent.name, agent.memory, places, warnings) : undefined;
  const offered = memory && agent.tools ? { ...agent, tools: [...new Set([...agent.tools, ...MEMORY_TOOLS])] } : agent;
  const rules = memory ? memoryRules(memory.dir, places.home) : [];
  const named = (agent.mcpServers ?? []).filter((s): s is string => typeof s === "string");
  const servers = named.map((name) => `${serverPermission(name)}__`);
  return {
    agent: offered,
    system: memory ? [memory.prompt] : [],
    rules,
    hookEntries: [...(parent.hooks?.entries ?? []).filter((entry) => entry.agent === undefined), ...(agent.hooks ? agentHookEntries({ name: agent.name, source: agent.source, hooks: agent.hooks }, warnings, []) : [])],
    serverTools: async (tools) => {
      if (!servers.length) return [];
      const whole = (await parent.mcp?.serverTools(named)) ?? [];
      const names = new Set(whole.map((tool) => tool.name));
      return [...whole, ...tools.filter((tool) => !names.has(tool.name) && servers.some((prefix) => tool.name.startsWith(prefix)))];
    },
    ...ownServers(agent, parent, cwd),
  };
}

/** The agent's inline servers (`{NAME: config}` entries), each `{}` merged into one map. */
function inlineServers(agent: AgentDefinition): Record<string, unknown> {
  return Object.assign({}, ...(agent.mcpServers ?? []).filter((s) => typeof s !== "string"));
}

/** The names of the servers agents define inline (a rule naming one names a server). */
export function inlineServerNames(agents: readonly AgentDefinition[]): string[] {
  return agents.some((a) => a.mcpServers) ? agents.flatMap((a) => Object.keys(inlineServers(a))) : [];
}

/** Started on the first ask for tools (the run's first turn), again after `close` (a worker resumed). */
function ownServers(agent: AgentDefinition, parent: SessionOptions, cwd: string): Pick<AgentFields, "ownServers"> {
  const inline = inlineServers(agent);
  const start = parent.agentServers;
  if (!start || Object.keys(inline).length === 0) return {};
  let running: AgentServers | undefined;
  return {
    ownServers: {
      tools: () => (running ??= start(inline, { source: agent.source, project: agent.project, cwd })).tools(),
      close: async () => {
        const stopping = running;
        running = undefined;
        await stopping?.close();
      },
    },
  };
}

type MainRun = { hooks?: SessionHookSettings; mcp?: McpSettings; env: Readonly<Record<string, string | undefined>>; projectRoot: string; warn?: (line: string) => void };

/**
 * What the main agent (`--agent NAME`) adds to the run's settings, as Claude Code applies it on the
 * main thread: its `hooks` join the session's while it runs (its `Stop` stays `Stop`; not passed to
 * the subagents it starts), and the servers it defines inline start with the session's (a
 * configured server of the same name wins, with a warning). Its `effort` is not applied: Claude Code
 * 2.1.332 sends none for a main agent (nor names it in hooks' `effort.level`), only for a subagent.
 */
export function mainAgentRun(agent: AgentDefinition, run: MainRun): Pick<MainRun, "hooks" | "mcp"> {
  const out: Pick<MainRun, "hooks" | "mcp"> = {};
  if (agent.hooks) {
    const warnings: string[] = [];
    const entries = agentHookEntries({ name: agent.name, source: agent.source, hooks: agent.hooks }, warnings, [], "main");
    for (const line of warnings) run.warn?.(line);
    const hooks = run.hooks ?? { entries: [], projectDir: run.projectRoot, permissionMode: "default" };
    out.hooks = { ...hooks, entries: [...hooks.entries, ...entries] };
  }
  const inline = Object.entries(inlineServers(agent));
  if (inline.length && run.mcp) {
    const taken = new Set(run.mcp.servers.map((s) => s.name));
    const added = inline.flatMap(([name, raw]): McpServerConfig[] => {
      if (taken.has(name)) {
        run.warn?.(`agent file ${agent.source}: MCP server "${name}" is not started: a configured server has that name and is used instead (rename one to have both)`);
        return [];
      }
      // The entry schema loads with the first agent file that names a server (src/mcp/config.ts).
      const parsed = (require("../mcp/config.ts") as typeof import("../mcp/config.ts")).parseEntry(raw, run.env);
      if ("problem" in parsed) {
        run.warn?.(`agent file ${agent.source}: MCP server "${name}" is not started: ${parsed.problem}`);
        return [];
      }
      return [{ name, source: agent.source, scope: agent.project ? "project" : "user", entry: parsed }];
    });
    if (added.length) out.mcp = { ...run.mcp, servers: [...run.mcp.servers, ...added] };
  }
  return out;
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

/** `permissionMode: dontAsk`: what the rules would ask of the agent is refused at once, naming the agent. */
export function dontAskPolicy(agent: string): NonNullable<SessionOptions["askPolicy"]> {
  return () => ({
    reply: "reject",
    explain: `Not run: the ${agent} agent asks no one (permissionMode dontAsk) and no rule allows this call. Do not try to get the same effect another way; say which permission it needs.`,
  });
}

/** Each effort stream's own stream: a subagent's requests carry its agent's effort, not its parent's. */
const withoutEffort = new WeakMap<StreamFn, StreamFn>();

/**
 * The agent's `effort` on every request of its session (the router sends it only to a model that
 * takes it). A number asks none: Claude Code sends no wire form for one either.
 */
export function withEffort(stream: StreamFn, effort: AgentDefinition["effort"]): StreamFn {
  const plain = withoutEffort.get(stream) ?? stream;
  if (typeof effort !== "string") return plain;
  const wrapped: StreamFn = (request, signal) => plain({ ...request, effort }, signal);
  withoutEffort.set(wrapped, plain);
  return wrapped;
}
