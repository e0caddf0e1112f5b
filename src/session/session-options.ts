// What a Session is made with (the front ends' factory fills it in), and the few types its parts share.
import type { CallHandler } from "../agent/call-engine.ts";
import type { RunSpend, StampedEvent, StopCheck, StreamFn, TextBlock } from "../agent/types.ts";
import type { HookAgentSource, SubagentSource } from "../agents/host.ts";
import type { CheckpointSettings } from "../checkpoint/turn.ts";
import type { ModelCatalog } from "../llm/models.ts";
import type { LspSession } from "../lsp/session.ts";
import type { AgentServers, SessionMcp } from "../mcp/session.ts";
import type { PermissionRequest, Rule } from "../permission/evaluate.ts";
import type { FileAccess, SandboxPolicy, Tool } from "../sdk.ts";
import type { AskPolicy } from "./broker.ts";
import type { Bound } from "./bound-output.ts";
import type { LeaseOptions } from "./lease.ts";
import type { SessionHookSettings } from "./session-hooks.ts";
import type { SessionSkills } from "./skills.ts";
import type { Store } from "./store.ts";
import type { TaintContext, TaintSource } from "./taint.ts";
import type { Team } from "./team.ts";

export type SessionOptions = {
  store: Store;
  stream: StreamFn;
  model: string;
  system: string;
  /** the system prompt a subagent's agent prompt is added to (absent: `system`): without this session's own agent prompt */
  childSystem?: string;
  /** `childSystem` without the instruction files, for a subagent whose agent says `omitClaudeMd` (absent: it gets `childSystem`) */
  childSystemBare?: () => string;
  /** the tools, or a function asked before every turn (tool files reload between turns) */
  tools: Tool[] | (() => Tool[] | Promise<Tool[]>);
  /** tools whose definitions wait until the model loads them (deferred-tools.ts); callable all along */
  deferredTools?: readonly string[];
  rules: readonly Rule[];
  /** the permission engine: what the rules see of a call's requests, for a session working in `cwd` */
  expand?: (requests: PermissionRequest[], cwd: string) => Promise<PermissionRequest[]>;
  /** started, not awaited, when the model begins its first tool call: work that call would otherwise wait for */
  warmUp?: () => void;
  maxTurns: number;
  /** USD for one prompt's run: no model turn starts once it has spent this much */
  maxCost?: number;
  /** a child's: the spending of the parent's run, which `maxCost` holds for (a top-level run starts its own) */
  spend?: RunSpend;
  maxTokens: number;
  /** the model's context window in tokens; defaults to the model table's (tests pass a small one) */
  contextWindow?: number;
  /** windows and prices of `provider/model` names (the built-in providers' when absent) */
  models?: ModelCatalog;
  bound: (sessionId: string) => Bound;
  /** the data folder's output/: each session's full tool outputs go in a folder named after it */
  outputDir: string;
  askPolicy?: AskPolicy;
  version: string;
  now?: () => number;
  /** how long a run waits for another process's run on the same session, and the lease's life (tests) */
  lease?: Partial<Pick<LeaseOptions, "waitMs" | "ttlMs">>;
  /** told, in one line, when a run starts waiting for another process's run on this session (the terminal shows it) */
  onLeaseWait?: (line: string) => void;
  /** after the first turn, a hidden call names the session (title.ts): the front ends that list sessions (terminal, server, ACP); print mode makes none */
  titleCall?: boolean;
  /** the environment of the processes tools start; by default rein's, with the credentials removed */
  toolEnv?: Readonly<Record<string, string>>;
  /** where read, write and edit get and put a file's text: the disk unless an editor serves it (`rein acp`) */
  fileAccess?: FileAccess;
  /** the session's kernel sandbox; off by default */
  sandbox?: SessionSandbox;
  /** the hooks this session runs (none when absent) */
  hooks?: SessionHookSettings;
  /**
   * rein's own entries in a tool call's list (the language servers' diagnostics, the instruction
   * files of the folder a call touched), outermost first; they hear a call after the hooks do
   */
  callHandlers?: readonly CallHandler[];
  /** a check of the final answer (Claude Code's --json-schema), after the Stop hooks': a string sends the model back with it */
  beforeStop?: StopCheck;
  /** an asyncRewake hook's exit 2 while no run is under way starts a turn (front ends that stay open: the terminal, the server) */
  wakeWhenIdle?: boolean;
  /** the task tool and the child sessions it runs (agents/host.ts) */
  subagents?: SubagentSource;
  /** the subagent an `agent` hook runs (absent: agent hooks cannot run here) */
  hookAgent?: HookAgentSource;
  /** the SessionStart source when this session replaces another (the terminal's /clear) */
  startSource?: "clear";
  /** the agent the session runs as, named by the `session` event */
  agent?: string;
  /** approvals given elsewhere that hold here too (a subagent's parent's), read at each call */
  inherited?: () => readonly Rule[];
  /** skills and commands: `/name args` prompts are expanded, allowed-tools granted for the run */
  skills?: SessionSkills;
  /** the user's home and the project root: where a subagent's memory folder is (agent-fields.ts) */
  places?: { home: string; projectRoot: string };
  /** where the workspace is recorded before a turn changes it (no checkpoints when absent) */
  checkpoints?: CheckpointSettings;
  /** the MCP servers: `@SERVER:URI` in a prompt attaches that resource */
  mcp?: SessionMcp;
  /** starts an agent's own MCP servers (its file's inline `mcpServers`) for a run of it (agent-fields.ts); absent: they do not start */
  agentServers?: (servers: Record<string, unknown>, where: { source: string; project: boolean; cwd: string }) => AgentServers;
  /** the language servers (started with the first file of their languages) */
  lsp?: LspSession;
  /** the process's team of background workers (team.ts), made on first use; absent: the session starts none */
  team?: TeamHolder;
  /** takes what came for session `id` meanwhile (team mail), at each turn boundary */
  inbox?: (id: string) => TextBlock[];
  /** where results come from and what taints the session (taint.ts); no taint tracking without it */
  taint?: { ctx: TaintContext; initial: readonly TaintSource[] };
};

/** The process's team: `current` is undefined until something starts a worker. */
export type TeamHolder = { current: Team | undefined; get: () => Team };

/**
 * The sandbox setting of a session. `masked` is asked at each call, with whether only the read-only
 * analysis allowed it (the paths to hide from it; a credential file may appear meanwhile).
 */
export type SessionSandbox = Pick<SandboxPolicy, "mode" | "network"> & { masked: (readOnly: boolean) => readonly string[] };

export const NO_SANDBOX: SessionSandbox = { mode: "off", network: false, masked: () => [] };

export type ResultEvent = Extract<StampedEvent, { type: "result" }>;
export type Listener = (event: StampedEvent) => void;
