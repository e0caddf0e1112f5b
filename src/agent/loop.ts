// The agent loop: one `while`. Stream a turn, run its tool calls, feed the results back; stop when
// the model stops, at the turn limit, on a permission stop, when the call chain halts it, or on abort.
import type { Tool } from "../sdk.ts";
import { promptTokens } from "./context-size.ts";
import { LoopState } from "./loop-state.ts";
import { runToolCall, type CallOutcome } from "./tool-call.ts";
import { isDeferred, toolDefinition } from "./tool-schema.ts";
import { toolUseIds, uniqueToolIds } from "./unique-tool-ids.ts";
import { textOf, type ContentBlock, type LoopConfig, type LoopIO, type Message, type ProviderEvent, type ResultStatus, type StopCheck, type ToolUseBlock, type Usage } from "./types.ts";

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
  const run = new LoopState(messages, config, io, signal);
  const repeats = repeatCounter();
  const usedIds = toolUseIds(messages);
  while (true) {
    const ended = run.beforeTurn();
    if (ended) return ended;
    run.turns++;
    // Loading tool files can take a while (each import is bounded, see registry/import-check.ts): an abort does not wait for it.
    const current = await untilAborted(io.tools(), signal);
    if (!current) return run.end("interrupted");
    const tools = new Map(current.map((t) => [t.name, t] as const));
    const request = { model: config.model, system: config.system, messages, tools: current.filter((t) => !isDeferred(t)).map(toolDefinition), max_tokens: config.maxTokens };
    const streamed = await run.streamTurn(request);
    if ("status" in streamed) return streamed;
    let { turn } = streamed;
    // Ids are made unique here, before the reply is shown or stored (some providers reuse them).
    const unique = uniqueToolIds(turn.content, usedIds);
    if (unique.renamed.size) turn = renameCalls(turn, unique.content, unique.renamed);
    const turnCost = run.count(turn.usage);
    const counted = promptTokens(turn.usage);
    run.measured = counted > 0 ? { tokens: counted, messages: streamed.sent } : undefined;
    io.emit({ type: "assistant", content: turn.content, stop_reason: turn.stop_reason, usage: turn.usage, cost_usd: turnCost, model: config.model });
    if (turn.content.length > 0) run.append({ role: "assistant", content: turn.content });
    run.text = textOf(turn.content) || run.text;

    const calls = turn.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (calls.length === 0) {
      if (turn.stop_reason === "pause_turn") continue;
      const stop = await finalReply(run, textOf(turn.content), turn.stop_reason);
      if (stop) return stop;
      continue;
    }
    const incomplete = new Set(turn.incomplete_tool_ids);
    const invalid = new Map((turn.invalid_tool_inputs ?? []).map((i) => [i.id, i.error] as const));
    const outcomes = await runCalls(
      calls,
      (call) => runToolCall(call, tools, config, io, signal, { incomplete: incomplete.has(call.id), unreadable: invalid.get(call.id), confirmReason: repeats(call) }),
      tools,
      () => run.halted(),
    );
    run.append({ role: "user", content: [...outcomes.map((o) => o.block), ...(io.inbox?.() ?? [])] });
    if (outcomes.some((o) => o.stop)) return run.end("permission", "stopped: a tool call needed a permission (--on-ask fail)");
    if (signal.aborted) return run.end("interrupted");
  }
}

/** A reply without tool calls would end the run: the stop checks may continue it (the result is undefined then). */
async function finalReply(run: LoopState, replyText: string, stopReason: string | null): Promise<LoopResult | undefined> {
  const { signal, text } = run;
  if (!replyText.trim()) return run.emptyReply(stopReason);
  const more = run.continued < STOP_CONTINUE_LIMIT ? await askStopChecks(run.io.chain?.stopChecks ?? [], { text, continued: run.continued }, signal) : undefined;
  if (signal.aborted) return run.end("interrupted");
  const stop = run.halted();
  if (stop) return run.haltEnd(stop);
  if (!more) return run.end("success");
  run.continued++;
  run.append({ role: "user", content: [{ type: "text", text: more }] });
  return undefined;
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


