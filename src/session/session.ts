// The Session: the one object every front end drives. It runs the loop, persists every event before
// subscribers see it, keeps the conversation, and brokers permission asks.
import { join } from "node:path";
import compactionPrompt from "../../prompts/compaction.txt" with { type: "text" };
import { COMPACT_TO, fixedTokens, requestTokens, usableWindow, type Estimated } from "../agent/context-size.ts";
import { runLoop, type LoopRun } from "../agent/loop.ts";
import { toolDefinition } from "../agent/tool-schema.ts";
import { toolDeferral, type ToolDeferral } from "./deferred-tools.ts";
import {
  addUsage,
  emptyUsage,
  type AgentEvent,
  type Authorization,
  type AuthorizeInput,
  type CallChain,
  type Compacted,
  type LoopConfig,
  type ContentBlock,
  type CompactInput,
  type EventOf,
  type Message,
  type PermissionReply,
  type ResultStatus,
  type RunSpend,
  type StampedEvent,
  type StreamFn,
  type TextBlock,
  type Usage,
} from "../agent/types.ts";
import type { Team } from "./team.ts";
import { deadWorkerNotes, joinCommand } from "./worker-rows.ts";
import type { HookAgentRun, HookAgentSource, SubagentParent, SubagentSource } from "../agents/host.ts";
import type { ModelCatalog } from "../llm/models.ts";
import { BUILTIN_CATALOG, costFunction } from "../llm/providers.ts";
import type { PermissionRequest, Rule } from "../permission/evaluate.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { childEnv } from "../permission/child-env.ts";
import { resolveForCheck } from "../permission/paths.ts";
import { diskFiles, type FileAccess, type FileMemory, type FileStamp, type SandboxPolicy, type Tool } from "../sdk.ts";
import { PermissionBroker, type Ask, type AskPolicy } from "./broker.ts";
import { resolveTool } from "../agent/lazy-tool.ts";
import { expandInlineCommands, hasInlineCommands, type InlineIO } from "./inline-commands.ts";
import type { Bound } from "./bound-output.ts";
import { compactConversation, WORTH_COMPACTING } from "./compaction.ts";
import { NO_COMPACTION, stateOf, type CompactionState } from "./compacted-view.ts";
import { newId } from "./ids.ts";
import { ifFree, RunLease, type LeaseOptions } from "./lease.ts";
import { withChosenModel } from "./chosen-model.ts";
import { compactManually, type CompactOutcome } from "./manual-compaction.ts";
import { openView } from "./open-view.ts";
import { sendable } from "./sendable.ts";
import { sessionHooks, type SessionHooks, type SessionHookSettings } from "./session-hooks.ts";
import { withAfterCall, withStopCheck } from "./with-after-call.ts";
import { storedHistory } from "./stored-history.ts";
import { TurnCheckpoints, type CheckpointSettings } from "../checkpoint/turn.ts";
import type { SessionRow, Store } from "./store.ts";
import type { SessionSkills } from "./skills.ts";
import type { SessionMcp } from "../mcp/session.ts";
import type { LspSession } from "../lsp/session.ts";
import { SessionTaint, type TaintContext, type TaintSource } from "./taint.ts";
import { mentionedServers } from "../mcp/resources.ts";

export type SessionOptions = {
  store: Store;
  stream: StreamFn;
  model: string;
  system: string;
  /** the system prompt a subagent's agent prompt is added to (absent: `system`): without this session's own agent prompt */
  childSystem?: string;
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
  /** the environment of the processes tools start; by default rein's, with the credentials removed */
  toolEnv?: Readonly<Record<string, string>>;
  /** where read, write and edit get and put a file's text: the disk unless an editor serves it (`rein acp`) */
  fileAccess?: FileAccess;
  /** the session's kernel sandbox; off by default */
  sandbox?: SessionSandbox;
  /** the hooks this session runs (none when absent) */
  hooks?: SessionHookSettings;
  /** rein's own after-call handler (instruction files of the folder a call touched), after the hooks' */
  afterToolCall?: CallChain["afterToolCall"];
  /** a check of the final answer (Claude Code's --json-schema): a string sends the model back with it */
  beforeStop?: CallChain["beforeStop"];
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
  /** where the workspace is recorded before a turn changes it (no checkpoints when absent) */
  checkpoints?: CheckpointSettings;
  /** the MCP servers: `@SERVER:URI` in a prompt attaches that resource */
  mcp?: SessionMcp;
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

const NO_SANDBOX: SessionSandbox = { mode: "off", network: false, masked: () => [] };

export type ResultEvent = Extract<StampedEvent, { type: "result" }>;
export type { CompactOutcome } from "./manual-compaction.ts";
type Listener = (event: StampedEvent) => void;

export class Session {
  private readonly listeners = new Set<Listener>();
  private readonly broker: PermissionBroker;
  private readonly messages: Message[];
  private controller: AbortController | undefined;
  /** a run (a prompt, or print mode's --compact) is under way: its result will hold what it spends */
  private inRun = false;
  private started = false;
  private warmedUp = false;
  /** the seq of the last event this session persisted: a committed message records where it stands */
  private lastSeq = 0;
  private readonly files = fileMemory();
  /** how the full history (kept whole in the store) is turned into what the model is sent */
  private compaction: CompactionState;
  /** a resumed history's size from its stored text: spares the first turn walking 10,000 messages */
  private storedSize: Estimated | undefined;
  /** held for the length of a run: no other process drives this session meanwhile */
  private readonly lease: RunLease;
  /** the view was opened while another process held the session: it is read again at the next run */
  private stale = false;
  /** why the store could not save what this run did; the run ends as an error */
  private saveError: string | undefined;
  /** what the model calls of the run under way used, as their events said (for a run that ends by a throw) */
  private runUsage = emptyUsage();
  private readonly hooks: SessionHooks | undefined;
  private hooksStarted = false;
  /** what this run's subagents spent (their results roll up into this run's) */
  private childSpend: { usage: Usage; cost: number | null } = { usage: emptyUsage(), cost: 0 };
  /** a child's hook stopped the whole run (`continue: false` in a subagent): why */
  private childStop: string | undefined;
  /** the run under way's spending, shared with its children */
  private runSpend: RunSpend = { spent: 0 };
  /** told when mail (a worker's notification, a message) comes while no run is under way (front ends start one) */
  private readonly wakeListeners = new Set<() => void>();
  /** print mode: a run that ends with workers still going waits for their notifications and answers them */
  waitsForWorkers = false;
  private checkedWorkers = false;
  /** the running children's reply functions: an ask forwarded from a child is answered here */
  private readonly answerers = new Set<(askId: string, reply: PermissionReply, message?: string) => boolean>();
  private readonly taskTools: Tool[];
  private readonly hookAgent: HookAgentRun | undefined;
  private readonly deferral: ToolDeferral | undefined;
  private readonly checkpoints: TurnCheckpoints | undefined;
  /** each call's expanded requests, by the call's own list */
  private readonly expansions = new WeakMap<PermissionRequest[], Promise<PermissionRequest[]>>();
  /** the read-only flags of the tools the loop was last given */
  private readOnlyTools = new Map<string, boolean>();
  private readonly taint: SessionTaint | undefined;
  /** running calls' names and inputs, for their results' provenance */
  private readonly calls = new Map<string, { name: string; input: unknown }>();
  private assistantTurns: number;

  private constructor(
    readonly row: SessionRow,
    private options: SessionOptions,
    messages: Message[],
    compaction: CompactionState = NO_COMPACTION,
  ) {
    this.messages = messages;
    this.compaction = compaction;
    this.assistantTurns = messages.filter((m) => m.role === "assistant").length;
    this.taint = options.taint ? new SessionTaint(options.taint.ctx, () => options.store.taintEvents(row.id) as { sources: TaintSource[]; cleared: string[] }, options.taint.initial) : undefined;
    this.lastSeq = options.store.lastSeq(row.id);
    this.hooks = sessionHooks(options.hooks, {
      id: row.id,
      cwd: row.cwd,
      outputDir: options.outputDir,
      env: this.toolEnv,
      emit: (event) => void this.emit(event),
      model: () => ({ stream: this.options.stream, model: this.options.model }),
      agent: (request) => (this.hookAgent ? this.hookAgent(request) : Promise.reject(new Error("agent hooks cannot run here (no subagents)"))),
      wake: (note) => this.wake(note),
    });
    this.checkpoints = options.checkpoints ? new TurnCheckpoints(options.checkpoints, row.cwd, row.id) : undefined;
    this.lease = new RunLease(options.store.db, row.id, { ...options.lease, ...(options.now ? { now: options.now } : {}) });
    const outputs = [join(options.outputDir, row.id), resolveForCheck(join(options.outputDir, row.id), "/", "/")].map((dir) => ({
      permission: "external_directory",
      pattern: `${dir}/*`,
      action: "allow" as const,
      source: "the session's saved outputs",
    }));
    this.broker = new PermissionBroker({
      rules: () => this.options.rules,
      ...(options.expand ? { expand: (requests: PermissionRequest[]) => this.expanded(requests)! } : {}),
      newId: () => newId("ask"),
      gate: (requests) => this.taint?.gate(requests),
      granted: () => this.options.skills?.approvals() ?? [],
      policy: options.askPolicy,
      // The note on a cut output sends the model to read its saved file; in print mode nobody could grant that.
      // Both spellings: the engine resolves symlinks in the paths it checks (a linked /tmp or home).
      // A subagent's parent's approvals are read at each call: an "always" given meanwhile counts.
      get standing() {
        return [...outputs, ...(options.inherited?.() ?? [])];
      },
      beforeAsk: async (ask, input) => {
        const hooks = this.hooks?.points;
        if (!hooks) return undefined;
        const fixed = ask.requests.some((r) => r.fixed !== undefined);
        const heard = await hooks.permissionRequest({ tool: ask.tool, input, fixed }, this.controller?.signal ?? new AbortController().signal);
        if (heard) return heard.allow ? { reply: "once", message: "allowed by a PermissionRequest hook" } : { reply: "reject", explain: `${heard.message}. The call did not run.` };
        // Only a person waits to be asked: a policy (print mode) answers at once.
        if (!this.options.askPolicy) void hooks.notify("permission_prompt", `rein needs your permission to use ${ask.tool}`);
        return undefined;
      },
      emitAsk: (ask: Ask) =>
        this.emit({
          type: "permission_ask",
          id: ask.id,
          tool_use_id: ask.toolUseId,
          tool: ask.tool,
          requests: ask.requests,
          ...(ask.reason ? { reason: ask.reason } : {}),
          ...(ask.tainted ? { tainted: ask.tainted, taint_sources: this.taint?.active().map((s) => s.source) ?? [] } : {}),
        }),
      emitReply: (id, answer) =>
        this.emit({ type: "permission_reply", id, reply: answer.reply, ...(answer.message ? { message: answer.message } : {}) }),
    });
    this.deferral = options.deferredTools?.length ? toolDeferral(options.deferredTools) : undefined;
    const parent: SubagentParent = {
        id: row.id,
        cwd: row.cwd,
        approvals: () => this.broker.approvals,
        relay: (event) => this.notify(event),
        answerer: (answer) => (this.answerers.add(answer), () => void this.answerers.delete(answer)),
        spent: (usage, cost) => {
          const before = this.childSpend;
          this.childSpend = { usage: addUsage(before.usage, usage), cost: before.cost === null || cost === null ? null : before.cost + cost };
        },
        spend: () => this.runSpend,
        halt: (reason) => void (this.childStop ??= reason),
        notice: (event) => void this.emit(event),
        wake: () => this.wakeUp(),
        taintSources: () => this.taint?.active() ?? [],
        tainted: (sources) => {
          for (const s of sources) if (this.taint?.add({ ...s, source: s.source })) this.emit({ type: "taint", kind: s.kind, source: s.source, turn: this.assistantTurns });
        },
      };
    this.taskTools = options.subagents?.(parent) ?? [];
    // bash `background: true` joins the team's list: task_output and task_stop reach it, its end notifies.
    const team = options.team;
    if (team) this.subscribe((event) => void (event.type === "tool_end" && !event.parent_tool_use_id && event.metadata?.background && joinCommand(team.get(), parent, event)));
    this.hookAgent = options.hookAgent?.(parent);
  }

  /** The loop's call chain: the hooks', the after-call and stop handlers, and a stop a child's hook asked for. */
  private runChain(): { chain?: CallChain } {
    const own =
      this.hooks || this.options.afterToolCall || this.options.beforeStop
        ? withStopCheck(withAfterCall(this.hooks?.points.chain ?? {}, this.options.afterToolCall), this.options.beforeStop)
        : undefined;
    if (!this.taskTools.length && !this.hookAgent) return own ? { chain: own } : {};
    return { chain: { ...own, halted: () => this.childStop ?? own?.halted?.() } };
  }

  /** The tools for a turn: the session's, then the task tool when it has subagents (their read-only flags kept for the checkpoints). */
  private async turnTools(): Promise<Tool[]> {
    const own = await (typeof this.options.tools === "function" ? this.options.tools() : this.options.tools);
    const all = this.taskTools.length ? [...own, ...this.taskTools] : own;
    const tools = this.deferral ? this.deferral.offer(all) : all;
    for (const failure of this.options.mcp?.failures() ?? []) this.emit({ type: "mcp_server", ...failure });
    if (this.checkpoints) this.readOnlyTools = new Map(tools.map((tool) => [tool.name, tool.readOnly === true]));
    return tools;
  }

  /** The names of the tools a turn offers now, the task tool and the deferred-tool loader included (claude-stream-json's init line). */
  async toolNames(): Promise<string[]> {
    const own = await (typeof this.options.tools === "function" ? this.options.tools() : this.options.tools);
    const all = this.taskTools.length ? [...own, ...this.taskTools] : own;
    return (this.deferral ? this.deferral.offer(all) : all).map((tool) => tool.name);
  }

  /** `settings` is kept with the session (JSON) so a front end can open it again the same way. */
  /** `id`: the new session's id when the caller chose one (Claude Code's --session-id); a fresh one otherwise. */
  static create(cwd: string, options: SessionOptions, settings?: Record<string, unknown>, id?: string): Session {
    const row = options.store.createSession(
      { id: id ?? newId("s"), cwd, model: options.model, ...(settings ? { settings: JSON.stringify(settings) } : {}) },
      options.now?.(),
    );
    return new Session(row, options, []);
  }

  /** Opens a stored session, first repairing what a crash left so the conversation is valid again. */
  static open(row: SessionRow, options: SessionOptions): Session {
    // Repairs are stored only when no other process drives the session (its tool calls may still be running).
    let opened: ReturnType<typeof openView> | undefined;
    ifFree(options.store.db, row.id, () => (opened = openView(row, options.store)), options.now?.());
    const view = opened ?? openView(row, options.store, false);
    const session = new Session(row, options, view.view, view.compaction);
    session.storedSize = view.size;
    session.stale = opened === undefined;
    return session;
  }

  get id(): string {
    return this.row.id;
  }

  /** where this session's checkpoints are kept (undefined when it takes none) */
  get checkpointsDir(): string | undefined {
    return this.options.checkpoints?.dir;
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  history(): readonly Message[] {
    return this.messages;
  }

  /** The session's MCP servers as they stand (none without MCP). */
  async mcpServers(): Promise<Awaited<ReturnType<SessionMcp["servers"]>>> {
    return (await this.options.mcp?.servers()) ?? [];
  }

  /** The session's language servers and their state (none without any configured). */
  lspServers(): ReturnType<LspSession["status"]> {
    return this.options.lsp?.status() ?? [];
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `attachments` (images a client sent along) follow the text in the user's message. */
  async prompt(text: string, attachments: readonly ContentBlock[] = []): Promise<ResultEvent> {
    if (this.controller) throw new Error("a prompt is already running in this session");
    const controller = new AbortController();
    this.controller = controller;
    this.inRun = true;
    this.runSpend = this.options.spend ?? { spent: 0 };
    const startedAt = (this.options.now ?? Date.now)();
    const { store } = this.options;
    // Grants made during this run end with it; a subagent's run shares the list and drops only its own.
    const grantsBefore = this.options.skills?.grants.length ?? 0;
    try {
      const busy = text.trim() ? await this.claim(controller.signal) : "the prompt is empty (or only whitespace): nothing was sent";
      this.announce();
      if (busy !== undefined) return this.refused(busy, controller.signal, startedAt);
      const plan = (await this.options.skills?.plan(text, controller.signal)) ?? { type: "text" as const };
      if (plan.type === "error") return this.result(startedAt, "error", { error: plan.error });
      if (plan.type === "command") this.options.skills!.grants.push(...plan.grants);
      const model = plan.type === "command" && plan.model ? (this.options.models?.resolve?.(plan.model, this.options.model) ?? plan.model) : this.options.model;
      let sent = plan.type === "command" ? plan.text : text;
      const expansion = plan.type === "command" ? await this.hooks?.points.beforeExpansion(this.expansionOf(plan.name, text), controller.signal) : undefined;
      if (expansion?.block !== undefined) return this.result(startedAt, "error", { error: `a UserPromptExpansion hook blocked /${plan.type === "command" ? plan.name : ""}: ${expansion.block}` });
      if (plan.type === "command" && hasInlineCommands(sent)) {
        const expanded = await expandInlineCommands(sent, this.inlineIO(controller.signal), plan.name);
        if ("error" in expanded) return this.result(startedAt, "error", { error: expanded.error });
        sent = expanded.text;
      }
      const resources = (await this.options.mcp?.attach(sent, controller.signal)) ?? [];
      if ("error" in resources) return this.result(startedAt, "error", { error: resources.error });
      if (resources.length && this.taint) for (const server of mentionedServers(sent)) this.noteTaint(this.taint.observe(`mcp__${server}__resource`, {}, undefined, false, this.assistantTurns + 1).added);
      if (plan.type === "command" && plan.untrusted && this.taint) {
        const source = { kind: "untrusted-repo" as const, source: `/${plan.name} (a command of this untrusted workspace)`, turn: this.assistantTurns + 1 };
        if (this.taint.add(source)) this.noteTaint(source);
      }
      const added = [...(plan.type === "command" ? (plan.attachments ?? []) : []), ...resources, ...attachments];
      this.hooks?.points.newRun();
      const heard = await this.hooksBeforePrompt(sent, controller.signal);
      const halt = this.hooks?.points.chain.halted?.();
      const claudeStop = this.hooks?.points.claudeStop();
      // Claude Code's files stop or block a prompt as Claude Code does: a success whose text says so.
      if (halt && claudeStop) return this.result(startedAt, "success", { text: `Operation stopped by hook: ${claudeStop.reason}`, hookStop: claudeStop });
      if (halt) return this.result(startedAt, "stopped", { error: halt });
      if (heard.claude !== undefined) return this.result(startedAt, "success", { text: heard.claude, hookStop: { event: "UserPromptSubmit", reason: heard.block ?? "" } });
      if (heard.block !== undefined) return this.result(startedAt, "error", { error: `a UserPromptSubmit hook blocked the prompt: ${heard.block}` });
      if (this.messages.length === 0 && !this.row.title) store.updateSession(this.id, { title: titleOf(text) });
      const user = this.emit({ type: "user", text: sent, ...(plan.type === "command" ? { typed: text } : {}) });
      const notes = [...(expansion?.context ? [expansion.context] : []), ...heard.context];
      const userMessage: Message = { role: "user", content: [{ type: "text", text: sent }, ...added, ...notes.map((note) => ({ type: "text" as const, text: note })), ...this.deadWorkers()] };
      this.checkpoints?.begin(user.seq, this.messages.length);
      this.messages.push(userMessage);
      store.appendMessage(this.id, userMessage, user.seq);

      const config: LoopConfig = {
          model,
          system: this.options.system,
          maxTokens: this.options.maxTokens,
          maxTurns: this.options.maxTurns,
          ...(this.options.maxCost !== undefined ? { maxCost: this.options.maxCost } : {}),
          spend: this.runSpend,
          cwd: this.row.cwd,
          sessionId: this.id,
          contextWindow: this.contextWindow,
          ...(this.storedSize ? { history: this.storedSize } : {}),
        };
      const io: LoopRun = {
          stream: this.options.stream,
          authorize: (call) => this.authorize(call),
          emit: (event) => void this.emit(event),
          bound: this.options.bound(this.id),
          prepare: () => {
            if (this.warmedUp) return;
            this.warmedUp = true;
            this.options.warmUp?.();
          },
          tools: () => this.turnTools(),
          files: this.files,
          fileAccess: this.options.fileAccess ?? diskFiles,
          outputDir: join(this.options.outputDir, this.id),
          history: storedHistory(this.options.store, this.id),
          toolEnv: this.toolEnv,
          sandbox: (readOnly) => {
            const { masked, ...sandbox } = this.options.sandbox ?? NO_SANDBOX;
            return { ...sandbox, readOnly, masked: masked(readOnly) };
          },
          costOf: costFunction(model, this.options.models),
          compact: (input, signal) => this.compactWith(input, signal),
          ...this.runChain(),
          ...(this.options.inbox ? { inbox: () => this.options.inbox!(this.id) } : {}),
          commit: (message: Message) => {
            const kept = sendable(message);
            const interrupted = controller.signal.aborted && message.role === "assistant";
            if (kept) this.saving(() => store.appendMessage(this.id, kept, this.lastSeq, interrupted ? "interrupted" : "complete"));
            return kept;
          },
        };
      let result = await runLoop(this.messages, config, io, controller.signal);
      // Print mode: workers still going are waited for; each batch of their notifications is answered in this run.
      const team = this.options.team?.current;
      while (this.waitsForWorkers && team && result.status === "success" && !controller.signal.aborted && team.busy(this.id)) {
        await team.next(this.id, controller.signal);
        const mail = team.inbox(this.id);
        if (mail.length === 0 || controller.signal.aborted) continue;
        const told = this.emit({ type: "user", text: mail.map((b) => b.text).join("\n\n") });
        const message: Message = { role: "user", content: mail };
        this.messages.push(message);
        this.saving(() => store.appendMessage(this.id, message, told.seq));
        // --max-cost holds across it all: the run's spending (the workers' included) is shared in config.spend.
        const more = await runLoop(this.messages, { ...config, maxTurns: Math.max(1, config.maxTurns - result.turns) }, io, controller.signal);
        const cost = result.cost === null || more.cost === null ? null : Math.round((result.cost + more.cost) * 1e6) / 1e6;
        result = { ...more, usage: addUsage(result.usage, more.usage), cost, turns: result.turns + more.turns };
      }
      // Interrupted while it waited for its workers: the run did not end as it would have.
      if (controller.signal.aborted && result.status === "success") result = { ...result, status: "interrupted" };
      await this.checkpointEnd();
      this.storedSize = undefined; // the messages may have been compacted; later runs estimate
      this.saving(() => store.updateSession(this.id, {}));
      const failure = this.saveError ?? this.lease.lost();
      const { text: answer, turns } = result;
      const usage = addUsage(result.usage, this.childSpend.usage);
      const cost = result.cost === null || this.childSpend.cost === null ? null : Math.round((result.cost + this.childSpend.cost) * 1e6) / 1e6;
      const hookStop = failure ? undefined : this.hooks?.points.claudeStop();
      return this.result(startedAt, failure ? "error" : result.status, { text: answer, usage, cost, turns, apiMs: result.apiMs, error: failure ?? result.error, ...(hookStop ? { hookStop } : {}) });
    } catch (error) {
      await this.checkpointEnd().catch(() => undefined);
      const status = controller.signal.aborted && !this.saveError ? "interrupted" : "error";
      return this.result(startedAt, status, { usage: this.runUsage, error: this.saveError ?? internalError(error) });
    } finally {
      this.lease.release();
      this.controller = undefined;
      this.inRun = false;
      this.saveError = undefined;
      this.runUsage = emptyUsage();
      this.childSpend = { usage: emptyUsage(), cost: 0 };
      this.runSpend = { spent: 0 };
      this.childStop = undefined;
      this.hooks?.rest();
      this.options.skills?.grants.splice(grantsBefore);
      // Mail that came after the run's last turn boundary wakes the session again (a front end runs it).
      if (this.options.team?.current?.pendingMail(this.id)) queueMicrotask(() => this.wakeUp());
    }
  }

  /** Once a process, for a continued session that can start workers: the notifications of those a crash left running (now failed). */
  private deadWorkers(): TextBlock[] {
    if (this.checkedWorkers || !this.options.team || this.messages.length === 0) return [];
    this.checkedWorkers = true;
    return deadWorkerNotes(this.options.store, this.id, this.options.team.current).map((note) => ({ type: "text" as const, text: note }));
  }

  /** Calls `listener` when mail (a worker's notification, a message to the lead) waits while no run is under way. */
  onWake(listener: () => void): () => void {
    this.wakeListeners.add(listener);
    return () => void this.wakeListeners.delete(listener);
  }

  /** Whether mail waits for this session (a front end that was told to wake runs `answerMail`). */
  get hasMail(): boolean {
    const team = this.options.team?.current;
    return team !== undefined && !this.controller && team.pendingMail(this.id);
  }

  /** Runs the mail waiting for this session as a prompt of its own (an idle lead answers its workers); undefined when there is none or a run is under way. */
  async answerMail(): Promise<ResultEvent | undefined> {
    const team = this.options.team?.current;
    if (!team || this.controller) return undefined;
    const mail = team.inbox(this.id);
    if (mail.length === 0) return undefined;
    return this.prompt(mail.map((b) => b.text).join("\n\n"));
  }

  /** The team of this process, when a worker was started (front ends list and stop its workers). */
  get team(): Team | undefined {
    return this.options.team?.current;
  }

  /** Mail came while idle: a front end that keeps the session open (wakeWhenIdle) has it answered now; listeners are told. */
  private wakeUp(): void {
    if (this.controller) return;
    if (this.options.wakeWhenIdle) void this.answerMail().catch(() => undefined);
    for (const listener of [...this.wakeListeners]) listener();
  }

  /**
   * Summarises the whole conversation now (the terminal's /compact), keeping what concerns `focus`
   * above all; the compaction event says how. A compaction that would not make the conversation
   * smaller is not kept ("nothing"); "stopped" when the session is busy or the compaction was
   * aborted (the conversation is then as it was).
   */
  async compact(focus?: string): Promise<CompactOutcome> {
    if (this.controller) return { type: "stopped", text: "a prompt is running in this session; compact when it has finished" };
    const controller = new AbortController();
    this.controller = controller;
    try {
      const busy = await this.claim(controller.signal);
      if (busy !== undefined) return { type: "stopped", text: busy || "stopped before the compaction was done; the conversation is as it was" };
      return await this.compactHeld(controller.signal, focus);
    } finally {
      this.lease.release();
      this.controller = undefined;
    }
  }

  /**
   * `compact` as a run of its own (print mode's --compact): the `session` event, the compaction, and
   * a closing `result` with turns 0, the summary call's usage and cost, and one line saying what
   * was done (or that there was nothing worth compacting) as its text.
   */
  async compactRun(focus?: string): Promise<ResultEvent> {
    if (this.controller) throw new Error("a prompt is already running in this session");
    const controller = new AbortController();
    this.controller = controller;
    const startedAt = (this.options.now ?? Date.now)();
    this.inRun = true;
    try {
      const busy = await this.claim(controller.signal);
      this.announce();
      if (busy !== undefined) return this.refused(busy, controller.signal, startedAt);
      const outcome = await this.compactHeld(controller.signal, focus);
      const usage = outcome.usage ?? emptyUsage();
      if (this.saveError) return this.result(startedAt, "error", { usage, error: this.saveError });
      if (outcome.type === "stopped") return this.result(startedAt, "interrupted", { usage, error: outcome.text });
      return this.result(startedAt, "success", { text: outcome.text, usage });
    } catch (error) {
      return this.result(startedAt, "error", { error: this.saveError ?? internalError(error) });
    } finally {
      this.lease.release();
      this.controller = undefined;
      this.inRun = false;
      this.saveError = undefined;
    }
  }

  private async compactHeld(signal: AbortSignal, focus?: string): Promise<CompactOutcome> {
    const tools = await (typeof this.options.tools === "function" ? this.options.tools() : this.options.tools);
    const deps = { tools, system: this.options.system, usable: this.usable, compact: (input: CompactInput, heard: (event: EventOf<"compaction">) => void) => this.compactWith(input, signal, focus, heard) };
    const { messages, ...outcome } = await compactManually(this.messages, deps, signal);
    if (messages) {
      this.messages.splice(0, this.messages.length, ...messages);
      this.storedSize = undefined;
    }
    return outcome;
  }

  /**
   * An asyncRewake hook exited 2: during a run its note goes beside the next tool result; when the
   * session is idle and its front end keeps it open (wakeWhenIdle: the terminal, the server), it
   * starts a turn; otherwise it waits for the next prompt.
   */
  private wake(note: string): void {
    if (this.inRun || !this.options.wakeWhenIdle) return void this.hooks?.points.addLate(note);
    void this.prompt(note).catch(() => this.hooks?.points.addLate(note));
  }

  /** What UserPromptExpansion hooks hear of a `/command` (Claude Code's fields: an MCP prompt or a command, and where it came from). */
  private expansionOf(name: string, typed: string) {
    const skills = this.options.skills;
    const command = skills?.loaded.commands.find((c) => c.name === name);
    const mcp = !command && skills?.prompts?.owns(name) === true;
    const source = mcp ? "mcp" : command?.plugin ? "plugin" : (command?.source ?? "user");
    const args = typed.trim().replace(/^\/\S+\s*/, "");
    return { type: mcp ? ("mcp_prompt" as const) : ("slash_command" as const), name, args, source, prompt: typed };
  }

  /** How a command's `` !`cmd` `` runs: the session's bash tool, decided by the broker with nobody asked (inline-commands.ts). */
  private inlineIO(signal: AbortSignal): InlineIO {
    const bash = async () => {
      const tool = (await this.turnTools()).find((t) => t.name === "bash");
      return tool && (await resolveTool(tool));
    };
    const requestsOf = (tool: Tool, command: string) => tool.permissions?.({ command }, { cwd: this.row.cwd }) ?? [{ permission: "bash", pattern: command, always: [] }];
    const decided = new Map<string, boolean>();
    return {
      check: async (command) => {
        const tool = await bash();
        if (!tool) return "the bash tool is not offered in this session";
        const decision = await this.broker.decide(requestsOf(tool, command));
        if (!decision.allow) return decision.why;
        decided.set(command, decision.readOnly);
        return undefined;
      },
      run: async (command) => {
        const tool = (await bash())!;
        const { masked, ...sandbox } = this.options.sandbox ?? NO_SANDBOX;
        const readOnly = decided.get(command) === true;
        const ran = await tool.run(
          { command },
          {
            cwd: this.row.cwd,
            signal,
            sessionId: this.id,
            toolUseId: newId("inline"),
            output: () => undefined,
            files: this.files,
            fileAccess: this.options.fileAccess ?? diskFiles,
            outputDir: join(this.options.outputDir, this.id),
            env: this.toolEnv,
            sandbox: { ...sandbox, readOnly, masked: masked(readOnly) },
          },
        );
        return typeof ran === "string" ? { output: ran, isError: false } : { output: ran.output, isError: ran.isError === true };
      },
    };
  }

  /** The broker decides; an allowed call that may change the workspace first gets the turn's checkpoint. */
  private async authorize(call: AuthorizeInput): Promise<Authorization> {
    const auth = await this.broker.authorize(call);
    if (!auth.allow || !this.checkpoints) return auth;
    const readOnly = auth.readOnly === true || this.readOnlyTools.get(call.tool) === true;
    if (readOnly) return auth;
    const requests = (await this.expanded(call.requests)?.catch(() => call.requests)) ?? call.requests;
    await this.checkpoints.before({ readOnly, requests, tool: call.tool });
    return auth;
  }

  /** The engine's expansion of a call's requests, made once for the broker and the checkpoint both (a shell parse each). */
  private expanded(requests: PermissionRequest[]): Promise<PermissionRequest[]> | undefined {
    const expand = this.options.expand;
    if (!expand) return undefined;
    let expansion = this.expansions.get(requests);
    if (!expansion) this.expansions.set(requests, (expansion = expand(requests, this.row.cwd)));
    return expansion;
  }

  /** The turn's checkpoint event, when the turn changed something through a tool. */
  private async checkpointEnd(): Promise<void> {
    const report = await this.checkpoints?.end();
    if (report) this.emit({ type: "checkpoint", ...report });
  }

  private get toolEnv(): Readonly<Record<string, string>> {
    return this.options.toolEnv ?? childEnv(process.env, { secrets: PROVIDER_KEY_ENV });
  }

  /** SessionStart (once a process) and UserPromptSubmit: a block refuses the prompt; context goes beside it. */
  private async hooksBeforePrompt(text: string, signal: AbortSignal): Promise<{ block?: string; claude?: string; context: string[] }> {
    if (!this.hooks) return { context: [] };
    const context: string[] = [];
    if (!this.hooksStarted) {
      this.hooksStarted = true;
      const source = this.options.startSource ?? (this.messages.length > 0 ? "resume" : "startup");
      this.options = { ...this.options, startSource: undefined };
      const start = await this.hooks.points.sessionStart(source, signal);
      if (start.context) context.push(start.context);
    }
    context.push(...this.hooks.points.takeLate());
    const heard = await this.hooks.points.beforePrompt(text, signal);
    if (heard.context) context.push(heard.context);
    return { ...(heard.block !== undefined ? { block: heard.block } : {}), ...(heard.claude !== undefined ? { claude: heard.claude } : {}), context };
  }

  /**
   * Ends the session for its hooks (SessionEnd), once for each SessionStart: a front end calls it as
   * it lets the session go; a second call, or one before any prompt started the session, does nothing.
   */
  async end(reason: string, signal?: AbortSignal): Promise<void> {
    this.checkpoints?.close();
    if (!this.hooks || !this.hooksStarted) return;
    this.hooksStarted = false;
    const limit = AbortSignal.timeout(60_000);
    await this.hooks.points.sessionEnd(reason, signal ? AbortSignal.any([signal, limit]) : limit);
    this.hooks.rest();
  }

  /** Lets go of what the session holds open besides the store (its MCP servers): the front end is done with it. */
  async close(): Promise<void> {
    this.options.lsp?.close();
    await this.options.mcp?.close();
  }

  /** Tells the session's Notification hooks (the terminal's prompt is idle); nothing without hooks. */
  async notifyHooks(type: "idle_prompt", message: string): Promise<void> {
    await this.hooks?.points.notify(type, message);
  }

  /** the current model's window: compaction and the context meter follow a switch of model */
  get contextWindow(): number {
    return this.options.contextWindow ?? (this.options.models ?? BUILTIN_CATALOG).info(this.options.model).contextWindow;
  }

  private get usable(): number {
    return usableWindow(this.contextWindow, this.options.maxTokens);
  }

  private compactWith(
    input: CompactInput,
    signal: AbortSignal,
    focus?: string,
    heard?: (event: EventOf<"compaction">) => void,
  ): Promise<Compacted | undefined> {
    const hooks = this.hooks?.points;
    if (!hooks) return this.compactNow(input, signal, focus, heard);
    const trigger = input.reason === "manual" ? "manual" : "auto";
    return hooks.beforeCompact(trigger, focus ?? "", signal).then(async (before) => {
      if (before.block !== undefined) return undefined;
      let summary = "";
      const compacted = await this.compactNow(input, signal, focus, (event) => ((summary = event.summary), heard?.(event)));
      if (compacted) await hooks.afterCompact(trigger, summary, signal);
      return compacted;
    });
  }

  private compactNow(
    input: CompactInput,
    signal: AbortSignal,
    focus?: string,
    heard?: (event: EventOf<"compaction">) => void,
  ): Promise<Compacted | undefined> {
    return compactConversation(
      input,
      {
        stream: this.options.stream,
        model: this.options.model,
        prompt: compactionPrompt,
        usable: this.usable,
        maxTokens: this.options.maxTokens,
        costOf: costFunction(this.options.model, this.options.models),
        state: this.compaction,
        report: (event) => {
          const stamped = { ...event, outside_run: !this.inRun };
          this.emit(stamped);
          this.compaction = stateOf(stamped);
          heard?.(stamped);
        },
        ...(focus ? { focus } : {}),
      },
      signal,
    );
  }

  get model(): string {
    return this.options.model;
  }

  /** The model for the next turns (the terminal's /model); refused while a turn runs. */
  setModel(model: string): void {
    if (this.controller) throw new Error("the model cannot change while a turn runs");
    model = this.options.models?.resolve?.(model, this.options.model) ?? model;
    const problem = this.options.models?.problem?.(model);
    if (problem) throw new Error(problem);
    this.options = { ...this.options, model };
    // Kept as chosen: resuming the session goes on with it (cli/open-session.ts).
    const settings = withChosenModel(this.options.store.getSession(this.id)?.settings, model);
    this.options.store.updateSession(this.id, { model, settings });
  }

  /** The rules in force, in evaluation order (the last match wins). */
  rules(): readonly Rule[] {
    return this.options.rules;
  }

  /** What the user approved with "always" in this session. */
  approvals(): readonly Rule[] {
    return this.broker.approvals;
  }

  /**
   * Carries on from another object of this session that is being let go (the terminal reopens it to
   * switch agent or reload memory): its approvals, and its SessionStart, so hooks see one session.
   */
  continueFrom(previous: Session): void {
    for (const rule of previous.approvals()) if (!this.broker.approvals.includes(rule)) this.broker.approvals.push(rule);
    this.hooksStarted ||= previous.hooksStarted;
    previous.hooksStarted = false;
  }

  /** Adds approvals for the rest of this session (a configured deny still wins). */
  approve(rules: readonly Rule[]): void {
    this.broker.approve(rules);
  }

  /**
   * The rules (and sandbox) of another permission mode, from the next call on: the terminal's
   * Shift-Tab. The approvals given so far stay.
   */
  setPermissions(rules: readonly Rule[], sandbox?: SessionSandbox): void {
    this.options = { ...this.options, rules, ...(sandbox ? { sandbox } : {}) };
  }

  /** Withdraws one of this session's approvals; the rule removed, or undefined for a bad index. */
  revoke(index: number): Rule | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.broker.approvals.length) return undefined;
    return this.broker.approvals.splice(index, 1)[0];
  }

  /** Answers an ask of this session, or of a subagent running under it. */
  reply(askId: string, reply: PermissionReply, message?: string): boolean {
    return this.broker.reply(askId, reply, message) || [...this.answerers].some((answer) => answer(askId, reply, message));
  }

  pendingAsks(): Ask[] {
    return this.broker.pending();
  }

  /** Stops the stream and running tools; the partial reply is kept and the session stays resumable. */
  abort(): void {
    if (!this.controller || this.controller.signal.aborted) return;
    this.controller.abort();
    this.broker.rejectAll("the run was interrupted");
  }

  /**
   * Takes the session's lease for a run (waiting a bounded time for another process's run), then
   * reads the conversation again if another process changed it since this one last looked.
   * Returns why the run cannot go on when the lease stays taken.
   */
  private async claim(signal: AbortSignal): Promise<string | undefined> {
    const busy = await this.lease.take(signal, () => this.controller?.abort(), this.options.onLeaseWait);
    if (busy === undefined && (this.stale || this.options.store.lastSeq(this.id) !== this.lastSeq)) this.reload();
    return busy;
  }

  /** The conversation as the store holds it now (repairing what a crashed holder left). */
  private reload(): void {
    const opened = openView(this.row, this.options.store);
    this.messages.splice(0, this.messages.length, ...opened.view);
    this.compaction = opened.compaction;
    this.storedSize = opened.size;
    this.lastSeq = this.options.store.lastSeq(this.id);
    this.stale = false;
  }

  /** The result of a run that did not get the session: refused (exit 1), or interrupted while it waited. */
  private refused(busy: string, signal: AbortSignal, startedAt: number): ResultEvent {
    if (signal.aborted) return this.result(startedAt, "interrupted", { error: "interrupted while waiting for another process's run on this session" });
    return this.result(startedAt, "error", { error: busy });
  }

  /** A run's closing `result`, priced from its usage unless `cost` is given. */
  private result(
    startedAt: number,
    status: ResultStatus,
    fields: { text?: string; usage?: Usage; cost?: number | null; turns?: number; apiMs?: number; error?: string | undefined; hookStop?: { event: string; reason: string } },
  ): ResultEvent {
    const usage = fields.usage ?? emptyUsage();
    const cost = fields.cost !== undefined ? fields.cost : costFunction(this.options.model, this.options.models)(usage);
    const duration = (this.options.now ?? Date.now)() - startedAt;
    const error = fields.error ? { error: fields.error } : {};
    return this.finish({ type: "result", status, text: fields.text ?? "", usage, cost_usd: cost, turns: fields.turns ?? 0, duration_ms: duration, duration_api_ms: fields.apiMs ?? 0, ...error, ...(fields.hookStop ? { hook_stop: fields.hookStop } : {}) });
  }

  /** Runs a store write; a failure stops the run, which then ends as an error saying so. */
  private saving(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.failSave(error);
    }
  }

  private failSave(error: unknown): never {
    this.saveError ??= `cannot save the session (${error instanceof Error ? error.message : String(error)}); the run was stopped so nothing unsaved is lost silently`;
    this.controller?.abort();
    throw new Error(this.saveError);
  }

  /** The `session` event, before the first run of this process. */
  private announce(): void {
    if (this.started) return;
    this.started = true;
    const agent = this.options.agent ? { agent: this.options.agent } : {};
    this.emit({ type: "session", id: this.id, cwd: this.row.cwd, model: this.options.model, version: this.options.version, ...agent });
  }

  private finish(event: Extract<AgentEvent, { type: "result" }>): ResultEvent {
    return this.emit({ ...event, model: this.options.model }) as ResultEvent;
  }

  /** Persists, then notifies. If the store cannot write, subscribers still see the event (seq -1) and the run stops. */
  private emit(event: AgentEvent): StampedEvent {
    if (this.taint) return this.emitTracked(event);
    return this.persist(event);
  }

  /** A result gets its provenance; content that can steer is stored as a `taint` event after it. */
  private emitTracked(event: AgentEvent): StampedEvent {
    if (event.type === "assistant") this.assistantTurns++;
    if (event.type === "tool_start") this.calls.set(event.id, { name: event.name, input: event.input });
    if (event.type !== "tool_end") return this.persist(event);
    const call = this.calls.get(event.id);
    this.calls.delete(event.id);
    const seen = this.taint!.observe(event.name, call?.input, event.metadata, event.is_error, this.assistantTurns);
    const stamped = this.persist({ ...event, provenance: seen.provenance });
    if (seen.added) this.persist({ type: "taint", kind: seen.added.kind, source: seen.added.source, turn: seen.added.turn });
    return stamped;
  }

  /** Stores a source that newly taints the session. */
  private noteTaint(added: TaintSource | undefined): void {
    if (added) this.persist({ type: "taint", kind: added.kind, source: added.source, turn: added.turn });
  }

  /** What taints the session now (none without taint tracking). */
  taintSources(): TaintSource[] {
    return this.taint?.active() ?? [];
  }

  /** A person trusts this content: it no longer taints the session (stored). False when it taints nothing now. */
  clearTaint(source: string): boolean {
    if (!this.taint?.clear(source)) return false;
    this.persist({ type: "taint_cleared", source });
    return true;
  }

  private persist(event: AgentEvent): StampedEvent {
    if (this.inRun && (event.type === "assistant" || (event.type === "compaction" && event.usage))) this.runUsage = addUsage(this.runUsage, event.usage!);
    let stamped: StampedEvent;
    try {
      stamped = this.options.store.appendEvent(this.id, event, this.options.now?.());
      this.lastSeq = stamped.seq;
      this.hooks?.record(stamped);
    } catch (error) {
      stamped = { ...event, session_id: this.id, seq: -1 } as StampedEvent;
      if (event.type !== "result" && event.type !== "error") {
        this.notify(stamped);
        this.failSave(error);
      }
    }
    this.notify(stamped);
    return stamped;
  }

  private notify(event: StampedEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function fileMemory(): FileMemory {
  const stamps = new Map<string, FileStamp>();
  return { recordRead: (path, stamp) => void stamps.set(path, stamp), lastRead: (path) => stamps.get(path) };
}

function internalError(error: unknown): string {
  return `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

function titleOf(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
