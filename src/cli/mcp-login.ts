// rein mcp login NAME: prints the authorization URL to open, waits for the browser to come back to
// the loopback port, saves the tokens and connects once to check them (which also caches the
// server's tools). rein mcp logout NAME: removes the saved tokens. Tokens are never printed.
import { listingHub } from "../session/mcp.ts";
import { login, removeLogins } from "../app/mcp-oauth.ts";
import { VERSION } from "../version.ts";
import { UsageError } from "../app/args.ts";
import { mcpFor, type Context } from "../app/context.ts";
import { noSuchServer } from "./mcp-command.ts";
import { out, warn } from "../app/output.ts";

export async function mcpLogin(name: string | undefined, ctx: Context): Promise<number> {
  if (!name) throw new UsageError("rein mcp login needs a server name (see rein mcp list)");
  const settings = mcpFor(ctx);
  const server = settings.servers.find((s) => s.name === name);
  if (!server) {
    warn(noSuchServer(name, settings.servers));
    return 1;
  }
  const entry = server.entry;
  if (!entry) {
    warn(`MCP server "${name}" cannot be used: ${server.problem}`);
    return 1;
  }
  if (!("url" in entry)) {
    warn(`MCP server "${name}" is a stdio server (a program on this machine): it has no login`);
    return 1;
  }
  const showUrl = (url: string) =>
    out(`To log in to MCP server "${name}", open this URL in a browser:\n\n  ${url}\n\nWaiting for the browser to come back (Ctrl-C to stop)...\n`);
  let result: Awaited<ReturnType<typeof login>>;
  try {
    result = await login({ name, entry, tokenFile: settings.tokenFile, env: ctx.env, onUrl: showUrl, onNote: warn });
  } catch (error) {
    warn(`the login to MCP server "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  if (result === "open") {
    out(`MCP server "${name}" answered without asking for a login: nothing to do\n`);
    return 0;
  }
  const hub = await listingHub(settings, [server], { env: ctx.env, passthrough: ctx.config.envPassthrough, cwd: ctx.cwd, version: VERSION });
  try {
    await hub.start();
    const connected = hub.servers[0]!;
    const count = hub.toolsOf(connected).tools.length;
    const tools = connected.state === "connected" ? `; it offers ${count} tool${count === 1 ? "" : "s"}` : `, but connecting failed: ${connected.lastError}`;
    out(`logged in to MCP server "${name}" (tokens saved in ${settings.tokenFile})${tools}\n`);
    return 0;
  } finally {
    await hub.close();
  }
}

export function mcpLogout(name: string | undefined, ctx: Context): number {
  if (!name) throw new UsageError("rein mcp logout needs a server name (see rein mcp list)");
  const { tokenFile } = mcpFor(ctx);
  if (removeLogins(tokenFile, name) === 0) {
    warn(`no login is saved for MCP server "${name}" (in ${tokenFile})`);
    return 1;
  }
  out(`logged out of MCP server "${name}": its tokens are removed from ${tokenFile}\n`);
  return 0;
}
