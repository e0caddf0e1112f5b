// What a Session holds, and the few things every step of a run does with it: persist an event before
// its subscribers see it, write to the store (a failure stops the run), close a run with its
// `result`, take the lease. The steps of a prompt (prepare-prompt.ts, loop-io.ts, the subagent parent
// in subagent-parent.ts) and session.ts's public methods all work on one SessionCore.
import { addUsage, emptyUsage, type AgentEvent, type Message, type PermissionReply, type ResultStatus, type RunSpend, type StampedEvent, type Usage } from "../agent/types.ts";
import { usableWindow, type Estimated } from "../agent/context-size.ts";
import type { HookAgentRun } from "../agents/host.ts";
import { lazyCheckpoints, type Checkpointing } from "./lazy-checkpoints.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { BUILTIN_CATALOG, costFunction } from "../llm/providers.ts";
import { childEnv } from "../permission/child-env.ts";
import type { PermissionRequest } from "../permission/evaluate.ts";
import type { FileMemory, FileStamp, Tool } from "../sdk.ts";
import type { PermissionBroker } from "./broker.ts";
import { NO_COMPACTION, type CompactionState } from "./compacted-view.ts";
import { toolDeferral, type ToolDeferral } from "./deferred-tools.ts";
import { RunLease } from "./lease.ts";
import { openView } from "./open-view.ts";
import { sessionBroker } from "./session-broker.ts";
import { sessionHooks, type SessionHooks } from "./session-hooks.ts";
import type { Listener, ResultEvent, SessionOptions } from "./session-options.ts";
import type { SessionRow } from "./store.ts";
import { attachSubagents, noChildSpend, type ChildSpend } from "./subagent-parent.ts";
import { SessionTaint, type TaintSource } from "./taint.ts";

/** The events of a turn as it streams: stored in one batch with the turn's messages (persist); every other event commits at once. */
const BATCHED = new Set<AgentEvent["type"]>(["text_delta", "assistant", "tool_start", "tool_output", "tool_end"]);
/**
 * Streamed text and a command's output are committed (and shown) at most this long after they
 * came, with what follows meanwhile: a reply streamed in many chunks, or a command that prints and
 * ends at once, takes one commit instead of one per chunk. Any other event commits them sooner.
 */
const STREAMED = new Set<AgentEvent["type"]>(["text_delta", "tool_output"]);
const STREAM_COMMIT_MS = 20;

export type ResultFields = { text?: string; usage?: Usage; cost?: number | null; turns?: number; apiMs?: number; error?: string | undefined; hookStop?: { event: string; reason: string } };

export class SessionCore {
  readonly listeners = new Set<Listener>();
  readonly broker: PermissionBroker;
  readonly messages: Message[];
  controller: AbortController | undefined;
  /** a run (a prompt, or print mode's --compact) is under way: its result will hold what it spends */
  inRun = false;
  started = false;
  warmedUp = false;
  /** the shared read-only sandbox was started ahead of this session's first bash call (loop-io.ts prepare) */
  bashPrepared = false;
  /** the seq of the last event this session persisted: a committed message records where it stands */
  lastSeq = 0;
  readonly files = fileMemory();
  /** how the full history (kept whole in the store) is turned into what the model is sent */
  compaction: CompactionState;
  /** a resumed history's size from its stored text: spares the first turn walking 10,000 messages */
  storedSize: Estimated | undefined;
  /** held for the length of a run: no other process drives this session meanwhile */
  readonly lease: RunLease;
  /** the view was opened while another process held the session: it is read again at the next run */
  stale = false;
  /** why the store could not save what this run did; the run ends as an error */
  saveError: string | undefined;
  /** what the model calls of the run under way used, as their events said (for a run that ends by a throw) */
  runUsage = emptyUsage();
  readonly hooks: SessionHooks | undefined;
  hooksStarted = false;
  /** what this run's subagents spent (their results roll up into this run's) */
  childSpend: ChildSpend = noChildSpend();
  /** a child's hook stopped the whole run (`continue: false` in a subagent): why */
  childStop: { reason: string; claude?: { event: string; reason: string } } | undefined;
  /** the run under way's spending, shared with its children */
  runSpend: RunSpend = { spent: 0 };
  /** the last run's spending while the background workers it started still go: the next run of this lead goes on with it */
  teamSpend: RunSpend | undefined;
  /** told when mail (a worker's notification, a message) comes while no run is under way (front ends start one) */
  readonly wakeListeners = new Set<() => void>();
  /** waiting for the run under way to have let go of the session (its state reset, after its result) */
  private idleWaiters: (() => void)[] = [];
  /** print mode: a run that ends with workers still going waits for their notifications and answers them */
  waitsForWorkers = false;
  checkedWorkers = false;
  /** the hidden call naming the session after its first turn (title.ts): settles when it is done; `stop` gives it up */
  titling: { done: Promise<void>; stop: AbortController } | undefined;
  /** the running children's reply functions: an ask forwarded from a child is answered here */
  readonly answerers = new Set<(askId: string, reply: PermissionReply, message?: string) => boolean>();
  readonly taskTools: Tool[];
  readonly hookAgent: HookAgentRun | undefined;
  readonly deferral: ToolDeferral | undefined;
  readonly checkpoints: Checkpointing | undefined;
  /** each call's expanded requests, by the call's own list */
  readonly expansions = new WeakMap<PermissionRequest[], Promise<PermissionRequest[]>>();
  /** the read-only flags of the tools the loop was last given */
  readOnlyTools = new Map<string, boolean>();
  readonly taint: SessionTaint | undefined;
  /** running calls' names and inputs, for their results' provenance */
  readonly calls = new Map<string, { name: string; input: unknown }>();
  /** stored in the open batch, shown once it is committed (persist) */
  private shownAtCommit: StampedEvent[] = [];
  /** the open batch's commit: at the next turn of the event loop, or within STREAM_COMMIT_MS for streamed text and output */
  private commitSoon: { immediate: ReturnType<typeof setImmediate> } | { timer: ReturnType<typeof setTimeout> } | undefined;
  assistantTurns: number;

  constructor(
    readonly row: SessionRow,
    public options: SessionOptions,
    messages: Message[],
    /** runs a prompt of this session (mail that wakes it, an asyncRewake hook's note) */
    readonly prompt: (text: string) => Promise<ResultEvent>,
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
      history: (afterSeq) => options.store.events(row.id, afterSeq),
    });
    this.checkpoints = options.checkpoints ? lazyCheckpoints(options.checkpoints, row.cwd, row.id) : undefined;
    this.lease = new RunLease(options.store.db, row.id, { ...options.lease, ...(options.now ? { now: options.now } : {}) });
    this.broker = sessionBroker(this);
    this.deferral = options.deferredTools?.length ? toolDeferral(options.deferredTools) : undefined;
    const { taskTools, hookAgent } = attachSubagents(this);
    this.taskTools = taskTools;
    this.hookAgent = hookAgent;
  }

  get id(): string {
    return this.row.id;
  }

  get now(): number {
    return (this.options.now ?? Date.now)();
  }

  get toolEnv(): Readonly<Record<string, string>> {
    return this.options.toolEnv ?? childEnv(process.env, { secrets: PROVIDER_KEY_ENV });
  }

  /** the current model's window: compaction and the context meter follow a switch of model */
  get contextWindow(): number {
    return this.options.contextWindow ?? (this.options.models ?? BUILTIN_CATALOG).info(this.options.model).contextWindow;
  }

  get usable(): number {
    return usableWindow(this.contextWindow, this.options.maxTokens);
  }

  /** The session's own tools as they stand (tool files reload between turns). */
  async ownTools(): Promise<Tool[]> {
    return await (typeof this.options.tools === "function" ? this.options.tools() : this.options.tools);
  }

  /**
   * Takes the session's lease for a run (waiting a bounded time for another process's run), then
   * reads the conversation again if another process changed it since this one last looked.
   * Returns why the run cannot go on when the lease stays taken.
   */
  async claim(signal: AbortSignal): Promise<string | undefined> {
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
  /** Settles once no run holds the session: at once when none does, else after the running one has reset its state. */
  whenIdle(): Promise<void> {
    if (!this.controller) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A run has let go of the session (controller cleared): whoever waits for it may start the next. */
  letGo(): void {
    this.controller = undefined;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  refused(busy: string, signal: AbortSignal, startedAt: number): ResultEvent {
    if (signal.aborted) return this.result(startedAt, "interrupted", { error: "interrupted while waiting for another process's run on this session" });
    return this.result(startedAt, "error", { error: busy });
  }

  /** A run's closing `result`, priced from its usage unless `cost` is given. */
  result(startedAt: number, status: ResultStatus, fields: ResultFields): ResultEvent {
    const usage = fields.usage ?? emptyUsage();
    const cost = fields.cost !== undefined ? fields.cost : costFunction(this.options.model, this.options.models)(usage);
    const duration = this.now - startedAt;
    const error = fields.error ? { error: fields.error } : {};
    const event = { type: "result" as const, status, text: fields.text ?? "", usage, cost_usd: cost, turns: fields.turns ?? 0, duration_ms: duration, duration_api_ms: fields.apiMs ?? 0, ...error, ...(fields.hookStop ? { hook_stop: fields.hookStop } : {}) };
    return this.emit({ ...event, model: this.options.model }) as ResultEvent;
  }

  /** Runs a store write; a failure stops the run, which then ends as an error saying so. */
  saving(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.failSave(error);
    }
  }

  private failSave(error: unknown): never {
    throw new Error(this.noteSaveFailure(error));
  }

  private noteSaveFailure(error: unknown): string {
    this.saveError ??= `cannot save the session (${error instanceof Error ? error.message : String(error)}); the run was stopped so nothing unsaved is lost silently`;
    this.controller?.abort();
    return this.saveError;
  }

  /** The `session` event, before the first run of this process. */
  announce(): void {
    if (this.started) return;
    this.started = true;
    const agent = this.options.agent ? { agent: this.options.agent } : {};
    this.emit({ type: "session", id: this.id, cwd: this.row.cwd, model: this.options.model, version: this.options.version, ...agent });
  }

  /** Persists, then notifies. If the store cannot write, subscribers still see the event (seq -1) and the run stops. */
  emit(event: AgentEvent): StampedEvent {
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
  noteTaint(added: TaintSource | undefined): void {
    if (added) this.persist({ type: "taint", kind: added.kind, source: added.source, turn: added.turn });
  }

  /**
   * Stores the event, then shows it to the listeners: never shown before it is committed, so a
   * SIGKILL loses nothing shown. A turn's streamed events (BATCHED) and the messages stored
   * meanwhile share one commit, made when the event loop next turns (an I/O wait: the next request,
   * a command's output; within STREAM_COMMIT_MS when the last was streamed text or output), at a
   * call's start (shown before the call runs) or before any other event; they are shown then, in order.
   */
  persist(event: AgentEvent): StampedEvent {
    if (this.inRun && (event.type === "assistant" || (event.type === "compaction" && event.usage))) this.runUsage = addUsage(this.runUsage, event.usage!);
    const batched = BATCHED.has(event.type);
    let stamped: StampedEvent;
    try {
      if (batched) this.options.store.beginBatch();
      stamped = this.options.store.appendEvent(this.id, event, this.options.now?.());
      this.lastSeq = stamped.seq;
      this.hooks?.record(stamped);
    } catch (error) {
      stamped = { ...event, session_id: this.id, seq: -1 } as StampedEvent;
      this.flush();
      if (event.type !== "result" && event.type !== "error") {
        this.notify(stamped);
        this.failSave(error);
      }
      this.notify(stamped);
      return stamped;
    }
    if (batched) {
      this.shownAtCommit.push(stamped);
      // A call is shown before it runs (an editor reads the file it will change, a front end draws
      // it): its start commits what is open at once; the rest waits for the event loop to turn.
      if (event.type === "tool_start") this.flush();
      else if (STREAMED.has(event.type)) this.commitSoon ??= { timer: setTimeout(() => this.flush(), STREAM_COMMIT_MS) };
      else if (!this.commitSoon || "timer" in this.commitSoon) {
        this.clearCommit();
        this.commitSoon = { immediate: setImmediate(() => this.flush()) };
      }
      return stamped;
    }
    this.flush();
    this.notify(stamped);
    return stamped;
  }

  /** Commits the open batch and shows its events; a commit that fails shows them unsaved (seq -1) and stops the run. */
  flush(): void {
    this.clearCommit();
    const shown = this.shownAtCommit;
    this.shownAtCommit = [];
    try {
      this.options.store.commitBatch();
    } catch (error) {
      for (const event of shown) this.notify({ ...event, seq: -1 });
      this.noteSaveFailure(error);
      return;
    }
    for (const event of shown) this.notify(event);
  }

  private clearCommit(): void {
    if (this.commitSoon && "timer" in this.commitSoon) clearTimeout(this.commitSoon.timer);
    else if (this.commitSoon) clearImmediate(this.commitSoon.immediate);
    this.commitSoon = undefined;
  }

  notify(event: StampedEvent): void {
    for (const listener of this.listeners) listener(event);
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

  /** Runs the mail waiting for this session as a prompt of its own (an idle lead answers its workers); undefined when there is none or a run is under way. */
  async answerMail(): Promise<ResultEvent | undefined> {
    const team = this.options.team?.current;
    if (!team || this.controller) return undefined;
    const mail = team.inbox(this.id);
    if (mail.length === 0) return undefined;
    return this.prompt(mail.map((b) => b.text).join("\n\n"));
  }

  /** Mail came while idle: a front end that keeps the session open (wakeWhenIdle) has it answered now; listeners are told. */
  wakeUp(): void {
    if (this.controller) return;
    if (this.options.wakeWhenIdle) void this.answerMail().catch(() => undefined);
    for (const listener of [...this.wakeListeners]) listener();
  }
}

function fileMemory(): FileMemory {
  const stamps = new Map<string, FileStamp>();
  return { recordRead: (path, stamp) => void stamps.set(path, stamp), lastRead: (path) => stamps.get(path) };
}

export function internalError(error: unknown): string {
  return `internal error: ${error instanceof Error ? error.message : String(error)}`;
}
