// The loop's vocabulary: messages as the provider sees them, the event union every front end reads,
// and the injected I/O the loop runs on. Nothing here touches the file system, the terminal or Bun.
import type { FileAccess, FileMemory, PermissionRequest, SandboxPolicy, SessionHistory, Tool } from "../sdk.ts";
import type { CallHandler } from "./call-engine.ts";
import type { Estimated } from "./context-size.ts";

export type TextBlock = { type: "text"; text: string };
export type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: unknown };
export type ImageBlock = { type: "image"; source: { type: "base64"; media_type: string; data: string } };
export type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: string | (TextBlock | ImageBlock)[];
  is_error?: boolean;
};
/** Blocks the loop does not interpret (thinking, redacted_thinking...) are kept and sent back as they came. */
export type OpaqueBlock = { type: string; [key: string]: unknown };
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | OpaqueBlock;

/** The text blocks of a content list, joined by `separator`. */
export function textOf(content: readonly ContentBlock[], separator = ""): string {
  return content
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join(separator);
}

export type Message = { role: "user" | "assistant"; content: ContentBlock[] };

export type Usage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

export const emptyUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
  };
}

/** `stopped`: a handler of the call chain stopped the whole run (a hook's `continue: false`) */
export type ResultStatus = "success" | "error" | "max_turns" | "permission" | "interrupted" | "stopped";

/** Events as the loop and the session produce them; the session stamps session_id and seq. */
export type AgentEvent =
  /** `agent`: the agent the session runs as, when one was chosen (--agent, config, a subagent) */
  | { type: "session"; id: string; cwd: string; model: string; version: string; agent?: string }
  | { type: "user"; text: string; /** the prompt as written, when a command or skill expanded it */ typed?: string }
  | { type: "text_delta"; text: string }
  /**
   * `cost_usd` is this turn's price, null when the model's prices are unknown. The loop always sets
   * it; it is optional because events stored by earlier versions do not have it.
   */
  | { type: "assistant"; content: ContentBlock[]; stop_reason: string | null; usage: Usage; cost_usd?: number | null; model: string }
  | { type: "tool_start"; id: string; name: string; input: unknown }
  | { type: "tool_output"; id: string; chunk: string }
  | {
      type: "tool_end";
      id: string;
      name: string;
      is_error: boolean;
      output: string;
      truncated: boolean;
      /** what the tool returned for front ends (e.g. the todo list), never sent to the model */
      metadata?: Record<string, unknown>;
      /** a permission (a deny rule, a person, the mode, --on-ask) or a PreToolUse hook refused the call: it did not run */
      refused?: boolean;
      /** where the result came from: workspace, outside, web, mcp or untrusted-repo, and what (a URL, a server, a path) */
      provenance?: { kind: string; source: string };
    }
  /** content that can steer the model entered the conversation: from now on, calls that could send data out or plant code ask (docs/permissions.md) */
  | { type: "taint"; kind: string; source: string; turn: number }
  /** a person read that content and trusts it: it no longer taints the session */
  | { type: "taint_cleared"; source: string }
  /** `tainted`: why a tainted session asks whatever the rules allow; `taint_sources`: the content that tainted it, which a person may trust */
  | { type: "permission_ask"; id: string; tool_use_id: string; tool: string; requests: PermissionRequest[]; reason?: string; tainted?: string; taint_sources?: string[] }
  | { type: "permission_reply"; id: string; reply: PermissionReply; message?: string }
  | { type: "retry"; attempt: number; delay_ms: number; reason: string }
  /**
   * The conversation sent to the model was compacted (the store keeps the full history). The view
   * is rebuilt from the full history with `summary` (when not null: the first message, from the
   * user), then the messages from `first_kept` on, with the tool results of `pruned` (indexes into
   * the full history) replaced by a marker.
   */
  | {
      type: "compaction";
      /** the summary (or, for "cut", the note with the instructions kept); "" for "prune" */
      summary: string;
      method: CompactionMethod;
      tokens_before: number;
      tokens_after: number;
      /** index in the full history of the first message kept verbatim */
      first_kept: number;
      /** null when no summary message leads the compacted view */
      head: string | null;
      pruned: number[];
      /** the summary call's usage, when one was made */
      usage?: Usage;
      /** that call's price, with `usage` (null when the model's prices are unknown; absent in events stored before it existed) */
      cost_usd?: number | null;
      /**
       * true when no run holds this compaction (the terminal's /compact): no `result` includes its
       * usage and cost, so the session's totals add them on their own; false (or absent, in events
       * stored before it existed) when the result of the run it happened in includes them
       */
      outside_run?: boolean;
    }
  /** the session was named by the hidden title call after its first turn (session/title.ts), with that call's usage and price */
  | { type: "title"; title: string; usage?: Usage; cost_usd?: number | null }
  /** `status`: the HTTP status of a failed API call */
  | { type: "error"; message: string; code?: string; status?: number }
  /** an MCP server the session cannot use: it failed to start (`error` says why), needs a login, or was still connecting when the first turn began */
  | { type: "mcp_server"; name: string; state: "failed" | "needs login" | "connecting"; error: string }
  /**
   * a background worker of this session ended (session/team.ts): `task_id` is its session, `status`
   * completed, failed or killed; the `<task-notification>` for the model goes to the mailbox
   */
  | {
      type: "task_notification";
      task_id: string;
      tool_use_id: string;
      status: "completed" | "failed" | "killed";
      summary: string;
      name?: string;
      usage: Usage;
      cost_usd: number | null;
      duration_ms: number;
    }
  /** a hook began running (`event` is the hook event, `source` the file it was defined in; `async`: in the background, deciding nothing) */
  | { type: "hook_start"; id: string; event: string; source: string; handler: string; tool_use_id?: string; async?: true }
  /**
   * a hook ended: `decision` is deny, ask, allow, block, context, error or none; `output` the start
   * of what it printed; `error` why it decided nothing (a bad exit, a timeout, unreadable JSON)
   */
  | {
      type: "hook_end";
      id: string;
      event: string;
      source: string;
      handler: string;
      async?: true;
      decision: string;
      duration_ms: number;
      output: string;
      error?: string;
      tool_use_id?: string;
    }
  /**
   * a turn that changed the workspace is over: checkpoint `n` holds the workspace as it was before;
   * `changed` what the turn changed, `uncovered` files left out (too big), `side_effects` what an
   * undo cannot take back, `incomplete` why the checkpoint is not whole
   */
  | {
      type: "checkpoint";
      n: number;
      changed: { status: string; path: string; from?: string }[];
      uncovered: string[];
      side_effects: string[];
      incomplete?: string;
    }
  /**
   * an undo (or, with `redo`, a redo) of the last turns, outside any run: `files` put back, and
   * `messages` taken out of (or put back into) the conversation
   */
  | { type: "undo"; redo: boolean; files: string[]; messages: number; side_effects: string[] }
  | {
      type: "result";
      status: ResultStatus;
      text: string;
      usage: Usage;
      /** this run's cost; null when the model's prices are unknown (never a made-up 0) */
      cost_usd: number | null;
      turns: number;
      duration_ms: number;
      error?: string;
      /** the model the run ended on (`provider/model`, or a bare Anthropic name); absent in events stored before it existed */
      model?: string;
      /** the time spent waiting on the model's API, ms (absent in events stored before it existed) */
      duration_api_ms?: number;
      /** a hook from Claude Code's files ended the run (`continue: false`, a UserPromptSubmit block): status success, as Claude Code ends it */
      hook_stop?: { event: string; reason: string };
    };

export type CompactionMethod = "prune" | "summary" | "cut";

/** `parent_tool_use_id`: a subagent's event forwarded on its parent's stream (session_id and seq are the child's) */
export type EventEnvelope = { session_id: string; seq: number; parent_tool_use_id?: string };
export type StampedEvent = AgentEvent & EventEnvelope;
export type EventOf<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

export type PermissionReply = "once" | "always" | "reject";

/** What a provider stream yields. A failure is the last item, never a throw. */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  /** the reply began a tool call (its input is still streaming) */
  | { type: "tool_use_start"; name: string }
  | { type: "retry"; attempt: number; delay_ms: number; reason: string }
  | {
      type: "done";
      content: ContentBlock[];
      stop_reason: string | null;
      usage: Usage;
      /** ids of tool_use blocks whose input was cut off (the reply hit the output limit mid-call) */
      incomplete_tool_ids: string[];
      /** tool_use blocks whose input could not be read (not JSON, or the stream left it unfinished), with why, for the model */
      invalid_tool_inputs?: { id: string; error: string }[];
    }
  | { type: "error"; message: string; status?: number; code: ProviderErrorCode };

export type ProviderErrorCode =
  | "auth"
  | "bad_request"
  | "rate_limited"
  | "overloaded"
  | "server"
  | "connection"
  /** the request is over the model's context window */
  | "too_long"
  | "aborted"
  | "unknown";

export type ModelRequest = {
  model: string;
  system: string;
  messages: Message[];
  tools: { name: string; description: string; input_schema: Record<string, unknown> }[];
  max_tokens: number;
  /** tools the provider runs itself (Anthropic's web search), sent after `tools`; a provider without them ignores them */
  serverTools?: Record<string, unknown>[];
  /** the reasoning effort asked (an agent file's `effort`); the router sends it only to a model that takes it (llm/models.ts effortFor) */
  effort?: "low" | "medium" | "high" | "xhigh" | "max";
};

export type StreamFn = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ProviderEvent>;

/** The permission decision for one tool call, made outside the loop (rules, asks, approvals). */
export type Authorization =
  /** `readOnly`: allowed only because the analysis found the call read-only (no person, no configured rule allowed it) */
  | { allow: true; readOnly?: boolean }
  | { allow: false; message: string; stop?: boolean };

export type AuthorizeInput = {
  toolUseId: string;
  tool: string;
  input: unknown;
  requests: PermissionRequest[];
  /** set when the loop itself wants a person to confirm (the same call repeated) */
  reason?: string;
  /** a PreToolUse hook from Claude Code's files allowed it: it answers an ask, never a deny or a sensitive path's fixed ask */
  hookAllow?: boolean;
};

export type LoopIO = {
  stream: StreamFn;
  authorize: (call: AuthorizeInput) => Promise<Authorization>;
  emit: (event: AgentEvent) => void;
  /** Bounds a tool's output for the model; may save the full text elsewhere. */
  bound: (output: string, toolUseId: string) => { output: string; truncated: boolean };
  /** The tools for the next turn: asked before every model turn, so changed tool files are picked up. */
  tools: () => Tool[] | Promise<Tool[]>;
  files: FileMemory;
  /** where read, write and edit get and put a file's text */
  fileAccess: FileAccess;
  /** told when the model begins writing a tool call, to start work the call will need */
  prepare?: (tool: string) => void;
  /** where tools may save full outputs for this session */
  outputDir: string;
  /** the session's full stored history, for the history tool */
  history?: SessionHistory;
  /** the environment tools give the processes they start */
  toolEnv: Readonly<Record<string, string>>;
  /** the sandbox a call's commands run under, given whether only the read-only analysis allowed it */
  sandbox: (readOnly: boolean) => SandboxPolicy;
  /** the price of a turn's usage in USD, or null when the model's prices are unknown */
  costOf: (usage: Usage) => number | null;
  /**
   * Makes the conversation smaller (the loop calls it when a request would go over the window, or
   * the provider said it did): returns the view to send from now on, or undefined when it could not.
   */
  compact?: (input: CompactInput, signal: AbortSignal) => Promise<Compacted | undefined>;
  /**
   * The list a tool call runs through (call-engine.ts: validate, hooks, permission, checkpoint, run,
   * ...), outermost first; absent: the engine's own steps (call-steps.ts)
   */
  handlers?: readonly CallHandler[];
  /** what the loop asks about the run: its stop checks, and whether a hook halted it */
  chain?: RunChain;
  /**
   * What came for the session meanwhile (a worker's `<task-notification>`, a team message), taken
   * once at each turn boundary and added after the turn's tool results; absent: nothing comes
   */
  inbox?: () => TextBlock[];
};

/**
 * What the loop asks of its owner about the run as a whole (the calls have their own list of
 * handlers, `LoopIO.handlers`). The loop does not know who answers (hooks, a schema check, an SDK
 * caller); each may take its time and should heed `signal`.
 */
export type RunChain = {
  /**
   * The model finished with `text` and the run would end: asked in turn, the first string continues
   * the run with it as the next user message (one that throws is passed over). `continued` counts
   * the continuations so far in this run; after STOP_CONTINUE_LIMIT in a row the loop stops without asking.
   */
  stopChecks?: readonly StopCheck[];
  /**
   * Why the whole run must stop now (a hook answered `continue: false` at any point of it), or
   * undefined. The loop asks after each step and ends the run with status `stopped`.
   */
  halted?: () => string | undefined;
  /** whether the stop `halted` gives ends the run as a success (a hook from Claude Code's files, as Claude Code ends it) */
  haltSucceeds?: () => boolean;
};

export type StopCheck = (stop: { text: string; continued: number }, signal: AbortSignal) => Promise<string | undefined>;

/** `raw` is the input as the model sent it (before the schema dropped what it does not know) */
export type ToolCallInfo = { id: string; name: string; input: unknown; raw?: unknown };
/** `block` is the text the model reads as the call's result; `ask` makes a person confirm, with this reason. */
/** `allow`: a hook from Claude Code's files allowed the call; it answers the ask a rule would make (never a deny or a fixed ask) */
export type BeforeToolCall = { block?: string; ask?: string; allow?: boolean; input?: unknown; context?: string };
export type ToolCallDone = ToolCallInfo & { output: string; isError: boolean; durationMs: number; metadata?: Record<string, unknown> };
export type AfterToolCall = { output?: string; context?: string };

/** The view to send from now on, and what the summary call cost, when one was made. */
export type Compacted = { messages: Message[]; usage?: Usage };

export type CompactInput = {
  messages: readonly Message[];
  /** what the next request was estimated to be, in tokens */
  tokens: number;
  /** the most the compacted view should take, in tokens (system prompt and tools included) */
  target: number;
  /** the tokens the system prompt and the tool schemas take */
  fixed: number;
  reason: "threshold" | "too_long" | "manual";
};

/** One run's spending across the sessions it starts (a parent and its children, running at once): `null` once a price is unknown. */
export type RunSpend = { spent: number | null };

export type LoopConfig = {
  model: string;
  system: string;
  maxTokens: number;
  maxTurns: number;
  /** USD: no model turn starts once this run has spent at least this much (unenforced when the cost is unknown) */
  maxCost?: number;
  /** what the whole run has spent, shared with the children its task calls start: each model call adds its price, and `maxCost` holds for the total */
  spend?: RunSpend;
  cwd: string;
  sessionId: string;
  /** the model's context window in tokens; without it the loop never compacts */
  contextWindow?: number;
  /** the first messages' size, known without walking them (a resumed session's stored size) */
  history?: Estimated;
};
