// Assembles what a Session runs on from settings the front end resolved: the provider, the tools,
// the rule set (defaults, mode, user, project, flags: last match wins) and the system prompt.
import { dirname, join, relative } from "node:path";
import { afterCall } from "../agent/call-engine.ts";
import type { StreamFn } from "../agent/types.ts";
import { agentLayer, agentTail, offeredTools } from "../agents/rules.ts";
import type { AgentDefinition } from "../agents/types.ts";
import type { ProviderEntry } from "../llm/configured.ts";
import { runProviders } from "./run-providers.ts";
import type { RetryPolicy } from "../llm/retry.ts";
import { tmpdir } from "node:os";
import type { EngineContext } from "../permission/engine.ts";
import type { PermissionRequest, Rule } from "../permission/evaluate.ts";
import { childEnv } from "../permission/child-env.ts";
import type { TmuxSettings } from "../session/tmux-worker.ts";
import { resolveForCheck } from "../permission/paths.ts";
import { BUILTIN_TOOLS } from "../permission/tool-names.ts";
import { foreignPermissionWarnings, type ForeignPermission } from "../permission/known-permissions.ts";
import { DEFAULT_RULES, modeRules, type PermissionMode } from "../permission/modes.ts";
import { builtinTools, sandboxAvailable, warmBuiltinTools } from "../registry/builtin.ts";
import { ToolRegistry, type LoadError, type ToolDir } from "../registry/registry.ts";
import { namesConfiguredServer, type McpSettings } from "../mcp/settings.ts";
import type { PromptCommands } from "../mcp/prompts.ts";
import type { AskPolicy } from "../session/broker.ts";
import { boundOutput } from "../session/bound-output.ts";
import { withFallback } from "../session/fallback-stream.ts";
import { loadInstructions, type InstructionSources, type LoadedInstructions } from "../memory/instructions.ts";
import { folderInstructions } from "../memory/folder-instructions.ts";
import { sessionMemory } from "../memory/session-memory.ts";
import type { FileAccess, Tool } from "../sdk.ts";
import { systemPrompt } from "../session/system-prompt.ts";
import { dontAskPolicy, inlineServerNames, mainAgentMemory, mainAgentRun } from "../session/agent-fields.ts";
import type { LspServerConfig } from "../lsp/session.ts";
/** the shared task list's tools, deferred (one line behind load_tools) unless the agent lists them */
const TEAM_TOOLS = ["team_create", "team_delete", "task_create", "task_update", "task_list"];

export { lspConfigs } from "../lsp/config.ts";
import { serverSearchTool, websearchTool, type WebSearchSettings } from "../registry/builtin.ts";
import { searchStandIn, withServerSearch } from "../session/server-search.ts";
export { instructionWarnings, loadInstructions, INSTRUCTION_CAP_BYTES } from "../memory/instructions.ts";
import type { SessionSkills, SkillPlaces } from "../session/skills.ts";
import { runSessionSkills } from "../session/run-skills.ts";
import type { ActivePlugins } from "../plugins/active.ts";
import { maskSource } from "../session/sandbox-masks.ts";
import { memberInbox, mayStartTasks, withSubagents } from "../session/subagents.ts";
import type { SessionOptions, SessionSandbox } from "../session/session.ts";
import type { SessionHookSettings } from "../session/session-hooks.ts";
export { hookDepthStop, loadHooks } from "../session/session-hooks.ts";
import type { Store } from "../session/store.ts";

export type RunSettings = {
  cwd: string;
  projectRoot: string;
  model: string;
  /** the Anthropic key and URL (config `apiKey`/`baseURL`, ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL) */
  apiKey?: string;
  baseURL?: string;
  /** the config files' `providers` entries, user first */
  providers?: readonly ProviderEntry[];
  maxTurns: number;
  /** USD per run; see LoopConfig.maxCost */
  maxCost?: number;
  maxTokens?: number;
  permissionMode: PermissionMode;
  /** `tail`: rules that hold over every allow before them (Claude Code's asks and denies; see config/load.ts) */
  rules: { user: Rule[]; project: Rule[]; flags: Rule[]; tail?: Rule[] };
  /** folders outside the project that count as the workspace (no external_directory question) */
  directories?: readonly string[];
  /** variables a settings file sets for the processes tools start (Claude Code's `env`) */
  settingsEnv?: Readonly<Record<string, string>>;
  outputDir: string;
  /** rein's data folder: the memory folders are under it (no memory without it) */
  dataDir?: string;
  userInstructions: string;
  /** bytes kept of each instruction file (default INSTRUCTION_CAP_BYTES) */
  instructionMaxBytes?: number;
  /** the instruction files, when the front end read them already (to show their warnings first) */
  instructions?: LoadedInstructions;
  /** folders of user and project tools, loaded and reloaded by the registry */
  toolDirs: ToolDir[];
  /** the user's home, and rein's own folders whose secrets no tool may touch */
  home: string;
  reinDirs: string[];
  /** the workspace is trusted (--trust, or remembered): its instruction files may import from outside it, and they do not taint the session */
  trusted?: boolean;
  version: string;
  askPolicy?: AskPolicy;
  /** rules' permissions that are none of rein's, and where to say so when no loaded tool has them either */
  foreignPermissions?: readonly ForeignPermission[];
  warn?: (message: string) => void;
  /** the kernel sandbox for commands a person or a rule allowed (read-only ones get theirs wherever it works) */
  sandbox: Pick<SessionSandbox, "mode" | "network">;
  /** the environment tools' processes are made from (rein's own; provider keys are read from it too), and the credential-looking names let through */
  env: Readonly<Record<string, string | undefined>>;
  envPassthrough: readonly string[];
  retry?: Partial<RetryPolicy>;
  idleTimeoutMs?: number;
  /** how long a run waits for another process's run on the same session (REIN_LEASE_WAIT_MS) */
  leaseWaitMs?: number;
  stream?: StreamFn;
  /** the configured MCP servers (connected in the background when the session is made) */
  mcp?: McpSettings;
  /** the hooks sessions of this run run */
  hooks?: SessionHookSettings;
  /** the agents this workspace has, the one the session runs as, and how many subagents run at once */
  agents?: { list: readonly AgentDefinition[]; name?: string; cap?: number; workers?: number; tmux?: true };
  /** where skills and commands are found: the user config folder, and whether project ones may load (absent: none) */
  skills?: { configDir: string; trusted: boolean; builtins?: readonly string[]; plugins?: ActivePlugins; commands?: SkillPlaces["commands"] };
  /** more instruction files (OpenCode's `instructions`) */
  extraInstructions?: readonly { path: string; scope: "user" | "project" }[];
  /** Claude Code's --fallback-model: a turn its model cannot serve (overloaded) is tried on this one */
  fallbackModel?: string;
  /** Claude Code's --tools: only these built-in tools are offered (others' tools stay) */
  offeredOnly?: readonly string[];
  /** Claude Code's --system-prompt (replaces rein's own) and --append-system-prompt */
  systemPrompt?: { replace?: string; append?: string };
  /** where read, write and edit get and put file text (an ACP editor's buffers); the disk when absent */
  fileAccess?: FileAccess;
  /** the language servers configured (started with the first file of their languages), and their logs' folder */
  lsp?: { configs: readonly LspServerConfig[]; logDir: string; waitMs?: number };
  /** the websearch tool's backend (config `webSearch`); no websearch tool without it */
  webSearch?: WebSearchSettings;
};

/** What the model reads of one tool result, in characters: 15% of the window's characters, within 10k-60k. */
export function outputBound(contextWindowTokens: number): number {
  return Math.round(Math.min(60_000, Math.max(10_000, contextWindowTokens * 0.15)));
}

/** The engine's modules (tables of commands, paths and patterns: ~4 ms), loaded by the first tool call. */
const loadEngine = () => import("../permission/engine.ts");

/** The permission engine for a run: shell lines and paths expanded into what the rules see. */
export function permissionEngine(settings: Pick<RunSettings, "projectRoot" | "home" | "reinDirs" | "directories"> & Partial<Pick<RunSettings, "sandbox">>) {
  const contexts = new Map<string, EngineContext>();
  return async (requests: PermissionRequest[], cwd: string): Promise<PermissionRequest[]> => {
    const { engineContext, expandRequests } = await loadEngine();
    let ctx = contexts.get(cwd);
    if (!ctx) {
      const sandboxed = (settings.sandbox?.mode ?? "off") !== "off" && sandboxAvailable().ok;
      ctx = engineContext({ cwd, projectRoot: settings.projectRoot, home: settings.home, reinDirs: settings.reinDirs, tmp: tmpdir(), sandboxed });
      const extra = (settings.directories ?? []).map((dir) => resolveForCheck(dir, "/", settings.home));
      if (extra.length) ctx = { ...ctx, openDirs: [...ctx.openDirs, ...extra] };
      contexts.set(cwd, ctx);
    }
    return (await expandRequests(requests, ctx)).requests;
  };
}

/** The registry's tools; the first time they load, the rules naming a permission that neither rein nor they have are reported. */
function toolsCheckingRules(registry: ToolRegistry, settings: Pick<RunSettings, "foreignPermissions" | "warn" | "mcp" | "agents">) {
  // An agent's own servers (inline `mcpServers`) count: their tools load when that agent runs.
  const servers = [...(settings.mcp?.servers ?? []), ...inlineServerNames(settings.agents?.list ?? []).map((name) => ({ name }))];
  const foreign = settings.foreignPermissions?.filter((f) => !namesConfiguredServer(f.permission, servers));
  let pending = settings.warn && foreign?.length ? foreign : undefined;
  return async () => {
    const tools = await registry.tools();
    if (pending) {
      for (const warning of foreignPermissionWarnings(pending, tools.map((t) => t.name))) settings.warn!(warning);
      pending = undefined;
    }
    return tools;
  };
}

/**
 * A session's rules and sandbox in another permission mode, as sessionOptions would make them (the
 * terminal's Shift-Tab). Auto mode's sandbox is on wherever it works, whatever the run began with.
 */
export function permissionsInMode(settings: RunSettings, mode: PermissionMode, agentName?: string): { rules: Rule[]; sandbox: SessionOptions["sandbox"] } {
  const agent = agentName ? settings.agents?.list.find((a) => a.name === agentName) : undefined;
  const memory = settings.dataDir ? sessionMemory(settings.dataDir, settings.projectRoot, settings.warn) : undefined;
  const masked = maskSource({ home: settings.home, reinDirs: settings.reinDirs, workspace: settings.projectRoot });
  const sandboxMode = mode === "auto" && settings.sandbox.mode === "off" ? "auto" : settings.sandbox.mode;
  return { rules: ruleSet(mode, settings.rules, agent, memory?.rules), sandbox: { ...settings.sandbox, mode: sandboxMode, masked } };
}

/**
 * With an agent, its rules take the place of the mode's (see agents/rules.ts), and its standing
 * denies come last. `extraDefaults` go with the built-in defaults (after them, before the mode's).
 * The defaults come as they are (each says "built-in default"): a session's start copies no rule of them.
 */
export function ruleSet(mode: PermissionMode, rules: RunSettings["rules"], agent?: AgentDefinition, extraDefaults: readonly Rule[] = []): Rule[] {
  const from = (source: string, list: readonly Rule[]) => sourced(list, source);
  const agentMode = agent?.permissionMode ? [] : from(`permission mode ${mode}`, modeRules(mode));
  return [
    ...DEFAULT_RULES,
    // Starting a subagent asks nothing: what the subagent does asks for itself (agents/rules.ts).
    TASK_ALLOW,
    ...extraDefaults,
    ...(agent ? [...agentMode, ...agentLayer(agent)] : from(`permission mode ${mode}`, modeRules(mode))),
    ...from("user config", rules.user),
    ...from("project config", rules.project),
    ...from("command line", rules.flags),
    ...from("Claude Code settings", rules.tail ?? []),
    ...(agent ? agentTail(agent) : []),
  ];
}

const TASK_ALLOW: Rule = { permission: "task", pattern: "*", action: "allow", source: "built-in default" };

/** `list` with `source` on each rule that does not say where it came from (a plain loop: a list can hold hundreds). */
function sourced(list: readonly Rule[], source: string): Rule[] {
  const out: Rule[] = [];
  for (const rule of list) out.push(rule.source ? rule : { ...rule, source });
  return out;
}

export type { LoadError, ToolDir, ToolRegistry };
export { sandboxAvailable, stopBackground } from "../registry/builtin.ts";

/** The registry of a run: the built-ins plus the tool folders; `onErrors` hears of files that fail to load. */
export function toolRegistry(dirs: ToolDir[], onErrors?: (errors: readonly LoadError[]) => void): ToolRegistry {
  return new ToolRegistry(builtinTools(), dirs, onErrors);
}

/** Where a run's instructions come from; `instructionWarnings` of it names the files that were cut. */
export function instructionSources(
  settings: Pick<RunSettings, "projectRoot" | "userInstructions" | "cwd" | "instructionMaxBytes"> & Partial<Pick<RunSettings, "home" | "reinDirs" | "trusted" | "extraInstructions">>,
): InstructionSources {
  const { projectRoot, userInstructions, cwd, instructionMaxBytes, home, reinDirs, trusted, extraInstructions } = settings;
  return {
    ...(extraInstructions?.length ? { extra: extraInstructions } : {}),
    projectRoot,
    userInstructions,
    cwd,
    ...(instructionMaxBytes ? { maxBytes: instructionMaxBytes } : {}),
    ...(home ? { home } : {}),
    ...(reinDirs ? { reinDirs } : {}),
    ...(trusted ? { trusted } : {}),
  };
}

export function sessionOptions(settings: RunSettings, store: Store, registry = toolRegistry(settings.toolDirs)): SessionOptions {
  const chosen = settings.agents?.name ? settings.agents.list.find((a) => a.name === settings.agents!.name) : undefined;
  const memory = chosen ? mainAgentMemory(chosen, { home: settings.home, projectRoot: settings.projectRoot }) : undefined;
  const agent = memory?.agent ?? chosen;
  // The main agent's hooks and inline MCP servers join the run's. Its effort is not sent: Claude Code
  // 2.1.332 sends a main agent's none (recorded: test/fixtures/claude-code/agent-fields), only a subagent's.
  const run = agent?.hooks || agent?.mcpServers ? { ...settings, ...mainAgentRun(agent, settings) } : settings;
  const base = baseSessionOptions(run, store, registry, agent);
  // permissionMode dontAsk: unless the run says how asks are answered (print mode's --on-ask), they are refused.
  if (agent?.dontAsk && !base.askPolicy) base.askPolicy = dontAskPolicy(agent.name);
  const options = memory ? memory.apply(base) : base;
  // --tools without Task/Agent: no task tool either.
  const tasks = !settings.offeredOnly || settings.offeredOnly.includes("task");
  return settings.agents && tasks ? withAgent(options, settings, agent) : options;
}

function baseSessionOptions(settings: RunSettings, store: Store, registry: ToolRegistry, agent: AgentDefinition | undefined): SessionOptions {
  const setup = runProviders(settings);
  if (typeof setup === "string") throw new Error(setup);
  const memory = settings.dataDir ? sessionMemory(settings.dataDir, settings.projectRoot, settings.warn) : undefined;
  const rules = ruleSet(settings.permissionMode, settings.rules, agent, memory?.rules);
  const registryTools = toolsCheckingRules(registry, settings);
  const info = setup.models.info(settings.model);
  if (!settings.stream) setup.prepare(settings.model);
  const fallback = settings.fallbackModel ? setup.models.resolve?.(settings.fallbackModel, settings.model) ?? settings.fallbackModel : undefined;
  const plainStream = withFallback(settings.stream ?? setup.stream, fallback);
  // Anthropic's own search: offered unless a rule or the agent keeps websearch from the model.
  const stream = settings.webSearch?.server ? withServerSearch(plainStream, serverSearchTool(settings.webSearch), () => offeredTools([searchStandIn], agent, rules).length > 0) : plainStream;
  const toolEnv = { ...childEnv(settings.env, { passthrough: settings.envPassthrough, secrets: setup.keyNames }), ...settings.settingsEnv };
  const masked = maskSource({ home: settings.home, reinDirs: settings.reinDirs, workspace: settings.projectRoot });
  // A stdio server under the sandbox cannot read what a read-only command cannot (credentials, the workspace's .env files).
  const mcpSandbox = { ...settings.sandbox, masked: () => masked(true) };
  // MCP and the language servers load only when configured (require: this is synchronous, and the
  // bundle keeps their modules unevaluated until then).
  const mcp = settings.mcp?.servers.length ? mcpModule().attachMcp(registry, settings.mcp, { toolEnv, cwd: settings.cwd, version: settings.version, sandbox: mcpSandbox, ...(settings.warn ? { warn: settings.warn } : {}) }) : undefined;
  const skills = runSkills(settings, info.contextWindow, (model) => setup.models.problem?.(model), mcp?.prompts);
  const sources = instructionSources(settings);
  const instructions = settings.instructions ?? loadInstructions(sources);
  const lsp = settings.lsp?.configs.length
    ? lspModule().lspSession({ configs: settings.lsp.configs, root: settings.projectRoot, cwd: settings.cwd, env: toolEnv, logDir: settings.lsp.logDir, sandbox: mcpSandbox, ...(settings.lsp.waitMs ? { waitMs: settings.lsp.waitMs } : {}) })
    : undefined;
  const web = settings.webSearch;
  const search = web?.url && !web.server ? websearchTool({ ...web, url: web.url }) : undefined;
  const tools = withTool(withTool(withTool(registryTools, memory?.tool), lsp?.tool), search);
  return {
    store,
    stream,
    models: setup.models,
    model: settings.model,
    system: [settings.systemPrompt?.replace ?? systemPrompt(sources, memory?.prompt, instructions), agent?.prompt, skills?.catalog, settings.systemPrompt?.append].filter(Boolean).join("\n\n"),
    // A subagent gets rein's prompt and the instructions, not the lead's agent prompt (a worker of the coordinator is no coordinator).
    ...(agent?.prompt ? { childSystem: [settings.systemPrompt?.replace ?? systemPrompt(sources, memory?.prompt, instructions), skills?.catalog, settings.systemPrompt?.append].filter(Boolean).join("\n\n") } : {}),
    // An agent file's `omitClaudeMd`: its subagents' prompt without the instruction files.
    childSystemBare: () => [settings.systemPrompt?.replace ?? systemPrompt(sources, memory?.prompt, { ...instructions, files: [] }), skills?.catalog, settings.systemPrompt?.append].filter(Boolean).join("\n\n"),
    tools: async () => onlyOffered(offeredTools([...(await tools()), ...(skills?.tool ? [skills.tool] : [])], agent, rules), settings.offeredOnly),
    // Rarely needed: sent once the model loads them; memory too while there is no memory index to read.
    // task is offered up front (a model should not need a turn to delegate); the team's other tools wait.
    // An agent that names a tool in its list (the coordinator its team tools) gets it up front.
    deferredTools: ["list", "history", "webfetch", "lsp", "websearch", "send_message", "task_stop", "task_output", ...TEAM_TOOLS, ...(memory?.prompt.length ? [] : ["memory"])].filter((name) => !agent?.tools?.includes(name)),
    rules,
    ...(agent ? { agent: agent.name } : {}),
    expand: permissionEngine(settings),
    // The shell parser takes tens of milliseconds to load, the built-in tools' modules a few (in the
    // compiled binary): load them while the model writes its first tool call.
    warmUp: () => {
      warmBuiltinTools();
      void loadEngine().then((engine) => engine.warmUpShellAnalysis(), () => {});
    },
    maxTurns: settings.maxTurns,
    ...(settings.maxCost !== undefined ? { maxCost: settings.maxCost } : {}),
    maxTokens: settings.maxTokens ?? Math.min(info.maxOutput, 32_000),
    bound: (sessionId) => boundOutput(settings.outputDir, sessionId, outputBound(info.contextWindow)),
    outputDir: settings.outputDir,
    checkpoints: { dir: join(dirname(settings.outputDir), "checkpoints") },
    version: settings.version,
    ...(settings.askPolicy ? { askPolicy: settings.askPolicy } : {}),
    ...(settings.leaseWaitMs !== undefined ? { lease: { waitMs: settings.leaseWaitMs } } : {}),
    toolEnv,
    ...(settings.hooks ? { hooks: settings.hooks } : {}),
    callHandlers: [...(lsp ? [afterCall(lsp.afterToolCall)] : []), afterCall(folderInstructions(sources, instructions))], // outermost first: the language servers hear a call after its folder instructions
    sandbox: { ...settings.sandbox, masked },
    ...(skills ? { skills } : {}),
    places: { home: settings.home, projectRoot: settings.projectRoot },
    ...(settings.fileAccess ? { fileAccess: settings.fileAccess } : {}),
    ...(mcp ? { mcp } : {}),
    // A subagent's own servers (its agent file's inline `mcpServers`), started for its run only.
    ...(settings.mcp ? { agentServers: agentServerStarter(settings.mcp, { toolEnv, version: settings.version, sandbox: mcpSandbox, env: settings.env, ...(settings.warn ? { warn: settings.warn } : {}) }) } : {}),
    ...(lsp ? { lsp } : {}),
    taint: taintSettings(settings, instructions),
  };
}

const mcpModule = () => require("../mcp/session.ts") as typeof import("../mcp/session.ts");

/** Starts an agent's own servers; MCP's modules load with the first agent that has some. */
function agentServerStarter(mcp: McpSettings, run: Omit<import("../mcp/session.ts").RunPart, "cwd"> & { env: RunSettings["env"] }): NonNullable<SessionOptions["agentServers"]> {
  return (servers, where) => mcpModule().startAgentServers(servers, where, mcp, { ...run, cwd: where.cwd });
}
const lspModule = () => require("../lsp/session.ts") as typeof import("../lsp/session.ts");

/** Where results come from, for the taint rules: the workspace, home, rein's folders, the MCP servers marked trusted. */
function taintSettings(settings: RunSettings, instructions: LoadedInstructions): NonNullable<SessionOptions["taint"]> {
  const trusted = new Set((settings.mcp?.servers ?? []).filter((s) => (s.entry as { trusted?: boolean } | undefined)?.trusted === true).flatMap((s) => [s.name, s.name.replace(/[^A-Za-z0-9_-]/g, "_")]));
  const initial =
    settings.trusted === false
      ? instructions.files.filter((f) => f.scope === "project").map((f) => ({ kind: "untrusted-repo" as const, source: `${relative(settings.projectRoot, f.path) || f.path} (instructions of this untrusted workspace)`, turn: 0 }))
      : [];
  return { ctx: { cwd: settings.cwd, workspace: settings.projectRoot, home: settings.home, reinDirs: settings.reinDirs, trustedMcp: (name) => trusted.has(name) }, initial };
}

/** The task tool, when the session's agent may start subagents (see subagents.ts). */
function withAgent(options: SessionOptions, settings: RunSettings, agent: AgentDefinition | undefined): SessionOptions {
  const agents = settings.agents!;
  // A worker's own rein (a tmux pane) of an agent that starts no tasks still reads its mail.
  if (agent && !mayStartTasks(agent)) return { ...options, inbox: (id) => memberInbox(options.store, id) };
  return withSubagents(options, { agents: agents.list, ...(agents.cap ? { cap: agents.cap } : {}), ...(agents.workers ? { workers: agents.workers } : {}), ...(agents.tmux ? { tmux: tmuxWorkers(settings) } : {}) });
}
/** `"teammateMode": "tmux"`: how a worker's pane runs rein (this binary, or bun and its entry script), with rein's environment. */
function tmuxWorkers(settings: RunSettings): TmuxSettings {
  const command = Bun.isStandaloneExecutable ? [process.execPath] : [process.execPath, Bun.main];
  return { command, env: settings.env, ...(settings.trusted ? { trusted: true } : {}), ...(settings.warn ? { say: settings.warn } : {}) };
}

export { loadAgents } from "./load-agents.ts";
export { initialTurn } from "../agents/claude-fields.ts";
export { DEFAULT_AGENT } from "../agents/builtin.ts";
export type { ProviderListing } from "../llm/model-list.ts";
export { budgetWarning, modelFor, providerListing, runProblem, runProviders } from "./run-providers.ts";

/** The run's skills and commands, when the settings say where to look. */
function runSkills(settings: RunSettings, contextWindow: number, modelProblem: (model: string) => string | undefined, prompts?: PromptCommands): SessionSkills | undefined {
  if (!settings.skills) return undefined;
  const { configDir, trusted, builtins, plugins } = settings.skills;
  const subagents = (settings.agents?.list ?? []).filter((a) => a.mode !== "primary").map((a) => a.name);
  const commands = settings.skills.commands;
  const places = { cwd: settings.cwd, projectRoot: settings.projectRoot, home: settings.home, configDir, trusted, ...(commands?.length ? { commands } : {}) };
  return runSessionSkills(places, contextWindow, { modelProblem, ...(builtins ? { builtins } : {}), ...(plugins ? { plugins } : {}), ...(prompts ? { prompts } : {}), subagents, ...(settings.agents?.name ? { primary: settings.agents.name } : {}) });
}

function withTool(tools: () => Promise<Tool[]>, tool: Tool | undefined): () => Promise<Tool[]> {
  if (!tool) return tools;
  return async () => {
    const list = await tools();
    return list.some((t) => t.name === tool.name) ? list : [...list, tool];
  };
}

/** rein's own tools beside Claude Code's (not in the name table): built in too, so --tools hides them as well. */
const OWN_TOOLS = ["memory", "skill"];

/** --tools: the built-in tools not named are not offered; tools of other sources (MCP, files) are. */
function onlyOffered(tools: Tool[], only: readonly string[] | undefined): Tool[] {
  if (!only) return tools;
  // Claude Code's `Skill` is rein's `skill`: the name table does not hold rein's own tools
  const named = new Set(only.map((name) => name.toLowerCase()));
  return tools.filter((tool) => named.has(tool.name.toLowerCase()) || !(BUILTIN_TOOLS.includes(tool.name) || OWN_TOOLS.includes(tool.name)));
}
