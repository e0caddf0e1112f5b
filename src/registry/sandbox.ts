// The kernel sandbox for programs other than the bash tool's commands (MCP stdio servers).
export { sandboxArgv, sandboxAvailable } from "../../tools/lib/sandbox.ts";
