// The Session: the one object every front end drives. It runs the loop, persists every event before
// subscribers see it, keeps the conversation, and brokers permission asks.
import { join } from "node:path";
import compactionPrompt from "../../prompts/compaction.txt" with { type: "text" };
import { COMPACT_TO, fixedTokens, requestTokens, usableWindow, type Estimated } from "../agent/context-size.ts";
import { runLoop } from "../agent/loop.ts";
import { toolDefinition } from "../agent/tool-schema.ts";
import {
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
} from "../agent/types.ts";
import { costFunction, modelInfo } from "../llm/models.ts";
import type { PermissionRequest, Rule } from "../permission/evaluate.ts";
import type { FileMemory, FileStamp, Tool } from "../sdk.ts";
import { PermissionBroker, type Ask, type AskPolicy } from "./broker.ts";
import type { Bound } from "./bound-output.ts";
import { compactConversation } from "./compaction.ts";
import { NO_COMPACTION, stateOf, type CompactionState } from "./compacted-view.ts";
import { newId } from "./ids.ts";
import { openView } from "./open-view.ts";
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
  bound: (sessionId: string) => Bound;
  /** the data folder's output/: each session's full tool outputs go in a folder named after it */
  outputDir: string;
  askPolicy?: AskPolicy;
  version: string;
  now?: () => number;
};

export type ResultEvent = Extract<StampedEvent, { type: "result" }>;
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

  private constructor(
    readonly row: SessionRow,
    private options: SessionOptions,
    messages: Message[],
    compaction: CompactionState = NO_COMPACTION,
  ) {
    this.messages = messages;
    this.compaction = compaction;
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
    const opened = openView(row, options.store);
    const session = new Session(row, options, opened.view, opened.compaction);
    session.storedSize = opened.size;
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
      this.announce();
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
          costOf: costFunction(this.options.model),
          compact: (input, signal) => this.compactWith(input, signal),
          commit: (message) => {
            const interrupted = controller.signal.aborted && message.role === "assistant";
            store.appendMessage(this.id, message, this.lastSeq, interrupted ? "interrupted" : "complete");
          },
        },
        controller.signal,
      );
      this.storedSize = undefined; // the messages may have been compacted; later runs estimate
      store.updateSession(this.id, {});
      return this.finish({
        type: "result",
        status: result.status,
        text: result.text,
        usage: result.usage,
        cost_usd: result.cost,
        turns: result.turns,
        duration_ms: now() - startedAt,
        ...(result.error ? { error: result.error } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return this.finish({
        type: "result",
        status: controller.signal.aborted ? "interrupted" : "error",
        text: "",
        usage: emptyUsage(),
        cost_usd: costFunction(this.options.model)(emptyUsage()),
        turns: 0,
        duration_ms: now() - startedAt,
        error: `internal error: ${message}`,
      });
    } finally {
      this.controller = undefined;
      this.inRun = false;
    }
  }

  /**
   * Summarises the conversation now (the terminal's /compact), keeping what concerns `focus` above
   * all; the compaction event says how. Undefined when the session is running, has nothing to
   * compact, or was aborted first (the conversation is then as it was).
   */
  async compact(focus?: string): Promise<EventOf<"compaction"> | undefined> {
    if (this.controller || this.messages.length < 2) return undefined;
    const controller = new AbortController();
    this.controller = controller;
    let reported: EventOf<"compaction"> | undefined;
    try {
      const tools = await (typeof this.options.tools === "function" ? this.options.tools() : this.options.tools);
      const fixed = fixedTokens({ system: this.options.system, tools: tools.map(toolDefinition) });
      const tokens = requestTokens(this.messages, fixed, undefined);
      const input: CompactInput = { messages: [...this.messages], tokens, target: Math.floor(this.usable * COMPACT_TO), fixed, reason: "manual" };
      const compacted = await this.compactWith(input, controller.signal, focus, (event) => (reported = event));
      if (compacted) {
        this.messages.splice(0, this.messages.length, ...compacted.messages);
        this.storedSize = undefined;
      }
      return reported;
    } finally {
      this.controller = undefined;
    }
  }

  /**
   * `compact` as a run of its own (print mode's --compact): the `session` event, the compaction, and
   * a closing `result` with turns 0, the summary call's usage and cost, and one line saying what
   * was done (or that there was nothing to compact) as its text.
   */
  async compactRun(focus?: string): Promise<ResultEvent> {
    if (this.controller) throw new Error("a prompt is already running in this session");
    const now = this.options.now ?? Date.now;
    const startedAt = now();
    const costOf = costFunction(this.options.model);
    const end = (status: ResultStatus, text: string, usage = emptyUsage(), cost = costOf(usage), error?: string) =>
      this.finish({ type: "result", status, text, usage, cost_usd: cost, turns: 0, duration_ms: now() - startedAt, ...(error ? { error } : {}) });
    this.inRun = true;
    try {
      this.announce();
      if (this.messages.length < 2) return end("success", "nothing to compact: the conversation has fewer than two messages");
      const event = await this.compact(focus);
      if (!event) return end("interrupted", "", undefined, undefined, "interrupted before the compaction was done; the conversation is as it was");
      return end("success", compactionLine(event), event.usage, event.cost_usd ?? costOf(emptyUsage()));
    } catch (error) {
      return end("error", "", undefined, undefined, `internal error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.inRun = false;
    }
  }

  private get contextWindow(): number {
    return this.options.contextWindow ?? modelInfo(this.options.model).contextWindow;
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
        costOf: costFunction(this.options.model),
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

  /** The `session` event, before the first run of this process. */
  private announce(): void {
    if (this.started) return;
    this.started = true;
    this.emit({ type: "session", id: this.id, cwd: this.row.cwd, model: this.options.model, version: this.options.version });
  }

  private finish(event: Extract<AgentEvent, { type: "result" }>): ResultEvent {
    return this.emit(event) as ResultEvent;
  }

  /** Persists, then notifies. If the store cannot write, subscribers still see the event (seq -1) and the run stops. */
  private emit(event: AgentEvent): StampedEvent {
    let stamped: StampedEvent;
    try {
      stamped = this.options.store.appendEvent(this.id, event, this.options.now?.());
      this.lastSeq = stamped.seq;
    } catch (error) {
      stamped = { ...event, session_id: this.id, seq: -1 } as StampedEvent;
      if (event.type !== "result" && event.type !== "error") {
        this.notify(stamped);
        throw new Error(`cannot save the session (${(error as Error).message}); the run was stopped so nothing unsaved is lost silently`);
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
