// Reads a text/event-stream body frame by frame: the server's tests (in process and against the
// binary) and the bench read rein's SSE stream through it.
import type { StampedEvent } from "../../../src/agent/types.ts";

/** One frame as sent: an event (`id`, `event`, `data`) or a comment such as the heartbeat. */
export type SseFrame = { id?: string; event?: string; data?: string; comment?: string; retry?: string };
/** An event frame with its data parsed. */
export type SseEvent = { id: string; event: string; data: StampedEvent };

export type SseReader = {
  /** The next frame, comments included; rejects when the stream ends first. */
  next(): Promise<SseFrame>;
  /** Events (comments skipped) up to and including the first that passes `stop`. */
  until(stop: (event: SseEvent) => boolean): Promise<SseEvent[]>;
  /** Disconnects (cancels the body), as a client that goes away does. */
  close(): Promise<void>;
};

export function sseReader(response: Response): SseReader {
  if (!response.body) throw new Error(`no body (status ${response.status})`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";

  const next = async (): Promise<SseFrame> => {
    for (;;) {
      const end = buffered.indexOf("\n\n");
      if (end !== -1) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        return parseFrame(block);
      }
      const { done, value } = await reader.read();
      if (done) throw new Error(`the event stream ended${buffered ? ` with an unfinished frame: ${buffered}` : ""}`);
      buffered += decoder.decode(value, { stream: true });
    }
  };

  return {
    next,
    async until(stop) {
      const seen: SseEvent[] = [];
      for (;;) {
        const frame = await next();
        if (frame.comment !== undefined) continue;
        const event = { id: frame.id ?? "", event: frame.event ?? "", data: JSON.parse(frame.data ?? "null") as StampedEvent };
        seen.push(event);
        if (stop(event)) return seen;
      }
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    const field = /^(id|event|data|retry): ?(.*)$/.exec(line);
    if (field?.[1] === "data") data.push(field[2]!);
    else if (field) frame[field[1] as "id" | "event" | "retry"] = field[2];
  }
  if (data.length) frame.data = data.join("\n");
  return frame;
}
