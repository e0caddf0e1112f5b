// The agent loop: one `while`. Stream a turn, run its tool calls, feed the results back; stop when
// the model stops, at the turn limit, on a permission stop, when the call chain halts it, or on abort.
import type { Tool } from "../sdk.ts";
import { COMPACT_AT, COMPACT_TO, fixedTokens, promptTokens, requestTokens, usableWindow, type Measured } from "./context-size.ts";
import { runToolCall, type CallOutcome } from "./tool-call.ts";
import { isDeferred, toolDefinition } from "./tool-schema.ts";
import { toolUseIds, uniqueToolIds } from "./unique-tool-ids.ts";
import {
  addUsage,
  emptyUsage,
  type CompactInput,
  type ContentBlock,
  type LoopConfig,
  type LoopIO,
  type Message,
  type ProviderEvent,
  type ResultStatus,
  type StopCheck,
  textOf,
  type ToolUseBlock,
  type Usage,
} from "./types.ts";

/** `cost` is in USD, null when the model's prices are unknown. */
/** `apiMs`: the time spent waiting on the model's API (its streams, retries included) */
export type LoopResult = { status: ResultStatus; text: string; usage: Usage; cost: number | null; turns: number; apiMs: number; error?: string };

/**
 * Loop I/O plus the one thing only the loop's owner knows: how to keep a message it appends. The
 * owner returns the message as kept (what the provider would refuse taken out), or undefined when
 * nothing of it is kept; the conversation goes on with that.
 */
export type LoopRun = LoopIO & { commit: (message: Message) => Message | undefined };

const REPEAT_LIMIT = 3;
/** how many times in a row the stop check may continue a run before the run stops anyway */
export const STOP_CONTINUE_LIMIT = 8;

export async function runLoop(messages: Message[], config: LoopConfig, io: LoopRun, signal: AbortSignal): Promise<LoopResult> {
  const repeats = repeatCounter();
  let usage = emptyUsage();
  let cost = io.costOf(usage);
  let turns = 0;
  let text = "";
  let continued = 0;
  /** the provider's count of the last request; forgotten when the conversation is compacted */
  let measured: Measured | undefined;
  /** the owner's estimate of the first messages; also forgotten on compaction */
  let estimated = config.history;
  const window = config.contextWindow ? usableWindow(config.contextWindow, config.maxTokens) : undefined;

  const append = (message: Message) => {
    const kept = io.commit(message);
    if (kept) messages.push(kept);
  };
  /** Adds a model call's usage and price to the run's; returns the price. */
  const count = (used: Usage): number | null => {
    usage = addUsage(usage, used);
    const price = io.costOf(used);
    cost = cost === null || price === null ? null : roundUsd(cost + price);
    if (config.spend) config.spend.spent = config.spend.spent === null || price === null ? null : roundUsd(config.spend.spent + price);
    return price;
  };
  let apiMs = 0;
  const timed = async (events: AsyncIterable<ProviderEvent>): Promise<TurnOutcome> => {
    const started = performance.now();
    try {
      return await streamTurn(io, events);
    } finally {
      apiMs += performance.now() - started;
    }
  };
  const end = (status: ResultStatus, error?: string): LoopResult => ({ status, text, usage, cost, turns, apiMs: Math.round(apiMs), ...(error ? { error } : {}) });
  /** A final reply with no text and no tool call answers nothing: a failure, never a silent success. */
  const emptyReply = (stopReason: string | null): LoopResult => {
    const message = `the model sent an empty reply (stop reason ${stopReason ?? "none"}): nothing to print; run the prompt again, or continue the session with -c`;
    io.emit({ type: "error", message, code: "empty_reply" });
    text = "";
    return end("error", message);
  };

  /** a chain handler's reason to stop the whole run (a hook's `continue: false`), once it gave one */
  const halted = () => io.chain?.halted?.();
  /** rein's hooks stop a run as `stopped`; Claude Code's (haltSucceeds) end it as a success, as Claude Code does */
  const haltEnd = (why: string) => (io.chain?.haltSucceeds?.() ? end("success") : end("stopped", why));

  const usedIds = toolUseIds(messages);
  while (true) {
    if (signal.aborted) return end("interrupted");
    const halt = halted();
    if (halt) return haltEnd(halt);
    if (turns >= config.maxTurns) return end("max_turns", `stopped after ${config.maxTurns} turn${config.maxTurns === 1 ? "" : "s"} (--max-turns)`);
    // The whole run's spending when it is shared: children running at once see each other's.
    const spent = config.spend ? config.spend.spent : cost;
    if (overBudget(spent, config.maxCost)) return end("max_turns", budgetReached(config.maxCost, spent));
    turns++;
    // Loading tool files can take a while (each import is bounded, see registry/import-check.ts): an abort does not wait for it.
    const current = await untilAborted(io.tools(), signal);
    if (!current) return end("interrupted");
    const tools = new Map(current.map((t) => [t.name, t] as const));
    const request = {
      model: config.model,
      system: config.system,
      messages,
      tools: current.filter((t) => !isDeferred(t)).map(toolDefinition),
      max_tokens: config.maxTokens,
    };
    const fixed = fixedTokens(request);
    const compact = async (reason: CompactInput["reason"], tokens: number, target: number): Promise<boolean> => {
      if (!io.compact) return false;
      const compacted = await io.compact({ messages: [...messages], tokens, target: Math.floor(target), fixed, reason }, signal);
      if (!compacted) return false;
      messages.splice(0, messages.length, ...compacted.messages);
      if (compacted.usage) count(compacted.usage);
      measured = undefined;
      estimated = undefined;
      return true;
    };
    // At most one compaction a model turn: before the request when it would go over the window, or
    // after the provider said it did; a request still too long after that ends the run with the error.
    let compacted = false;
    const tokens = requestTokens(messages, fixed, measured, estimated);
    if (window && tokens > window * COMPACT_AT) compacted = await compact("threshold", tokens, window * COMPACT_TO);
    if (signal.aborted) return end("interrupted");
    const stopped = halted(); // a PreCompact or PostCompact hook may have stopped the run
    if (stopped) return haltEnd(stopped);
    let sent = messages.length;
    let turn = await timed(io.stream(request, signal));
    if (turn.type === "error" && turn.code === "too_long" && !turn.partial && !compacted && window) {
      // The estimate was wrong by at least the overshoot: aim at half of it as well as below the window.
      compacted = await compact("too_long", requestTokens(messages, fixed, undefined), Math.min(window * COMPACT_TO, tokens * 0.5));
      if (compacted) {
        sent = messages.length;
        turn = await timed(io.stream(request, signal));
      }
    }
    if (turn.type === "error") {
      if (turn.partial) append(partialReply(turn.partial));
      if (turn.partial) text = turn.partial;
      if (signal.aborted || turn.code === "aborted") return end("interrupted");
      io.emit({ type: "error", message: turn.message, code: turn.code, ...(turn.status ? { status: turn.status } : {}) });
      return end("error", turn.message);
    }

    // Ids are made unique here, before the reply is shown or stored (some providers reuse them).
    const unique = uniqueToolIds(turn.content, usedIds);
    if (unique.renamed.size) turn = renameCalls(turn, unique.content, unique.renamed);
    const turnCost = count(turn.usage);
    const counted = promptTokens(turn.usage);
    measured = counted > 0 ? { tokens: counted, messages: sent } : undefined;
    io.emit({ type: "assistant", content: turn.content, stop_reason: turn.stop_reason, usage: turn.usage, cost_usd: turnCost, model: config.model });
    if (turn.content.length > 0) append({ role: "assistant", content: turn.content });
    text = textOf(turn.content) || text;

    const calls = turn.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (calls.length === 0) {
      if (turn.stop_reason === "pause_turn") continue;
      if (!textOf(turn.content).trim()) return emptyReply(turn.stop_reason);
      const more = continued < STOP_CONTINUE_LIMIT ? await askStopChecks(io.chain?.stopChecks ?? [], { text, continued }, signal) : undefined;
      if (signal.aborted) return end("interrupted");
      const stop = halted();
      if (stop) return haltEnd(stop);
      if (!more) return end("success");
      continued++;
      append({ role: "user", content: [{ type: "text", text: more }] });
      continue;
    }
    const incomplete = new Set(turn.incomplete_tool_ids);
    const invalid = new Map((turn.invalid_tool_inputs ?? []).map((i) => [i.id, i.error] as const));
    const outcomes = await runCalls(calls, (call) =>
      runToolCall(call, tools, config, io, signal, {
        incomplete: incomplete.has(call.id),
        unreadable: invalid.get(call.id),
        confirmReason: repeats(call),
      }), tools, halted);
    append({ role: "user", content: [...outcomes.map((o) => o.block), ...(io.inbox?.() ?? [])] });
    if (outcomes.some((o) => o.stop)) return end("permission", "stopped: a tool call needed a permission (--on-ask fail)");
    if (signal.aborted) return end("interrupted");
  }
}

/** The first stop check that continues the run, asked in turn (one that throws is passed over). */
async function askStopChecks(checks: readonly StopCheck[], stop: { text: string; continued: number }, signal: AbortSignal): Promise<string | undefined> {
  for (const check of checks) {
    const more = await check(stop, signal).catch(() => undefined);
    if (more !== undefined) return more;
  }
  return undefined;
}

/** The promise's value, or undefined as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T> | T, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
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

/** The reply with its calls renamed (see unique-tool-ids.ts), and what the stream said of them. */
function renameCalls(turn: Extract<ProviderEvent, { type: "done" }>, content: ContentBlock[], renamed: ReadonlyMap<string, string>): Extract<ProviderEvent, { type: "done" }> {
  const name = (id: string) => renamed.get(id) ?? id;
  return {
    ...turn,
    content,
    incomplete_tool_ids: turn.incomplete_tool_ids.map(name),
    ...(turn.invalid_tool_inputs ? { invalid_tool_inputs: turn.invalid_tool_inputs.map((i) => ({ ...i, id: name(i.id) })) } : {}),
  };
}

type TurnOutcome =
  | Extract<ProviderEvent, { type: "done" }>
  | { type: "error"; message: string; code: string; status?: number; partial: string };

async function streamTurn(io: LoopIO, events: AsyncIterable<ProviderEvent>): Promise<TurnOutcome> {
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

/** Read-only calls next to each other run concurrently; every other call runs alone, in order. */
async function runCalls(
  calls: ToolUseBlock[],
  run: (call: ToolUseBlock) => Promise<CallOutcome>,
  tools: ReadonlyMap<string, Tool>,
  halted: () => string | undefined,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  let i = 0;
  while (i < calls.length) {
    const group = [calls[i]!];
    while (tools.get(group[0]!.name)?.readOnly && i + group.length < calls.length && tools.get(calls[i + group.length]!.name)?.readOnly) {
      group.push(calls[i + group.length]!);
    }
    const stopped = outcomes.some((o) => o.stop) ? "the run stopped for a permission" : halted() ? "a hook stopped the run" : undefined;
    outcomes.push(...(await Promise.all(group.map((call) => (stopped ? Promise.resolve(notRun(call, stopped)) : run(call))))));
    i += group.length;
  }
  return outcomes;
}

function notRun(call: ToolUseBlock, why: string): CallOutcome {
  return {
    block: { type: "tool_result", tool_use_id: call.id, is_error: true, content: `Not run: ${why}.` },
  };
}

/** Returns a reason to confirm when the same call with the same input comes a fourth time in a row. */
function repeatCounter(): (call: ToolUseBlock) => string | undefined {
  let last = "";
  let count = 0;
  return (call) => {
    const key = `${call.name}\u0000${JSON.stringify(call.input)}`;
    count = key === last ? count + 1 : 1;
    last = key;
    if (count <= REPEAT_LIMIT) return undefined;
    return `the model has made this exact call ${count - 1} times in a row; it may be stuck in a loop`;
  };
}

function partialReply(text: string): Message {
  return { role: "assistant", content: [{ type: "text", text }] };
}

