// The MCP settings a front end hands the session factory: front ends reach src/mcp/ through the session.
export { mcpSettings } from "../mcp/settings.ts";
import type { parseEntry } from "../mcp/config.ts";

/** An entry checked (mcp/config.ts): its schemas are built with the first server some source names. */
export const parseMcpEntry: typeof parseEntry = (...args) => (require("../mcp/config.ts") as typeof import("../mcp/config.ts")).parseEntry(...args);
export type { ServerConfig as McpServerConfig } from "../mcp/sources.ts";
