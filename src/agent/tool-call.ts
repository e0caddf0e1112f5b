// A tool call, start to end: its `tool_start`, the list of handlers it runs through (call-engine.ts;
// the loop's owner gives the list, the engine's own steps when it gives none), then its result
// bounded, its `tool_end`, and the block the model reads. Nothing here throws for a bad call: every
// failure is a result written for the model to act on.
import type { Tool } from "../sdk.ts";
import { compose, type CallContext, type CallOptions, type CallResult } from "./call-engine.ts";
import { CALL_STEPS } from "./call-steps.ts";
import type { LoopConfig, LoopIO, ToolResultBlock, ToolUseBlock } from "./types.ts";

export type { CallOptions } from "./call-engine.ts";
export type CallOutcome = { block: ToolResultBlock; stop?: boolean };

/** The engine's list, composed once. */
const DEFAULT = compose(CALL_STEPS);
const composed = new WeakMap<object, (c: CallContext) => Promise<void>>();

export async function runToolCall(
  call: ToolUseBlock,
  tools: ReadonlyMap<string, Tool>,
  config: LoopConfig,
  io: LoopIO,
  signal: AbortSignal,
  options: CallOptions = {},
): Promise<CallOutcome> {
  io.emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
  const c: CallContext = { call, config, io, signal, options, tools, input: call.input, asks: [], notes: [] };
  await handlersOf(io)(c);
  return finish(c, c.result ?? { output: `The handlers of this call ended it without a result, so it did not run.`, isError: true, durationMs: 0 });
}

function handlersOf(io: LoopIO): (c: CallContext) => Promise<void> {
  const list = io.handlers;
  if (!list) return DEFAULT;
  let run = composed.get(list);
  if (!run) composed.set(list, (run = compose(list)));
  return run;
}

/** The result as the model will read it: bounded (failed runs too: a command that times out can print as much as one that succeeds), with the handlers' notes beside it. */
function finish(c: CallContext, result: CallResult): CallOutcome {
  const { call, io } = c;
  const bounded = io.bound(result.output, call.id);
  io.emit({
    type: "tool_end",
    id: call.id,
    name: call.name,
    is_error: result.isError,
    output: bounded.output,
    truncated: bounded.truncated,
    ...(result.metadata ? { metadata: result.metadata } : {}),
    ...(result.refused ? { refused: true } : {}),
  });
  const text = [bounded.output || "(no output)", ...c.notes].join("\n\n");
  const images = result.images;
  const content: ToolResultBlock["content"] = images?.length
    ? [{ type: "text", text }, ...images.map((i) => ({ type: "image" as const, source: { type: "base64" as const, media_type: i.mediaType, data: i.base64 } }))]
    : text;
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: call.id, content };
  if (result.isError) block.is_error = true;
  return { block, stop: result.stop };
}
