// Resolves what every mode needs from argv and the environment: the working directory, the
// project root, the file locations and the validated configuration.
import { childEnv } from "../permission/child-env.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { findProjectRoot, loadConfig, type ResolvedConfig } from "../config/load.ts";
import { projectPaths, reinPaths, type ReinPaths } from "../config/paths.ts";
import { workspaceTrust } from "../config/trust.ts";
import { listed, trustSummary } from "../config/trust-summary.ts";
import { DEFAULT_AGENT, hookDepthStop, loadAgents, loadHooks, lspConfigs, modelFor, runProblem, sandboxAvailable, type RunSettings, type ToolDir } from "./factory.ts";
import { Store } from "../session/store.ts";
import { mcpSettings, parseMcpEntry, type McpServerConfig } from "./mcp-settings.ts";
// Straight from plugins/, not the facade app/plugins.ts: a run loads none of install, marketplaces or import.
import { activePlugins, type ActivePlugins } from "../plugins/active.ts";
import { VERSION } from "../version.ts";
import { UsageError, type Args } from "./args.ts";
import { KnownFault, storeFolderFault } from "./known-fault.ts";
import { inlineAgents, mcpConfigServers, offeredOnly, systemPromptFlags } from "./claude-flags.ts";

export type Env = Record<string, string | undefined>;
export type Context = {
  args: Args;
  env: Env;
  cwd: string;
  projectRoot: string;
  paths: ReinPaths;
  config: ResolvedConfig;
  /** --trust, or the user trusted this workspace before (project tools and loosening config apply) */
  trusted: boolean;
};

export function resolveContext(args: Args, env: Env): Context {
  const cwd = resolve(args.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${args.cwd}: no such directory`);
  const projectRoot = findProjectRoot(cwd);
  const paths = reinPaths(env);
  const trusted = args.trust || workspaceTrust(paths.dataDir, projectRoot) === "trusted";
  const config = loadConfig({
    cwd,
    projectRoot,
    env,
    overrides: {
      ...(args.model ? { model: args.model } : {}),
      ...(args.maxTurns ? { maxTurns: args.maxTurns } : {}),
      ...(args.maxCost !== undefined ? { maxCost: args.maxCost } : {}),
      ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}),
      ...(args.agent ? { agent: args.agent } : {}),
      allow: args.allow,
      deny: args.deny,
      ask: args.ask,
      trust: trusted,
      sandbox: args.sandbox,
      claudeAllow: args.allowedTools,
      claudeDeny: args.disallowedTools,
      ...(args.settings !== undefined ? { settings: args.settings } : {}),
      ...(args.settingSources !== undefined ? { settingSources: args.settingSources.split(",").map((s) => s.trim()).filter(Boolean) } : {}),
      addDirs: args.addDir,
    },
  });
  return { args, env, cwd, projectRoot, paths, config, trusted };
}

/** The run's model cannot run: no key for its provider, an unknown provider, a bad `providers` entry (exit 2). */
export class MissingKeyError extends Error {}

export function runSettings(ctx: Context, extra: Pick<RunSettings, "askPolicy" | "warn"> = {}): RunSettings {
  const { config, env } = ctx;
  const num = (name: string) => (env[name] && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined);
  const baseDelayMs = num("REIN_RETRY_BASE_MS");
  const maxAttempts = num("REIN_RETRY_MAX_ATTEMPTS");
  const maxWaitMs = num("REIN_RETRY_MAX_WAIT_MS");
  const idleTimeoutMs = num("REIN_STREAM_IDLE_MS");
  const instructionMaxBytes = instructionCap(env);
  const leaseWaitMs = num("REIN_LEASE_WAIT_MS");
  const settings: RunSettings = {
    cwd: ctx.cwd,
    projectRoot: ctx.projectRoot,
    model: config.model,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    providers: config.providers,
    maxTurns: config.maxTurns,
    ...(config.maxCost !== undefined ? { maxCost: config.maxCost } : {}),
    ...(config.maxTokens ? { maxTokens: config.maxTokens } : {}),
    permissionMode: config.permissionMode,
    rules: config.rules,
    ...(config.directories.length ? { directories: config.directories } : {}),
    ...(Object.keys(config.settingsEnv).length ? { settingsEnv: config.settingsEnv } : {}),
    sandbox: { mode: config.sandbox, network: env.REIN_SANDBOX_NETWORK === "1" },
    env: withPluginBins(env, runPlugins(ctx).sources.bin),
    envPassthrough: config.envPassthrough,
    foreignPermissions: config.foreignPermissions,
    outputDir: ctx.paths.outputDir,
    dataDir: ctx.paths.dataDir,
    userInstructions: ctx.paths.userInstructions,
    ...(config.extraInstructions.length ? { extraInstructions: config.extraInstructions } : {}),
    ...(instructionMaxBytes ? { instructionMaxBytes } : {}),
    version: VERSION,
    toolDirs: toolDirs(ctx),
    home: env.HOME || homedir(),
    reinDirs: reinDirs(ctx),
    trusted: ctx.trusted,
    retry: {
      ...(baseDelayMs !== undefined ? { baseDelayMs } : {}),
      ...(maxAttempts !== undefined ? { maxAttempts } : {}),
      ...(maxWaitMs !== undefined ? { maxWaitMs } : {}),
    },
    ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
    ...(leaseWaitMs !== undefined ? { leaseWaitMs } : {}),
    mcp: mcpFor(ctx),
    ...lspFor(ctx),
    ...(ctx.config.webSearch ? { webSearch: ctx.config.webSearch } : {}),
    // CLAUDE_CODE_ENTRYPOINT for hooks from Claude Code's files: `cli` in the terminal, `sdk-cli` headless
    hooks: { entries: runHooks(ctx).entries, projectDir: ctx.projectRoot, permissionMode: config.permissionMode, entrypoint: ctx.args.print || ctx.args.serve ? "sdk-cli" : "cli" },
    ...agentsFor(ctx, extra.warn),
    skills: { configDir: ctx.paths.configDir, trusted: ctx.trusted, plugins: runPlugins(ctx), ...(config.opencodeCommands.length ? { commands: config.opencodeCommands } : {}) },
    ...claudeRunFlags(ctx),
    // --permission-mode dontAsk (Claude Code's): nothing asks anyone; what no rule allows is refused.
    ...(ctx.args.dontAsk ? { askPolicy: DONT_ASK } : {}),
    ...extra,
  };
  // `-m opus` is the newest opus of the provider the config uses; an agent's `opus` of the run's model's.
  const model = modelFor(settings, settings.model, settings.model === config.model ? config.configuredModel : config.model);
  const resolved = model === settings.model ? settings : { ...settings, model };
  const problem = runProblem(resolved);
  if (problem) throw new MissingKeyError(problem);
  // A fallback that cannot run would fail only once an overload needs it: say so now, as for -m.
  const fallback = resolved.fallbackModel ? modelFor(resolved, resolved.fallbackModel, resolved.model) : undefined;
  const fallbackProblem = fallback ? runProblem(resolved, fallback) : undefined;
  if (fallbackProblem) throw new MissingKeyError(`--fallback-model ${resolved.fallbackModel}: ${fallbackProblem}`);
  return resolved;
}

/** The language servers of rein's config files and the enabled plugins (a project's only with trust). */
/** The environment a run's tools and servers get: secrets removed by name and value, env.passthrough kept. */
export function serverEnv(ctx: Context): Record<string, string> {
  return childEnv(ctx.env, { passthrough: ctx.config.envPassthrough, secrets: PROVIDER_KEY_ENV });
}

export function lspFor(ctx: Context): Pick<RunSettings, "lsp"> {
  const plugins = runPlugins(ctx).sources.lsp.map((set) => ({ file: set.file, scope: "plugin" as const, servers: set.servers, env: set.env }));
  const configs = lspConfigs([...plugins, ...(ctx.config.lsp ?? [])], ctx.trusted);
  if (!configs.length) return {};
  const waitMs = Number(ctx.env.REIN_LSP_WAIT_MS);
  return { lsp: { configs, logDir: join(ctx.paths.dataDir, "lsp", "logs"), ...(waitMs > 0 ? { waitMs } : {}) } };
}

const DONT_ASK: NonNullable<RunSettings["askPolicy"]> = () => ({
  reply: "reject",
  explain: "Not run: this run asks no one (--permission-mode dontAsk) and no rule allows this call. Do not try to get the same effect another way; tell the user which permission it needs.",
});

/** Claude Code's --tools, --system-prompt and --append-system-prompt (and their -file forms). */
function claudeRunFlags(ctx: Context): Pick<RunSettings, "offeredOnly" | "systemPrompt" | "fallbackModel"> {
  const only = offeredOnly(ctx.args);
  const system = systemPromptFlags(ctx.args, ctx.cwd);
  return {
    ...(only ? { offeredOnly: only } : {}),
    ...(system.replace !== undefined || system.append !== undefined ? { systemPrompt: system } : {}),
    ...(ctx.args.fallbackModel ? { fallbackModel: ctx.args.fallbackModel } : {}),
  };
}

/** The MCP servers the config files and Claude Code's files name for this project, and --mcp-config's (only those with --strict-mcp-config). */
export function mcpFor(ctx: Context) {
  const settings = configuredMcp(ctx);
  if (!ctx.args.mcpConfig.length && !ctx.args.strictMcpConfig) return settings;
  const raw = mcpConfigServers(ctx.args, ctx.cwd);
  const given = Object.entries(raw).map(([name, value]): McpServerConfig => {
    const parsed = parseMcpEntry(value, ctx.env);
    if ("problem" in parsed) return { name, source: "--mcp-config", scope: "local", problem: parsed.problem };
    return { name, source: "--mcp-config", scope: "local", entry: parsed };
  });
  const kept = ctx.args.strictMcpConfig ? [] : settings.servers.filter((s) => !(s.name in raw));
  return { ...settings, servers: [...kept, ...given] };
}

function configuredMcp(ctx: Context) {
  return mcpSettings({
    projectRoot: ctx.projectRoot,
    home: ctx.env.HOME || homedir(),
    rein: ctx.config.mcpServers,
    trusted: ctx.trusted,
    env: ctx.env,
    dataDir: ctx.paths.dataDir,
    plugins: runPlugins(ctx).sources.mcp,
  });
}

/** The run's plugins (read once per context: settings, hooks, MCP and the listings all need them). */
export function runPlugins(ctx: Context): ActivePlugins {
  let plugins = pluginsByContext.get(ctx);
  if (!plugins) {
    plugins = activePlugins({ configDir: ctx.paths.configDir, dataDir: ctx.paths.dataDir, enabled: ctx.config.plugins, trusted: ctx.trusted });
    pluginsByContext.set(ctx, plugins);
  }
  return plugins;
}
const pluginsByContext = new WeakMap<Context, ActivePlugins>();

/**
 * Enabled plugins' `bin/` folders end the PATH of the processes tools start: after the system's, so
 * a plugin's `git` or `ls` can never stand in for the program a rule (or the read-only list) allows.
 */
function withPluginBins(env: Env, bins: readonly string[]): Env {
  return bins.length ? { ...env, PATH: [...(env.PATH ? [env.PATH] : []), ...bins].join(":") } : env;
}

/** REIN_INSTRUCTIONS_MAX_BYTES: the bytes kept of each instruction file, when it is a positive integer. */
export function instructionCap(env: Env): number | undefined {
  const value = env.REIN_INSTRUCTIONS_MAX_BYTES;
  return value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/** What `rein permissions explain` evaluates with: the same rules and engine context as a run. */
export function runSettingsForExplain(ctx: Context) {
  return {
    cwd: ctx.cwd,
    projectRoot: ctx.projectRoot,
    home: ctx.env.HOME || homedir(),
    reinDirs: reinDirs(ctx),
    mode: ctx.config.permissionMode,
    rules: ctx.config.rules,
    directories: ctx.config.directories,
  };
}

/**
 * The run's hooks from every source; project ones are active only in a trusted workspace. Read once
 * per context: both runSettings and startupWarnings need them, and a fresh run gets a fresh context.
 */
export function runHooks(ctx: Context): ReturnType<typeof loadHooks> {
  let hooks = hooksByContext.get(ctx);
  if (!hooks) {
    const tooDeep = hookDepthStop(ctx.env);
    hooks = tooDeep
      ? { entries: [], warnings: [tooDeep], notes: [] }
      : loadHooks({ rein: ctx.config.hooks, home: ctx.env.HOME || homedir(), projectRoot: ctx.projectRoot, trusted: ctx.trusted, plugins: runPlugins(ctx).sources.hooks });
    hooksByContext.set(ctx, hooks);
  }
  return hooks;
}
const hooksByContext = new WeakMap<Context, ReturnType<typeof loadHooks>>();

export function reinDirs(ctx: Context): string[] {
  return [ctx.paths.configDir, ctx.paths.dataDir, join(ctx.projectRoot, ".rein")];
}

/** What a run should hear before it starts: the config's warnings, and a configured sandbox this machine cannot give. */
export function startupWarnings(ctx: Context, warn: (message: string) => void): void {
  for (const warning of ctx.config.warnings) warn(warning);
  for (const warning of runHooks(ctx).warnings) warn(warning);
  if (ctx.config.sandbox === "off") return;
  const sandbox = sandboxAvailable();
  if (!sandbox.ok) {
    const effect = ctx.config.sandbox === "on" ? "bash commands will not run" : "bash commands run without it";
    warn(`the kernel sandbox is unavailable (${sandbox.reason}): ${effect}. ${sandbox.hint}`);
  }
}

/** User tools always; project tools only in a trusted workspace. */
export function toolDirs(ctx: Context): ToolDir[] {
  const user: ToolDir = { dir: ctx.paths.userTools, source: "user" };
  return ctx.trusted ? [user, { dir: projectPaths(ctx.projectRoot).tools, source: "project" }] : [user];
}

/** One line: what an untrusted workspace's extension configuration would turn on, and how to turn it on. */
export function untrustedSummary(ctx: Context): string | undefined {
  if (ctx.trusted) return undefined;
  const summary = trustSummary(ctx.projectRoot, ctx.env.HOME || homedir());
  if (!summary.parts.length) return undefined;
  return `this workspace is not trusted: its ${listed(summary.parts)} (from ${summary.found.join(", ")}) were left off; run with --trust to turn them on (the terminal asks once and remembers)`;
}

/** A warning when the project has tools that an untrusted workspace does not load. */
export function untrustedToolsWarning(ctx: Context): string | undefined {
  if (ctx.trusted) return undefined;
  const dir = projectPaths(ctx.projectRoot).tools;
  if (!existsSync(dir)) return undefined;
  return `project tools in ${dir} were not loaded: this workspace is not trusted (run with --trust to load them)`;
}

/** Opens the session database; a corrupt one is moved aside and reported through `warn`. */
export function openStore(ctx: Context, warn: (message: string) => void): Store {
  let opened: ReturnType<typeof Store.open>;
  try {
    opened = Store.open(ctx.paths.db);
  } catch (error) {
    const fault = storeFolderFault(ctx.paths.db, error instanceof Error ? error.message : String(error));
    throw fault ? new KnownFault(fault) : error;
  }
  if (opened.warning) warn(opened.warning);
  return opened.store;
}

/**
 * For commands that only read (sessions list, show, export, doctor): the store as usual, or, when
 * its folder cannot be written (a read-only file system, no permission), the database read-only.
 */
export function openStoreForReading(ctx: Context, warn: (message: string) => void): { store: Store; readOnly: boolean } {
  try {
    return { store: openStore(ctx, warn), readOnly: false };
  } catch (error) {
    if (writable(dirname(ctx.paths.db)) || !existsSync(ctx.paths.db)) throw error;
    return { store: Store.openReadOnly(ctx.paths.db), readOnly: true };
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where the workspace's agents are found, plugins' included. */
export function agentPlaces(ctx: Context) {
  // --agents (Claude Code's) first: nearer than OpenCode's `agent` entries and any file.
  const opencode = ctx.config.opencodeAgents.map((file) => ({ ...file, format: "opencode" as const }));
  const all = [...(inlineAgents(ctx.args) ?? []), ...opencode];
  const inline = all.length ? all : undefined;
  return { cwd: ctx.cwd, projectRoot: ctx.projectRoot, home: ctx.env.HOME || homedir(), configDir: ctx.paths.configDir, trusted: ctx.trusted, plugins: runPlugins(ctx).sources.agents, ...(inline ? { inline } : {}) };
}

/**
 * The workspace's agents and the one chosen (--agent, config `agent`; plan mode is the plan agent);
 * its model and turn limit apply unless a flag set them. An unknown name is a usage error.
 */
function agentsFor(ctx: Context, warn?: (message: string) => void): Pick<RunSettings, "agents" | "model" | "maxTurns"> | {} {
  const { agents, report } = loadAgents(agentPlaces(ctx));
  // What did not load is said at start; what loaded with a remark is for rein doctor and rein plugin list.
  for (const line of report.warnings) warn?.(line);
  const chosen = ctx.config.agent ?? (ctx.config.permissionMode === "plan" ? "plan" : undefined);
  // Without a choice the session runs as build (whose built-in rules are the mode's), named in the `session` event.
  const name = chosen ?? DEFAULT_AGENT;
  const agent = agents.find((a) => a.name === name);
  const workers = { ...(ctx.config.maxWorkers ? { workers: ctx.config.maxWorkers } : {}), ...(ctx.config.teammateMode === "tmux" ? { tmux: true as const } : {}) };
  if (!chosen && (!agent || agent.mode === "subagent")) return { agents: { list: agents, ...workers } };
  // A chosen agent runs as the main one even when it is meant as a subagent (Claude Code's --agent).
  if (!agent) {
    const primary = agents.filter((a) => a.mode !== "subagent").map((a) => a.name).join(", ");
    throw new UsageError(`no agent "${name}" to run as: choose one of ${primary}, or a subagent by its name`);
  }
  return {
    agents: { list: agents, name, ...workers },
    ...(agent.model && !ctx.args.model ? { model: agent.model } : {}),
    ...(agent.maxTurns && !ctx.args.maxTurns ? { maxTurns: agent.maxTurns } : {}),
  };
}
