// The MCP settings a front end hands the session factory: front ends reach src/mcp/ through the session.
export { mcpSettings } from "../mcp/session.ts";
