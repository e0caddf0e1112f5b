// What a session needs of MCP: the configured servers (read when the run's settings are made) and
// a hub that connects them in the background and adds their tools to the session's registry. The
// SDK (and the hub that uses it) loads only in a session that has servers.
import type { ContentBlock } from "../agent/types.ts";
import type { ToolRegistry } from "../registry/registry.ts";
import type { McpSandbox } from "./config.ts";
import { promptCommands, type PromptCommands } from "./prompts.ts";
import { attachMentions, hasMention } from "./resources.ts";
import type { McpSettings } from "./settings.ts";
export { mcpSettings, namesConfiguredServer, type McpSettings } from "./settings.ts";
import { serverStatus, type ServerStatus } from "./status.ts";
import type { McpServer } from "./server.ts";
import { parseEntry } from "./config.ts";
import type { ServerConfig } from "./sources.ts";
import type { Tool } from "../sdk.ts";

/** `warn`: told once for each server tool a tool file's name hides */
export type RunPart = { toolEnv: Readonly<Record<string, string>>; cwd: string; version: string; sandbox?: McpSandbox; warn?: (line: string) => void };

/** What a session has of its MCP servers besides their tools. */
export type SessionMcp = {
  /** the servers' prompts as slash commands */
  prompts: PromptCommands;
  /** the resources `@SERVER:URI` in a prompt names, as blocks for its message; an error (a line) when one cannot be read */
  attach(text: string, signal?: AbortSignal): Promise<ContentBlock[] | { error: string }>;
  /** the servers as they stand, once those still connecting are done (at most the first turn's wait) */
  servers(): Promise<ServerStatus[]>;
  /** every tool of the servers named (an agent's `mcpServers`), whether or not the search tool stands in for them in this session */
  serverTools(names: readonly string[]): Promise<Tool[]>;
  /** servers that failed (or were not ready when the first turn began) since the last call, each told once */
  failures(): McpFailure[];
  /** closes the connections and ends the stdio servers' processes (the session is let go) */
  close(): Promise<void>;
};

/** A server the session could not use: the `mcp_server` event's fields. */
export type McpFailure = { name: string; state: "failed" | "needs login" | "connecting"; error: string };

/** The hubs of this process, whose servers end when it exits (one listener for all of them). */
const live = new Set<{ kill: () => void }>();
let killOnExit = false;

/** Starts the servers in the background and offers their tools through `registry`; they end with the process. */
export function attachMcp(registry: ToolRegistry, settings: McpSettings, run: RunPart): SessionMcp {
  const hub = import("./hub.ts").then(({ McpHub }) => {
    const made = new McpHub(settings.servers, { ...settings, ...run, lazy: true, taken: () => registry.fileTools() });
    void made.start();
    if (!killOnExit) process.once("exit", () => live.forEach((h) => h.kill()));
    killOnExit = true;
    live.add(made);
    return made;
  });
  const told = new Set<string>();
  const failing = failureWatch(settings.waitMs, run.warn);
  registry.addSource({
    source: "mcp",
    tools: async () => {
      const h = await hub;
      const tools = await h.tools();
      failing.look(h.servers);
      for (const { server, tool, file } of h.shadowed()) {
        if (told.has(tool)) continue;
        told.add(tool);
        run.warn?.(`MCP server "${server}"'s tool ${tool} is left out: the tool file ${file} has that name and is used instead (rename that tool to have both)`);
      }
      return tools;
    },
  });
  return {
    prompts: promptCommands(hub, settings.servers.map((s) => s.name)),
    // Text that names no resource waits for nothing.
    attach: async (text, signal) => (hasMention(text) ? attachMentions((await hub).servers, text, signal) : []),
    failures: () => failing.take(),
    servers: async () => {
      const h = await hub;
      await h.firstTurn();
      return h.servers.map((s) => serverStatus(s, h));
    },
    serverTools: async (names) => {
      const h = await hub;
      await h.firstTurn();
      const offered = h.offered();
      return h.servers.filter((s) => names.includes(s.name) && (s.state === "connected" || s.state === "closed")).flatMap((s) => offered.get(s) ?? []);
    },
    close: async () => {
      const h = await hub;
      live.delete(h);
      await h.close();
    },
  };
}

/** An agent's own MCP servers, started for one run of it: their tools, and closing them when the run is over. */
export type AgentServers = { tools(): Promise<Tool[]>; close(): Promise<void> };

/**
 * An agent file's inline `mcpServers` (`{NAME: config}`, as in .mcp.json), started for the run of
 * that agent only (Claude Code connects them when the subagent starts and disconnects them when it
 * finishes). `${VAR}` in them is expanded from `env`; a bad entry is a warning and starts nothing.
 */
export function startAgentServers(raw: Record<string, unknown>, where: { source: string; project: boolean; cwd?: string }, settings: McpSettings, run: RunPart & { env: Readonly<Record<string, string | undefined>> }): AgentServers {
  const configs: ServerConfig[] = Object.entries(raw).map(([name, value]) => {
    const parsed = parseEntry(value, run.env);
    const config: ServerConfig = { name, source: where.source, scope: where.project ? "project" : "user" };
    if ("problem" in parsed) {
      run.warn?.(`agent file ${where.source}: MCP server "${name}" is not started: ${parsed.problem}`);
      config.problem = parsed.problem;
    } else config.entry = parsed;
    return config;
  });
  const hub = import("./hub.ts").then(({ McpHub }) => {
    // Not lazy: an agent's own servers start now, whatever a cache holds, and end with its run.
    const made = new McpHub(configs, { ...settings, ...run, ...(where.cwd ? { cwd: where.cwd } : {}) });
    void made.start();
    if (!killOnExit) process.once("exit", () => live.forEach((h) => h.kill()));
    killOnExit = true;
    live.add(made);
    return made;
  });
  const failing = failureWatch(settings.waitMs, run.warn, (failure) => `agent file ${where.source}: ${failureLine(failure).replace(/ \(rein mcp get .*\)$/, "")}`);
  return {
    tools: async () => {
      const h = await hub;
      const tools = await h.tools();
      failing.look(h.servers);
      return tools;
    },
    close: async () => {
      const h = await hub;
      live.delete(h);
      await h.close();
    },
  };
}

/**
 * Notices each server that failed to start (a command that does not run, a handshake that hangs or
 * answers garbage, an HTTP 500 or 401), once per failure: one warning line, and a failure for the
 * session's `mcp_server` event. A server still connecting when the first turn begins is told too.
 * Servers rein does not start on purpose (disabled, untrusted) or whose entry it could not read are not.
 */
function failureWatch(waitMs: number, warn?: (line: string) => void, line = failureLine) {
  const seen = new Map<string, string>();
  let pending: McpFailure[] = [];
  return {
    look(servers: readonly McpServer[]): void {
      for (const server of servers) {
        const failure = failureOf(server, waitMs);
        const key = failure && `${failure.state}: ${failure.error}`;
        if (!failure) {
          if (server.state === "connected") seen.delete(server.name);
          continue;
        }
        if (seen.get(server.name) === key) continue;
        seen.set(server.name, key!);
        pending.push(failure);
        warn?.(line(failure));
      }
    },
    take(): McpFailure[] {
      const taken = pending;
      pending = [];
      return taken;
    },
  };
}

function failureOf(server: McpServer, waitMs: number): McpFailure | undefined {
  if (!server.config.entry || server.config.problem) return undefined;
  const { name, state } = server;
  if (state === "failed" || state === "needs login") return { name, state, error: server.lastError ?? "it did not start" };
  if (state === "connecting") return { name, state, error: `it had not answered within ${waitMs / 1000} s (REIN_MCP_WAIT_MS) when the first turn began; its tools join a later turn once it does` };
  return undefined;
}

export function failureLine(failure: McpFailure): string {
  if (failure.state === "connecting") return `MCP server "${failure.name}" is not ready: ${failure.error}`;
  return `MCP server "${failure.name}" failed: ${failure.error}; its tools are not offered (rein mcp get ${failure.name} shows more)`;
}

