// The Session: the one object every front end drives. It runs the loop, persists every event before
// subscribers see it, keeps the conversation, and brokers permission asks.
import { join } from "node:path";
import compactionPrompt from "../../prompts/compaction.txt" with { type: "text" };
import { COMPACT_TO, fixedTokens, requestTokens, usableWindow, type Estimated } from "../agent/context-size.ts";
import { runLoop } from "../agent/loop.ts";
import { toolDefinition } from "../agent/tool-schema.ts";
import {
  addUsage,
  emptyUsage,
  type AgentEvent,
  type Compacted,
  type CompactInput,
  type EventOf,
  type Message,
  type PermissionReply,
  type ResultStatus,
  type StampedEvent,
  type StreamFn,
  type Usage,
} from "../agent/types.ts";
import type { ModelCatalog } from "../llm/models.ts";
import { BUILTIN_CATALOG, costFunction } from "../llm/providers.ts";
import type { PermissionRequest, Rule } from "../permission/evaluate.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { childEnv } from "../permission/child-env.ts";
import type { FileMemory, FileStamp, SandboxPolicy, Tool } from "../sdk.ts";
import { PermissionBroker, type Ask, type AskPolicy } from "./broker.ts";
import type { Bound } from "./bound-output.ts";
import { compactConversation, WORTH_COMPACTING } from "./compaction.ts";
import { NO_COMPACTION, stateOf, type CompactionState } from "./compacted-view.ts";
import { newId } from "./ids.ts";
import { acquireLease, busyText, ifFree, LEASE_TTL_MS, LEASE_WAIT_MS, type Lease, type LeaseOptions } from "./lease.ts";
import { openView } from "./open-view.ts";
import { sendable } from "./sendable.ts";
import { storedHistory } from "./stored-history.ts";
import type { SessionRow, Store } from "./store.ts";

export type SessionOptions = {
  store: Store;
  stream: StreamFn;
  model: string;
  system: string;
  /** the tools, or a function asked before every turn (tool files reload between turns) */
  tools: Tool[] | (() => Tool[] | Promise<Tool[]>);
  rules: readonly Rule[];
  /** the permission engine: what the rules see of a call's requests, for a session working in `cwd` */
  expand?: (requests: PermissionRequest[], cwd: string) => Promise<PermissionRequest[]>;
  /** started, not awaited, when the model begins its first tool call: work that call would otherwise wait for */
  warmUp?: () => void;
  maxTurns: number;
  /** USD for one prompt's run: no model turn starts once it has spent this much */
  maxCost?: number;
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
  /** the environment of the processes tools start; by default rein's, with the credentials removed */
  toolEnv?: Readonly<Record<string, string>>;
  /** the session's kernel sandbox; off by default */
  sandbox?: SessionSandbox;
};

/** The sandbox setting of a session; `masked` is asked at each call (a credential file may appear meanwhile). */
export type SessionSandbox = Pick<SandboxPolicy, "mode" | "network"> & { masked: () => readonly string[] };

const NO_SANDBOX: SessionSandbox = { mode: "off", network: false, masked: () => [] };

export type ResultEvent = Extract<StampedEvent, { type: "result" }>;
/** What a manual compaction did, with one line saying so; `usage` is the summary call's, when one was made. */
export type CompactOutcome = (
  | { type: "compacted"; event: EventOf<"compaction"> }
  | { type: "nothing" }
  | { type: "stopped" }
) & { text: string; usage?: Usage };
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
  private lease: Lease | undefined;
  /** the view was opened while another process held the session: it is read again at the next run */
  private stale = false;
  /** why the store could not save what this run did; the run ends as an error */
  private saveError: string | undefined;
  /** what the model calls of the run under way used, as their events said (for a run that ends by a throw) */
  private runUsage = emptyUsage();

  private constructor(
    readonly row: SessionRow,
    private options: SessionOptions,
    messages: Message[],
    compaction: CompactionState = NO_COMPACTION,
  ) {
    this.messages = messages;
    this.compaction = compaction;
    this.lastSeq = options.store.lastSeq(row.id);
    this.broker = new PermissionBroker({
      rules: () => this.options.rules,
      ...(options.expand ? { expand: (requests: PermissionRequest[]) => options.expand!(requests, row.cwd) } : {}),
      newId: () => newId("ask"),
      policy: options.askPolicy,
      // The note on a cut output sends the model to read its saved file; in print mode nobody could grant that.
      standing: [{ permission: "external_directory", pattern: `${join(options.outputDir, row.id)}/*`, action: "allow", source: "the session's saved outputs" }],
      emitAsk: (ask: Ask) =>
        this.emit({
          type: "permission_ask",
          id: ask.id,
          tool_use_id: ask.toolUseId,
          tool: ask.tool,
          requests: ask.requests,
          ...(ask.reason ? { reason: ask.reason } : {}),
        }),
      emitReply: (id, answer) =>
        this.emit({ type: "permission_reply", id, reply: answer.reply, ...(answer.message ? { message: answer.message } : {}) }),
    });
  }

  /** `settings` is kept with the session (JSON) so a front end can open it again the same way. */
  static create(cwd: string, options: SessionOptions, settings?: Record<string, unknown>): Session {
    const row = options.store.createSession(
      { id: newId("s"), cwd, model: options.model, ...(settings ? { settings: JSON.stringify(settings) } : {}) },
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

  get running(): boolean {
    return this.controller !== undefined;
  }

  history(): readonly Message[] {
    return this.messages;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async prompt(text: string): Promise<ResultEvent> {
    if (this.controller) throw new Error("a prompt is already running in this session");
    const controller = new AbortController();
    this.controller = controller;
    this.inRun = true;
    const now = this.options.now ?? Date.now;
    const startedAt = now();
    const { store } = this.options;
    try {
      const busy = text.trim() ? await this.claim(controller.signal) : "the prompt is empty (or only whitespace): nothing was sent";
      this.announce();
      if (busy !== undefined) return this.refused(busy, controller.signal, startedAt);
      if (this.messages.length === 0 && !this.row.title) store.updateSession(this.id, { title: titleOf(text) });
      const user = this.emit({ type: "user", text });
      const userMessage: Message = { role: "user", content: [{ type: "text", text }] };
      this.messages.push(userMessage);
      store.appendMessage(this.id, userMessage, user.seq);

      const result = await runLoop(
        this.messages,
        {
          model: this.options.model,
          system: this.options.system,
          maxTokens: this.options.maxTokens,
          maxTurns: this.options.maxTurns,
          ...(this.options.maxCost !== undefined ? { maxCost: this.options.maxCost } : {}),
          cwd: this.row.cwd,
          sessionId: this.id,
          contextWindow: this.contextWindow,
          ...(this.storedSize ? { history: this.storedSize } : {}),
        },
        {
          stream: this.options.stream,
          authorize: (call) => this.broker.authorize(call),
          emit: (event) => void this.emit(event),
          bound: this.options.bound(this.id),
          prepare: () => {
            if (this.warmedUp) return;
            this.warmedUp = true;
            this.options.warmUp?.();
          },
          tools: typeof this.options.tools === "function" ? this.options.tools : () => this.options.tools as Tool[],
          files: this.files,
          outputDir: join(this.options.outputDir, this.id),
          history: storedHistory(this.options.store, this.id),
          toolEnv: this.options.toolEnv ?? childEnv(process.env, { secrets: PROVIDER_KEY_ENV }),
          sandbox: (readOnly) => {
            const { masked, ...sandbox } = this.options.sandbox ?? NO_SANDBOX;
            return { ...sandbox, readOnly, masked: readOnly ? masked() : [] };
          },
          costOf: costFunction(this.options.model, this.options.models),
          compact: (input, signal) => this.compactWith(input, signal),
          commit: (message) => {
            const kept = sendable(message);
            const interrupted = controller.signal.aborted && message.role === "assistant";
            if (kept) this.saving(() => store.appendMessage(this.id, kept, this.lastSeq, interrupted ? "interrupted" : "complete"));
            return kept;
          },
        },
        controller.signal,
      );
      this.storedSize = undefined; // the messages may have been compacted; later runs estimate
      this.saving(() => store.updateSession(this.id, {}));
      const failure = this.saveError ?? this.lostLease();
      return this.finish({
        type: "result",
        status: failure ? "error" : result.status,
        text: result.text,
        usage: result.usage,
        cost_usd: result.cost,
        turns: result.turns,
        duration_ms: now() - startedAt,
        ...(failure ? { error: failure } : result.error ? { error: result.error } : {}),
      });
    } catch (error) {
      const message = this.saveError ?? `internal error: ${error instanceof Error ? error.message : String(error)}`;
      return this.finish({
        type: "result",
        status: controller.signal.aborted && !this.saveError ? "interrupted" : "error",
        text: "",
        usage: this.runUsage,
        cost_usd: costFunction(this.options.model, this.options.models)(this.runUsage),
        turns: 0,
        duration_ms: now() - startedAt,
        error: message,
      });
    } finally {
      this.releaseLease();
      this.controller = undefined;
      this.inRun = false;
      this.saveError = undefined;
      this.runUsage = emptyUsage();
    }
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
      this.releaseLease();
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
    const now = this.options.now ?? Date.now;
    const startedAt = now();
    const costOf = costFunction(this.options.model, this.options.models);
    const end = (status: ResultStatus, text: string, usage = emptyUsage(), cost = costOf(usage), error?: string) =>
      this.finish({ type: "result", status, text, usage, cost_usd: cost, turns: 0, duration_ms: now() - startedAt, ...(error ? { error } : {}) });
    this.inRun = true;
    try {
      const busy = await this.claim(controller.signal);
      this.announce();
      if (busy !== undefined) return this.refused(busy, controller.signal, startedAt);
      const outcome = await this.compactHeld(controller.signal, focus);
      const usage = outcome.usage ?? emptyUsage();
      if (this.saveError) return end("error", "", usage, costOf(usage), this.saveError);
      if (outcome.type === "stopped") return end("interrupted", "", usage, costOf(usage), outcome.text);
      return end("success", outcome.text, usage, costOf(usage));
    } catch (error) {
      return end("error", "", undefined, undefined, this.saveError ?? `internal error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.releaseLease();
      this.controller = undefined;
      this.inRun = false;
      this.saveError = undefined;
    }
  }

  private async compactHeld(signal: AbortSignal, focus?: string): Promise<CompactOutcome> {
    const tools = await (typeof this.options.tools === "function" ? this.options.tools() : this.options.tools);
    const fixed = fixedTokens({ system: this.options.system, tools: tools.map(toolDefinition) });
    const tokens = requestTokens(this.messages, fixed, undefined);
    if (this.messages.length < 2 || tokens - fixed < WORTH_COMPACTING) return { type: "nothing", text: nothingLine(tokens) };
    let reported: EventOf<"compaction"> | undefined;
    const input: CompactInput = { messages: [...this.messages], tokens, target: Math.floor(this.usable * COMPACT_TO), fixed, reason: "manual" };
    const compacted = await this.compactWith(input, signal, focus, (event) => (reported = event));
    const spent = compacted?.usage ? { usage: compacted.usage } : {};
    if (signal.aborted && !reported) return { type: "stopped", text: "interrupted before the compaction was done; the conversation is as it was", ...spent };
    if (!compacted || !reported) return { type: "nothing", text: nothingLine(tokens), ...spent };
    this.messages.splice(0, this.messages.length, ...compacted.messages);
    this.storedSize = undefined;
    return { type: "compacted", event: reported, text: compactionLine(reported), ...spent };
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
    const problem = this.options.models?.problem?.(model);
    if (problem) throw new Error(problem);
    this.options = { ...this.options, model };
    this.options.store.updateSession(this.id, { model });
  }

  /** The rules in force, in evaluation order (the last match wins). */
  rules(): readonly Rule[] {
    return this.options.rules;
  }

  /** What the user approved with "always" in this session. */
  approvals(): readonly Rule[] {
    return this.broker.approvals;
  }

  /** Withdraws one of this session's approvals; the rule removed, or undefined for a bad index. */
  revoke(index: number): Rule | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.broker.approvals.length) return undefined;
    return this.broker.approvals.splice(index, 1)[0];
  }

  reply(askId: string, reply: PermissionReply, message?: string): boolean {
    return this.broker.reply(askId, reply, message);
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
    if (this.lease?.held()) return undefined;
    const { store } = this.options;
    const now = this.options.now ?? Date.now;
    const since = now();
    const got = await acquireLease(
      store.db,
      this.id,
      {
        waitMs: this.options.lease?.waitMs ?? LEASE_WAIT_MS,
        ttlMs: this.options.lease?.ttlMs ?? LEASE_TTL_MS,
        now,
        onLost: () => this.controller?.abort(),
      },
      signal,
    );
    if (!("release" in got)) return signal.aborted ? "" : busyText(this.id, got, now() - since);
    this.lease = got;
    if (this.stale || store.lastSeq(this.id) !== this.lastSeq) this.reload();
    return undefined;
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

  private releaseLease(): void {
    this.lease?.release();
    this.lease = undefined;
  }

  private lostLease(): string | undefined {
    if (!this.lease || this.lease.held()) return undefined;
    return `another process took over session ${this.id} while this run was stalled; the run was stopped (its work so far is stored)`;
  }

  /** The result of a run that did not get the session: refused (exit 1), or interrupted while it waited. */
  private refused(busy: string, signal: AbortSignal, startedAt: number): ResultEvent {
    const usage = emptyUsage();
    const interrupted = signal.aborted;
    return this.finish({
      type: "result",
      status: interrupted ? "interrupted" : "error",
      text: "",
      usage,
      cost_usd: costFunction(this.options.model, this.options.models)(usage),
      turns: 0,
      duration_ms: (this.options.now ?? Date.now)() - startedAt,
      error: interrupted ? "interrupted while waiting for another process's run on this session" : busy,
    });
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
    this.emit({ type: "session", id: this.id, cwd: this.row.cwd, model: this.options.model, version: this.options.version });
  }

  private finish(event: Extract<AgentEvent, { type: "result" }>): ResultEvent {
    return this.emit({ ...event, model: this.options.model }) as ResultEvent;
  }

  /** Persists, then notifies. If the store cannot write, subscribers still see the event (seq -1) and the run stops. */
  private emit(event: AgentEvent): StampedEvent {
    if (this.inRun && (event.type === "assistant" || (event.type === "compaction" && event.usage))) this.runUsage = addUsage(this.runUsage, event.usage!);
    let stamped: StampedEvent;
    try {
      stamped = this.options.store.appendEvent(this.id, event, this.options.now?.());
      this.lastSeq = stamped.seq;
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

/** "nothing worth compacting: ...": a compaction would not have made the conversation smaller. */
function nothingLine(tokens: number): string {
  return `nothing worth compacting: the conversation (~${tokens} tokens with the system prompt and tools) would not get smaller`;
}

/** "compacted: ~12000 -> ~3100 tokens (summarised)": what a manual compaction did, in one line. */
function compactionLine(event: EventOf<"compaction">): string {
  const how =
    event.method === "summary"
      ? "summarised"
      : event.method === "cut"
        ? "cut: the summary call failed or did not fit, so the oldest turns were left out"
        : "old tool outputs pruned";
  return `compacted: ~${event.tokens_before} -> ~${event.tokens_after} tokens (${how})`;
}

function titleOf(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
