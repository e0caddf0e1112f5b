// The MCP settings a front end hands the session factory: front ends reach src/mcp/ through the session.
export { mcpSettings } from "../mcp/settings.ts";
export { parseEntry as parseMcpEntry } from "../mcp/config.ts";
export type { ServerConfig as McpServerConfig } from "../mcp/sources.ts";
