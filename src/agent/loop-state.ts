// What one run of the loop (loop.ts) keeps between its turns: the usage and price so far, the turns
// and the last text, the stop checks' continuations, what is known of the request's size, the time
// spent on the API; and the steps that change it (count a model call, compact, stream a turn, end).
import { COMPACT_AT, COMPACT_TO, fixedTokens, requestTokens, usableWindow, type Measured } from "./context-size.ts";
import { addUsage, emptyUsage, type CompactInput, type LoopConfig, type Message, type ModelRequest, type ProviderEvent, type ResultStatus, type Usage } from "./types.ts";
import type { LoopResult, LoopRun } from "./loop.ts";

export type TurnOutcome =
  | Extract<ProviderEvent, { type: "done" }>
  | { type: "error"; message: string; code: string; status?: number; partial: string };

export class LoopState {
  usage = emptyUsage();
  cost: number | null;
  turns = 0;
  text = "";
  continued = 0;
  /** the provider's count of the last request; forgotten when the conversation is compacted */
  measured: Measured | undefined;
  /** the owner's estimate of the first messages; also forgotten on compaction */
  estimated: LoopConfig["history"];
  apiMs = 0;
  readonly window: number | undefined;

  constructor(
    readonly messages: Message[],
    readonly config: LoopConfig,
    readonly io: LoopRun,
    readonly signal: AbortSignal,
  ) {
    this.cost = io.costOf(this.usage);
    this.estimated = config.history;
    this.window = config.contextWindow ? usableWindow(config.contextWindow, config.maxTokens) : undefined;
  }

  append(message: Message): void {
    const kept = this.io.commit(message);
    if (kept) this.messages.push(kept);
  }

  /** Adds a model call's usage and price to the run's (and the shared spending's); returns the price. */
  count(used: Usage): number | null {
    const { config } = this;
    this.usage = addUsage(this.usage, used);
    const price = this.io.costOf(used);
    this.cost = this.cost === null || price === null ? null : roundUsd(this.cost + price);
    if (config.spend) config.spend.spent = config.spend.spent === null || price === null ? null : roundUsd(config.spend.spent + price);
    return price;
  }

  end(status: ResultStatus, error?: string): LoopResult {
    return { status, text: this.text, usage: this.usage, cost: this.cost, turns: this.turns, apiMs: Math.round(this.apiMs), ...(error ? { error } : {}) };
  }

  /** A final reply with no text and no tool call answers nothing: a failure, never a silent success. */
  emptyReply(stopReason: string | null): LoopResult {
    const message = `the model sent an empty reply (stop reason ${stopReason ?? "none"}): nothing to print; run the prompt again, or continue the session with -c`;
    this.io.emit({ type: "error", message, code: "empty_reply" });
    this.text = "";
    return this.end("error", message);
  }

  /** a chain handler's reason to stop the whole run (a hook's `continue: false`), once it gave one */
  halted(): string | undefined {
    return this.io.chain?.halted?.();
  }

  /** rein's hooks stop a run as `stopped`; Claude Code's (haltSucceeds) end it as a success, as Claude Code does */
  haltEnd(why: string): LoopResult {
    return this.io.chain?.haltSucceeds?.() ? this.end("success") : this.end("stopped", why);
  }

  /** Why no further turn starts (aborted, halted, the turn limit, the budget), as the run's result. */
  beforeTurn(): LoopResult | undefined {
    const { config } = this;
    if (this.signal.aborted) return this.end("interrupted");
    const halt = this.halted();
    if (halt) return this.haltEnd(halt);
    if (this.turns >= config.maxTurns) return this.end("max_turns", `stopped after ${config.maxTurns} turn${config.maxTurns === 1 ? "" : "s"} (--max-turns)`);
    // The whole run's spending when it is shared: children running at once see each other's.
    const spent = config.spend ? config.spend.spent : this.cost;
    if (overBudget(spent, config.maxCost)) return this.end("max_turns", budgetReached(config.maxCost, spent));
    return undefined;
  }

  /**
   * Streams the turn's request. At most one compaction a model turn: before the request when it would
   * go over the window, or after the provider said it did; a request still too long after that ends
   * the run with the error. Returns the reply, or the run's result when the turn ended it.
   */
  async streamTurn(request: ModelRequest): Promise<{ turn: Extract<TurnOutcome, { type: "done" }>; sent: number } | LoopResult> {
    const { messages, signal, window } = this;
    const fixed = fixedTokens(request);
    let compacted = false;
    const tokens = requestTokens(messages, fixed, this.measured, this.estimated);
    if (window && tokens > window * COMPACT_AT) compacted = await this.compact("threshold", tokens, window * COMPACT_TO, fixed);
    if (signal.aborted) return this.end("interrupted");
    const stopped = this.halted(); // a PreCompact or PostCompact hook may have stopped the run
    if (stopped) return this.haltEnd(stopped);
    let sent = messages.length;
    let turn = await this.timed(this.io.stream(request, signal));
    if (turn.type === "error" && turn.code === "too_long" && !turn.partial && !compacted && window) {
      // The estimate was wrong by at least the overshoot: aim at half of it as well as below the window.
      compacted = await this.compact("too_long", requestTokens(messages, fixed, undefined), Math.min(window * COMPACT_TO, tokens * 0.5), fixed);
      if (compacted) {
        sent = messages.length;
        turn = await this.timed(this.io.stream(request, signal));
      }
    }
    if (turn.type !== "error") return { turn, sent };
    if (turn.partial) this.append({ role: "assistant", content: [{ type: "text", text: turn.partial }] });
    if (turn.partial) this.text = turn.partial;
    if (signal.aborted || turn.code === "aborted") return this.end("interrupted");
    this.io.emit({ type: "error", message: turn.message, code: turn.code, ...(turn.status ? { status: turn.status } : {}) });
    return this.end("error", turn.message);
  }

  private async compact(reason: CompactInput["reason"], tokens: number, target: number, fixed: number): Promise<boolean> {
    const { io, messages } = this;
    if (!io.compact) return false;
    const compacted = await io.compact({ messages: [...messages], tokens, target: Math.floor(target), fixed, reason }, this.signal);
    if (!compacted) return false;
    messages.splice(0, messages.length, ...compacted.messages);
    if (compacted.usage) this.count(compacted.usage);
    this.measured = undefined;
    this.estimated = undefined;
    return true;
  }

  private async timed(events: AsyncIterable<ProviderEvent>): Promise<TurnOutcome> {
    const started = performance.now();
    try {
      return await readTurn(this.io, events);
    } finally {
      this.apiMs += performance.now() - started;
    }
  }
}

async function readTurn(io: LoopRun, events: AsyncIterable<ProviderEvent>): Promise<TurnOutcome> {
  let partial = "";
  for await (const event of events) {
    switch (event.type) {
      case "text_delta":
        partial += event.text;
        io.emit(event);
        break;
      case "tool_use_start":
        io.prepare?.(event.name);
        break;
      case "retry":
        // A retried attempt starts the reply again: what streamed so far is discarded.
        partial = "";
        io.emit(event);
        break;
      case "done":
        return event;
      case "error":
        return { type: "error", message: event.message, code: event.code, ...(event.status ? { status: event.status } : {}), partial };
    }
  }
  return { type: "error", message: "the provider stream ended without a reply", code: "unknown", partial };
}

function overBudget(cost: number | null, maxCost: number | undefined): maxCost is number {
  return maxCost !== undefined && cost !== null && cost >= maxCost;
}

function budgetReached(maxCost: number, spent: number | null): string {
  return `stopped: the cost budget of $${maxCost} was reached ($${(spent ?? 0).toFixed(4)} spent) (--max-cost)`;
}

/** Sums stay at the model table's precision (a millionth of a dollar), without float noise. */
function roundUsd(dollars: number): number {
  return Math.round(dollars * 1e6) / 1e6;
}
