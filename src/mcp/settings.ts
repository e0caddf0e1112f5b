// What a run's MCP configuration says (the servers from every source, the folders, the bounds), read
// at start whether or not any server is configured. Connecting, the tools and the prompts are
// session.ts's, loaded only for a run that has servers.
import { join } from "node:path";
import { serverPermission } from "./names.ts";
import { serverConfigs, type ServerConfig, type SourceOptions } from "./sources.ts";

const DEFAULT_WAIT_MS = 3_000;
const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 120_000;
const DEFAULT_TOOL_BUDGET = 6_000;

export type McpSettings = {
  servers: ServerConfig[];
  /** files that could not be read, for the front end to show */
  warnings: string[];
  /** where each stdio server's stderr is logged (`NAME.log`) */
  logDir: string;
  /** where each server's tool list is cached by configuration */
  cacheDir: string;
  /** the saved OAuth logins of remote servers */
  tokenFile: string;
  startupTimeoutMs: number;
  callTimeoutMs: number;
  waitMs: number;
  /** characters of MCP tool definitions sent before the search tool stands in for them */
  toolBudget: number;
};

export function mcpSettings(opts: SourceOptions & { dataDir: string }): McpSettings {
  const { servers, warnings } = serverConfigs(opts);
  const ms = (names: string[], fallback: number) => {
    for (const name of names) {
      const value = Number(opts.env[name]);
      if (Number.isInteger(value) && value > 0) return value;
    }
    return fallback;
  };
  return {
    servers,
    warnings,
    logDir: join(opts.dataDir, "mcp", "logs"),
    cacheDir: join(opts.dataDir, "mcp", "tools"),
    tokenFile: join(opts.dataDir, "mcp-tokens.json"),
    startupTimeoutMs: ms(["REIN_MCP_STARTUP_TIMEOUT_MS", "MCP_TIMEOUT"], DEFAULT_STARTUP_TIMEOUT_MS),
    callTimeoutMs: ms(["REIN_MCP_TOOL_TIMEOUT_MS", "MCP_TOOL_TIMEOUT"], DEFAULT_CALL_TIMEOUT_MS),
    waitMs: ms(["REIN_MCP_WAIT_MS"], DEFAULT_WAIT_MS),
    toolBudget: ms(["REIN_MCP_TOOL_BUDGET"], DEFAULT_TOOL_BUDGET),
  };
}

/** Whether a rule's permission names a configured server or one of its tools (loaded yet or not). */
export function namesConfiguredServer(permission: string, servers: readonly Pick<ServerConfig, "name">[]): boolean {
  return servers.some((s) => {
    const prefix = serverPermission(s.name);
    return permission === prefix || permission.startsWith(`${prefix}__`);
  });
}
