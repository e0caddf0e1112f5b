import { abortableSleep } from "../../src/llm/attempts.ts";

/** How a streamed answer ends: cleanly, with the connection dropped, or never. */
export type StreamEnd = "close" | "cut" | "hang";

/** Open streams, each with a function that drops it; the server's close() drops them all. */
export type LiveStreams = Set<() => void>;

const sseHeaders = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

/**
 * Bun 1.4's fetch can discard bytes that arrive in the same read as the connection reset, so a cut
 * waits this long after its last event: the client reads the partial answer, then sees the drop.
 */
const cutGraceMs = 10;

const encoder = new TextEncoder();

/** A 200 text/event-stream response that writes `chunks`, `delayMs` apart, then ends as `end` says. */
export function sseResponse(
  chunks: string[],
  opts: { end: StreamEnd; delayMs?: number; live: LiveStreams; signal: AbortSignal; headers?: Record<string, string> },
): Response {
  const gone = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Not awaited: Bun sends each chunk as it is enqueued while this runs.
      void write(controller);
    },
    cancel() {
      gone.abort();
    },
  });

  async function write(controller: ReadableStreamDefaultController<Uint8Array>) {
    // An error with no reason resets the connection; Bun 1.4 logs any reason given to stderr.
    const drop = () => {
      gone.abort();
      tryTo(() => controller.error());
    };
    opts.live.add(drop);
    gone.signal.addEventListener("abort", () => opts.live.delete(drop), { once: true });
    opts.signal.addEventListener("abort", () => gone.abort(), { once: true });

    for (const [i, chunk] of chunks.entries()) {
      if (i > 0 && opts.delayMs) await abortableSleep(opts.delayMs, gone.signal);
      if (gone.signal.aborted) return;
      controller.enqueue(encoder.encode(chunk));
    }
    if (opts.end === "hang") return;
    if (opts.end === "cut") {
      await abortableSleep(Math.max(cutGraceMs, opts.delayMs ?? 0), gone.signal);
      return drop();
    }
    opts.live.delete(drop);
    tryTo(() => controller.close());
  }

  return new Response(body, { headers: { ...sseHeaders, ...opts.headers } });
}

/** The stream may already be closed or cancelled by the client; that is fine here. */
function tryTo(fn: () => void) {
  try {
    fn();
  } catch {
    // already closed
  }
}
