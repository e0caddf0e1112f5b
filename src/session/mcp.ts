// The MCP part of a session as the front ends see it: the configured servers, and a hub to connect
// them for `rein mcp list` (the session itself attaches its hub in app/factory.ts). The hub, and the
// SDK under it, load only when asked for.
import { childEnv } from "../permission/child-env.ts";
import type { McpHub } from "../mcp/hub.ts";
import type { McpSettings } from "../mcp/session.ts";
import type { McpSandbox } from "../mcp/config.ts";
import { sandboxMasks, type MaskContext } from "./sandbox-masks.ts";

export { serverStatus, statusLine, type ServerStatus } from "../mcp/status.ts";
export { mcpSettings, type McpSettings } from "../mcp/session.ts";
export type { McpHub };

/** A hub over the given settings' servers with the tool environment, for listing them. */
export async function listingHub(
  settings: McpSettings,
  servers: McpSettings["servers"],
  run: {
    env: Readonly<Record<string, string | undefined>>;
    passthrough: readonly string[];
    cwd: string;
    version: string;
    /** the sandbox setting, and where the paths it masks are found */
    sandbox?: { mode: McpSandbox["mode"]; network: boolean; places: MaskContext };
    /** the names tool files have (name -> file): their tools are used instead of a server's */
    taken?: ReadonlyMap<string, string>;
  },
): Promise<McpHub> {
  const { McpHub } = await import("../mcp/hub.ts");
  const given = run.sandbox;
  const sandbox = given && { mode: given.mode, network: given.network, masked: () => sandboxMasks(given.places) };
  return new McpHub(servers, { ...settings, toolEnv: childEnv(run.env, { passthrough: run.passthrough }), cwd: run.cwd, version: run.version, ...(sandbox ? { sandbox } : {}), ...(run.taken ? { taken: () => run.taken! } : {}) });
}
export { saveServer } from "../mcp/save.ts";
export { parseEntry } from "../mcp/config.ts";
export { loginLine, loginState, type LoginState } from "../mcp/login-state.ts";
