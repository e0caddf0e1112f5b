// A session's events over SSE: every stored event after the client's last seen seq, then each new
// one, with no gap and no duplicate; a comment heartbeat keeps idle streams open.
// The store is the buffer: the stream is pulled, and each pull reads the next page after the last
// seq sent, so a slow client costs one page, never a copy of the session. A client that has not
// taken what it was given for `stallMs` is disconnected (it resumes with Last-Event-ID), which frees
// its socket. Cancelling the body ends everything the stream holds.
import type { StampedEvent } from "../app/events.ts";

export type EventSource = {
  /** Stored events after `afterSeq`, at most `limit` of them, in seq order. */
  stored(afterSeq: number, limit: number): StampedEvent[];
  /** The seq of the session's last stored event (a subagent's live events go out after it). */
  lastSeq?(): number;
  /** Live events; returns the way to stop listening. */
  subscribe(listener: (event: StampedEvent) => void): () => void;
  /** Calls `end` when the session is deleted over HTTP; returns the way to stop watching. */
  onRemoved(end: () => void): () => void;
  /** False once the session is gone some other way (trashed by `rein sessions rm`); checked at each heartbeat. */
  exists(): boolean;
};

export type StreamLimits = { heartbeatMs: number; stallMs: number; pageSize: number };

/** A stream cut off because its client left it unread: what its next stream says first (docs/server.md). */
export type StreamCut = { type: "stream_cut"; session_id: string; seq: -1; reason: "stalled"; last_sent: number; unread_ms: number; at: number };
/** The events the server itself sends on a stream, besides the session's (docs/events.md). */
export const SERVER_EVENTS = ["stream_cut"] as const;

/**
 * The streams cut for a stall, by session and client address, kept (at most `max`, for `ttlMs`)
 * until that client resumes the session's stream: the resumed stream opens with a `stream_cut`.
 */
export class StreamCuts {
  private readonly cuts = new Map<string, StreamCut>();
  constructor(
    private readonly max = 1000,
    private readonly ttlMs = 10 * 60_000,
  ) {}

  record(client: string, cut: StreamCut): void {
    const key = `${cut.session_id}\n${client}`;
    this.cuts.delete(key);
    this.cuts.set(key, cut);
    if (this.cuts.size > this.max) this.cuts.delete(this.cuts.keys().next().value!);
  }

  take(sessionId: string, client: string, now: number): StreamCut | undefined {
    const key = `${sessionId}\n${client}`;
    const cut = this.cuts.get(key);
    this.cuts.delete(key);
    return cut && now - cut.at <= this.ttlMs ? cut : undefined;
  }
}

/** Who follows which session, for the cut notice (absent: no notice is kept). */
export type StreamClient = { cuts: StreamCuts; sessionId: string; client: string };

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };

const encoder = new TextEncoder();
/** What the stream tells an EventSource to wait before reconnecting. */
export const RECONNECT_MS = 2000;
/** Events the store could not save (seq -1) are only in memory; a client keeps at most this many. */
const MAX_UNSAVED = 100;
/**
 * A subagent's events, forwarded live with `parent_tool_use_id` (docs/agents.md), are stored in the
 * child's session, not this one: a client keeps at most this many unsent, and a client that falls
 * further behind misses the rest (they are in the child's own stream).
 */
export const MAX_FORWARDED = 1000;

/** An event of another session forwarded on this one's stream: a subagent's (its seq is the child's). */
const forwarded = (event: StampedEvent) => event.parent_tool_use_id !== undefined;

/** The SSE event name of an event: its type, except `error`, which EventSource keeps for a lost connection. */
export function sseEventName(type: string): string {
  return type === "error" ? "rein_error" : type;
}

export function frame(event: StampedEvent): string {
  // An event the store could not save (seq -1) goes out without an id: a client must not resume from
  // it; nor from a subagent's, whose seq counts the child's events.
  const id = event.seq === -1 || forwarded(event) ? "" : `id: ${event.seq}\n`;
  return `${id}event: ${sseEventName(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function eventStream(source: EventSource, afterSeq: number, limits: StreamLimits, now = Date.now, who?: StreamClient): ReadableStream<Uint8Array> {
  // A resumed stream (Last-Event-ID) whose client was cut off for a stall says so first.
  const cut = afterSeq > 0 ? who?.cuts.take(who.sessionId, who.client, now()) : undefined;
  let last = afterSeq;
  let unsaved: StampedEvent[] = [];
  /** a subagent's events, each after the last seq of this session seen when it came (it goes out after that one) */
  let children: { after: number; event: StampedEvent }[] = [];
  let seen = Math.max(afterSeq, source.lastSeq?.() ?? 0);
  let pingDue = false;
  let ended = false;
  let waiting = false;
  let givenAt = now();
  let wake: (() => void) | undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };

  const stop = (how: "close" | "stalled" | "cancel") => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    unwatch();
    // A stalled client gets its connection cut, not a clean end, so it reconnects when it wakes.
    if (how === "stalled") {
      controller?.error(new Error("the client stopped reading the session's events"));
      if (who) who.cuts.record(who.client, { type: "stream_cut", session_id: who.sessionId, seq: -1, reason: "stalled", last_sent: last, unread_ms: limits.stallMs, at: now() });
    }
    if (how === "close") controller?.close();
    signal();
  };

  const unsubscribe = source.subscribe((event) => {
    if (forwarded(event)) {
      if (children.length < MAX_FORWARDED) children.push({ after: seen, event });
    } else if (event.seq === -1) {
      if (unsaved.length < MAX_UNSAVED) unsaved.push(event);
    } else seen = Math.max(seen, event.seq);
    signal();
  });
  const unwatch = source.onRemoved(() => stop("close"));
  const heartbeat = setInterval(() => {
    if (!source.exists()) return stop("close");
    if (!waiting && now() - givenAt >= limits.stallMs) return stop("stalled");
    pingDue = true;
    signal();
  }, limits.heartbeatMs);

  // The page with the subagent events that came after each of its events, in the order they happened.
  const withChildren = (page: StampedEvent[]): StampedEvent[] => {
    if (children.length === 0) return page;
    const out: StampedEvent[] = [];
    for (const event of page) {
      while (children.length && children[0]!.after < event.seq) out.push(children.shift()!.event);
      out.push(event);
    }
    while (children.length && children[0]!.after <= last) out.push(children.shift()!.event);
    return out;
  };

  const nextChunk = async (): Promise<string | undefined> => {
    for (;;) {
      if (ended) return undefined;
      const page = source.stored(last, limits.pageSize);
      const extra = unsaved;
      unsaved = [];
      if (page.length) last = page.at(-1)!.seq;
      const text = [...extra, ...withChildren(page)].map(frame).join("");
      if (text) return text;
      if (pingDue) {
        pingDue = false;
        return ": ping\n\n";
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        // Bun 1.4's server holds back the end of the response head until the first body bytes, and its
        // fetch resolves only then: a stream with nothing stored would look unanswered until an event.
        // `retry` sets how long an EventSource waits before it reconnects (its default varies by browser).
        c.enqueue(encoder.encode(`: open\nretry: ${RECONNECT_MS}\n\n${cut ? `event: stream_cut\ndata: ${JSON.stringify(cut)}\n\n` : ""}`));
      },
      async pull(c) {
        waiting = true;
        const chunk = await nextChunk();
        waiting = false;
        givenAt = now();
        if (chunk !== undefined) c.enqueue(encoder.encode(chunk));
      },
      cancel: () => stop("cancel"),
    },
    { highWaterMark: 0 },
  );
}
