// The MCP servers an ACP client hands a session (`session/new`'s `mcpServers`), as the entries of an
// `mcpServers` config section (stdio: command, args, env; http and sse: url, headers), so rein's MCP
// client reads them the way it reads .mcp.json. Pure.
import type { McpServer } from "@agentclientprotocol/sdk";

export function mcpEntries(servers: readonly McpServer[]): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const server of servers) {
    const pairs = (list: readonly { name: string; value: string }[]) => Object.fromEntries(list.map(({ name, value }) => [name, value]));
    if ("command" in server) entries[server.name] = { command: server.command, args: server.args, env: pairs(server.env) };
    else entries[server.name] = { type: server.type, url: server.url, headers: pairs(server.headers) };
  }
  return entries;
}
