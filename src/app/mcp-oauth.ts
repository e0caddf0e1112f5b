// The OAuth login of remote MCP servers as the front ends see it (`rein mcp login | logout`).
export { login } from "../mcp/oauth-login.ts";
export { removeLogins } from "../mcp/oauth-store.ts";
