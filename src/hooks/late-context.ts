// What `async: true` hooks said once they ended in the background reaches the model at the next
// point the conversation grows: beside the next tool result (this chain), or beside the next
// prompt (the session takes it there). What is still waiting when the session ends is dropped.
import type { AfterToolCall, CallChain, ToolCallDone } from "../agent/types.ts";

type After = (call: ToolCallDone, signal: AbortSignal) => Promise<AfterToolCall | undefined>;

export function withLateContext(chain: CallChain, take: () => string[]): CallChain {
  const add = (first: After | undefined): After => async (call, signal) => {
    const heard = first ? await first(call, signal) : undefined;
    const late = take();
    if (late.length === 0) return heard;
    return { ...heard, context: [heard?.context, ...late].filter(Boolean).join("\n\n") };
  };
  return { ...chain, afterToolCall: add(chain.afterToolCall), onToolError: add(chain.onToolError) };
}
