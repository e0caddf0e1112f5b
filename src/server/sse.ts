// A session's events over SSE: what the store holds after the client's last seen seq, then live
// events, with no gap and no duplicate between the two; a comment heartbeat keeps idle streams open.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { StampedEvent } from "../session/events.ts";
import type { SessionHub } from "./hub.ts";

export function eventStream(c: Context, hub: SessionHub, id: string, afterSeq: number, heartbeatMs: number): Response {
  return streamSSE(c, async (stream) => {
    const queue: StampedEvent[] = [];
    let wake: (() => void) | undefined;
    // Subscribe first, then replay: an event persisted in between is seen twice and skipped by seq.
    const unsubscribe = hub.subscribe(id, (event) => {
      queue.push(event);
      wake?.();
    });
    stream.onAbort(() => {
      unsubscribe();
      wake?.();
    });
    const unwatch = hub.onRemoved(id, () => void stream.close().then(() => wake?.()));
    // Bun 1.4's server holds back the end of the response head until the first body bytes, and its
    // fetch resolves only then: a stream with nothing stored would look unanswered until an event.
    await stream.write(": open\n\n");
    const heartbeat = setInterval(() => void stream.write(": ping\n\n").catch(() => {}), heartbeatMs);
    let last = afterSeq;
    const send = async (event: StampedEvent) => {
      if (event.seq <= last && event.seq !== -1) return;
      if (event.seq !== -1) last = event.seq;
      // An event the store could not save (seq -1) goes out without an id: a client must not resume from it.
      await stream.writeSSE({ ...(event.seq === -1 ? {} : { id: String(event.seq) }), event: event.type, data: JSON.stringify(event) });
    };
    try {
      for (const event of hub.storedEvents(id, afterSeq)) await send(event);
      while (!stream.aborted && !stream.closed) {
        const next = queue.shift();
        if (next) {
          await send(next);
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      clearInterval(heartbeat);
      unwatch();
      unsubscribe();
    }
  });
}
