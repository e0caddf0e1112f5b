// Entry of `rein acp` from run.ts: resolves the configuration once for the process and per session
// directory, opens the store, and serves ACP on stdio. stdout carries nothing but JSON-RPC lines;
// everything rein has to say goes to stderr.
import { serveAcp } from "./acp/agent.ts";
import type { ModelOption } from "./acp/config-options.ts";
import { MODE_TEXT, type ModeChoice } from "./acp/modes.ts";
import { loadAgents } from "./app/load-agents.ts";
import { PERMISSION_MODES, type PermissionMode } from "./config/schema.ts";
import type { Args } from "./app/args.ts";
import { agentPlaces, MissingKeyError, openStore, resolveContext, runSettings, startupWarnings, type Env } from "./app/context.ts";
import { out, warn } from "./app/output.ts";
import { stopBackgroundCommands } from "./app/stop-background.ts";
import { formatLoadError } from "./app/load-errors.ts";
import { parseEntry } from "./mcp/config.ts";
import type { ServerConfig } from "./mcp/sources.ts";
import { providerListing, sessionOptions, toolRegistry, type RunSettings } from "./app/factory.ts";
import type { SessionRow } from "./session/store.ts";
import type { FileAccess } from "./sdk.ts";
import { VERSION } from "./version.ts";

export async function acpMain(args: Args, env: Env): Promise<number> {
  const ctx = resolveContext(args, env);
  startupWarnings(ctx, warn);
  const store = openStore(ctx, warn);
  const optionsFor = (cwd: string, row?: SessionRow, mode?: ModeChoice, clientServers: Record<string, unknown> = {}, fileAccess?: FileAccess) => {
    const chosen = mode && "agent" in mode ? { agent: mode.agent } : mode ? { permissionMode: mode.permissionMode as PermissionMode, agent: undefined } : {};
    const run = resolveContext({ ...args, cwd, ...(row ? { model: row.model } : {}), ...chosen }, env);
    try {
      const settings = { ...withClientServers(runSettings(run, { warn }), clientServers, env), ...(fileAccess ? { fileAccess } : {}) };
      const registry = toolRegistry(settings.toolDirs, (errors) => warn(`tools not loaded:\n${errors.map(formatLoadError).join("\n")}`));
      // An idle session is woken by its workers' notifications: the editor sees the turn as session updates.
      return { ...sessionOptions(settings, store, registry), wakeWhenIdle: true, titleCall: true };
    } catch (error) {
      if (error instanceof MissingKeyError) return { problem: error.message };
      throw error;
    }
  };
  try {
    await serveAcp({ store, version: VERSION, optionsFor, modes: (cwd) => modesFor(args, env, cwd), models: (cwd) => modelsFor(args, env, cwd), warn }, Bun.stdin.stream(), out);
    await stopBackgroundCommands(warn);
  } finally {
    store.close();
  }
  return 0;
}

/** The client's MCP servers join the configured ones (a client's server replaces a configured one of the same name). */
function withClientServers(settings: RunSettings, raw: Record<string, unknown>, env: Env): RunSettings {
  const names = Object.keys(raw);
  if (names.length === 0 || !settings.mcp) return settings;
  const client = names.map((name): ServerConfig => {
    const parsed = parseEntry(raw[name], env);
    if ("problem" in parsed) warn(`the ACP client's MCP server ${name}: ${parsed.problem}`);
    return { name, source: "the ACP client (session/new)", scope: "local", ...("problem" in parsed ? { problem: parsed.problem } : { entry: parsed }) };
  });
  return { ...settings, mcp: { ...settings.mcp, servers: [...settings.mcp.servers.filter((s) => !names.includes(s.name)), ...client] } };
}

/** The models of the providers whose key is set, as `--model` names them, for the model picker. */
function modelsFor(args: Args, env: Env, cwd: string): ModelOption[] {
  const ctx = resolveContext({ ...args, cwd }, env);
  const listing = providerListing(ctx.config, ctx.env);
  if (typeof listing === "string") return [];
  return listing
    .filter((provider) => provider.keyOk)
    .flatMap((provider) => provider.models.map((m) => ({ value: m.name, name: m.name, description: `${Math.round(m.contextWindow / 1000)}k context${m.price ? ` · $${m.price.input}/$${m.price.output} per million tokens` : ""}` })));
}

/** rein's permission modes, then the workspace's primary agents; the current one is what the flags and config choose. */
function modesFor(args: Args, env: Env, cwd: string) {
  const ctx = resolveContext({ ...args, cwd }, env);
  const { agents } = loadAgents(agentPlaces(ctx));
  const primary = agents.filter((a) => a.mode !== "subagent");
  return {
    currentModeId: ctx.config.agent && !(PERMISSION_MODES as readonly string[]).includes(ctx.config.agent) ? `agent:${ctx.config.agent}` : (ctx.config.agent ?? ctx.config.permissionMode),
    availableModes: [
      ...PERMISSION_MODES.map((mode) => ({ id: mode, name: `${mode} permissions`, description: MODE_TEXT[mode] ?? null })),
      // A primary agent named like a permission mode (the built-in plan agent) is that mode's entry: listed once.
      ...primary.filter((agent) => !(PERMISSION_MODES as readonly string[]).includes(agent.name)).map((agent) => ({ id: `agent:${agent.name}`, name: `${agent.name} agent`, description: agent.description })),
    ],
  };
}
