// The call chain with one more after-call handler: the hooks' runs first (it may replace the
// output), then this one; both may add context, and both contexts go beside the result.
import type { CallChain } from "../agent/types.ts";
import { afterCalls } from "./after-calls.ts";

export function withAfterCall(chain: CallChain, extra: CallChain["afterToolCall"]): CallChain {
  if (!extra) return chain;
  return { ...chain, afterToolCall: afterCalls(chain.afterToolCall, extra)! };
}

/** The chain with one more stop check: the hooks' first (a Stop hook that continues wins), then this one. */
export function withStopCheck(chain: CallChain, extra: CallChain["beforeStop"]): CallChain {
  if (!extra) return chain;
  const first = chain.beforeStop;
  return {
    ...chain,
    async beforeStop(stop, signal) {
      return (first ? await first(stop, signal) : undefined) ?? (await extra(stop, signal));
    },
  };
}
