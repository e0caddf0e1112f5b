// rein mcp list | get NAME: the configured MCP servers, where each came from, its transport, its
// state after trying to connect (bounded by the startup timeout), its tools and its last error.
// Values of env and headers are never printed: they are often tokens.
import { projectPaths } from "../config/paths.ts";
import { listingHub, loginLine, loginState, parseEntry, saveServer, serverStatus, statusLine, type LoginState, type ServerStatus } from "../session/mcp.ts";
import { VERSION } from "../version.ts";
import { UsageError } from "../app/args.ts";
import { mcpFor, runSettingsForExplain, toolDirs, type Context } from "../app/context.ts";
import { toolRegistry } from "../app/factory.ts";
import { out, warn } from "../app/output.ts";

export async function mcpCommand(rest: string[], ctx: Context): Promise<number> {
  const [action = "list", name] = rest;
  if (action === "add" || action === "remove") return change(action, rest.slice(1), ctx);
  if (action === "login") return (await import("./mcp-login.ts")).mcpLogin(name, ctx);
  if (action === "logout") return (await import("./mcp-login.ts")).mcpLogout(name, ctx);
  if (action !== "list" && action !== "get") throw new UsageError(`unknown action "${action}" (rein mcp list | get NAME | add NAME -- COMMAND... | add NAME --url URL | remove NAME | login NAME | logout NAME)`);
  if (action === "get" && !name) throw new UsageError("rein mcp get needs a server name (see rein mcp list)");
  const settings = mcpFor(ctx);
  for (const warning of settings.warnings) warn(warning);
  const servers = action === "get" ? settings.servers.filter((s) => s.name === name) : settings.servers;
  if (action === "get" && servers.length === 0) {
    warn(noSuchServer(name, settings.servers));
    return 1;
  }
  const { home, reinDirs, projectRoot } = runSettingsForExplain(ctx);
  const sandbox = { mode: ctx.config.sandbox, network: ctx.env.REIN_SANDBOX_NETWORK === "1", places: { home, reinDirs, workspace: projectRoot } };
  // A tool file named like a server's tool is used instead of it, as in a session.
  const taken = toolRegistry(toolDirs(ctx));
  await taken.refresh();
  const hub = await listingHub(settings, servers, { env: ctx.env, passthrough: ctx.config.envPassthrough, cwd: ctx.cwd, version: VERSION, sandbox, taken: taken.fileTools() });
  try {
    await hub.start();
    // Read after the servers connected: a token renewed on the way shows as renewed.
    const rows = hub.servers.map((s): Row => {
      const row = serverStatus(s, hub);
      return row.url ? { ...row, login: loginState(settings.tokenFile, { name: row.name, url: row.url }) } : row;
    });
    if (ctx.args.json) out(`${JSON.stringify(action === "get" ? rows[0] : { servers: rows }, null, 2)}\n`);
    else if (action === "get") out(detail(rows[0]!));
    else out(rows.length ? rows.map((row) => `${statusLine(row)}\n`).join("") : "no MCP servers configured (add \"mcpServers\" to ~/.config/rein/config.json, or a .mcp.json)\n");
    return 0;
  } finally {
    await hub.close();
  }
}

/** The line for a server name that is not configured, naming those that are. */
export function noSuchServer(name: string | undefined, servers: readonly { name: string }[]): string {
  return `no MCP server named "${name}" (configured: ${servers.map((s) => s.name).join(", ") || "none"})`;
}

type Row = ServerStatus & { login?: LoginState };

function detail(row: Row): string {
  const lines = [
    `${row.name} (${row.scope}, from ${row.source})`,
    `transport: ${row.transport ?? "-"}`,
    ...(row.command ? [`command: ${row.command.join(" ")}`, `env: ${row.env?.join(", ") || "(none)"}`, `log: ${row.log}`] : []),
    ...(row.url ? [`url: ${row.url}`, `headers: ${row.headers?.join(", ") || "(none)"}`] : []),
    `state: ${row.state}`,
    ...(row.login ? [loginLine(row.login, row.name)] : []),
    ...(row.error ? [`error: ${row.error}`] : []),
    ...row.tools.map((t) => `  ${t.name}${t.name === `mcp__${row.name}__${t.server_name}` ? "" : `  (${t.server_name})`}${t.offered ? "" : "  not offered"}`),
    ...row.prompts.map((p) => `  ${p}  (prompt)`),
    ...row.problems.map((p) => `  ${p.tool}: ${p.cut ? "note" : "left out"}: ${p.reason}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** rein mcp add NAME [--scope user|project] (-- COMMAND ARGS... | --url URL), rein mcp remove NAME [--scope ...] */
function change(action: "add" | "remove", words: string[], ctx: Context): number {
  const [name, ...command] = words;
  if (!name || !/^[A-Za-z0-9_.-]+$/.test(name)) throw new UsageError(`rein mcp ${action} needs a server name of letters, digits, _ . or - first`);
  const file = ctx.args.scope === "project" ? projectPaths(ctx.projectRoot).config : ctx.paths.userConfig;
  if (action === "remove") {
    if (!saveServer(file, name, undefined)) {
      warn(`${file} has no MCP server "${name}" (rein edits only its own config files; see rein mcp list for where each server comes from)`);
      return 1;
    }
    out(`removed MCP server "${name}" from ${file}\n`);
    return 0;
  }
  const url = ctx.args.url;
  if (url && command.length > 0) throw new UsageError("give either --url URL or -- COMMAND ARGS..., not both");
  if (!url && command.length === 0) throw new UsageError("rein mcp add NAME -- COMMAND ARGS... (a stdio server) or rein mcp add NAME --url URL (streamable HTTP)");
  const entry = url ? { type: "http", url } : { command: command[0]!, args: command.slice(1) };
  const checked = parseEntry(entry, ctx.env);
  if ("problem" in checked) throw new UsageError(`MCP server "${name}": ${checked.problem}`);
  saveServer(file, name, entry);
  out(`added MCP server "${name}" to ${file}\n`);
  return 0;
}
