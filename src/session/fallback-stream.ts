// Claude Code's --fallback-model: a turn whose model is overloaded (or failing on the server's side,
// or rate limited) after the retries is tried once more on the fallback model, before anything of
// the failed reply was shown; a `retry` event says so.
import type { ProviderEvent, StreamFn } from "../agent/types.ts";

const FALLS_BACK = new Set(["overloaded", "server", "rate_limited"]);

export function withFallback(stream: StreamFn, fallback: string | undefined): StreamFn {
  if (!fallback) return stream;
  return async function* (request, signal) {
    const held: ProviderEvent[] = [];
    for await (const event of stream(request, signal)) {
      if (event.type === "error" && FALLS_BACK.has(event.code) && request.model !== fallback && held.every((e) => e.type === "retry")) {
        yield* held;
        yield { type: "retry", attempt: held.length + 1, delay_ms: 0, reason: `${request.model} failed (${event.message}); falling back to ${fallback} (--fallback-model)` };
        yield* stream({ ...request, model: fallback }, signal);
        return;
      }
      // Until the reply has begun, a retry notice is held: the fallback may still take its place.
      if (event.type === "retry" && held.every((e) => e.type === "retry")) {
        held.push(event);
        continue;
      }
      if (held.length) yield* held.splice(0);
      yield event;
    }
    yield* held;
  };
}
