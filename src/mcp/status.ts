// A server as `rein mcp list`, `/mcp` and the server API show it: where it came from, its
// transport, state, tools (rein's names beside the server's), prompts and last error. Values of env
// and headers are never shown: they are often tokens.
import { transportOf } from "./config.ts";
import type { McpHub } from "./hub.ts";
import { toolName } from "./names.ts";
import type { McpServer } from "./server.ts";

export type ServerStatus = ReturnType<typeof serverStatus>;

export function serverStatus(server: McpServer, hub: McpHub) {
  const entry = server.config.entry;
  const byServer = hub.offered();
  const offered = new Set((byServer.get(server) ?? []).map((t) => t.name));
  const problems = [...hub.toolsOf(server).problems, ...hub.clashes(server, byServer)];
  return {
    name: server.name,
    source: server.config.source,
    scope: server.config.scope,
    transport: entry ? transportOf(entry) : null,
    state: server.state,
    tools: server.tools.map((t) => ({ name: toolName(server.name, t.name), server_name: t.name, offered: offered.has(toolName(server.name, t.name)) })),
    prompts: server.prompts.map((p) => `/${toolName(server.name, p.name)}`),
    resources: server.resources,
    problems,
    error: server.lastError ?? null,
    ...(entry && "url" in entry ? { url: entry.url, headers: Object.keys(entry.headers ?? {}) } : {}),
    ...(entry && !("url" in entry) ? { command: [entry.command, ...(entry.args ?? [])], env: Object.keys(entry.env ?? {}), log: server.logFile } : {}),
  };
}

/** `name  transport  state  N tools  source  error`, one line. A cached server not started yet counts the tools it will offer. */
export function statusLine(row: ServerStatus): string {
  const count = row.state === "connected" || row.tools.length ? `${row.tools.filter((t) => t.offered).length} tools` : "";
  const prompts = row.prompts.length ? `${row.prompts.length} prompts` : "";
  const error = row.error ? `  ${row.error}` : "";
  return `${row.name}  ${row.transport ?? "-"}  ${row.state}  ${count}  ${prompts}  ${row.source}${error}`.replace(/ {4,}/g, "  ");
}
