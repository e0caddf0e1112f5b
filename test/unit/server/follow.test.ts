// Who an open event stream follows: the session object the terminal hands the hub after reopening
// its session (a Tab to another agent), and the subagents whose events the session forwards.
import { expect, test } from "bun:test";
import type { StampedEvent } from "../../../src/app/events.ts";
import { Session } from "../../../src/session/session.ts";
import { eventStream, MAX_FORWARDED, type EventSource } from "../../../src/server/sse.ts";
import { say, useServer } from "./server-kit.ts";
import { sseReader } from "./sse-client.ts";

// No heartbeat in these tests' time: only the session's own notifications wake a stream.
const s = useServer({ heartbeatMs: 600_000 });

test("a stream open on a session goes on with the object the terminal hands over (hub.adopt) after reopening it", async () => {
  const id = await s.newSession();
  const first = s.hub.get(id);
  s.hub.adopt(first);
  const sse = sseReader(await s.call("GET", `/sessions/${id}/events`));
  expect(await sse.next()).toEqual({ comment: "open", retry: "2000" });

  // The terminal reopens its session (another agent) and hands the new object over.
  const reopened = Session.open(s.kit.store.getSession(id)!, s.kit.options());
  reopened.continueFrom(first);
  s.hub.adopt(reopened);
  s.kit.fake.script(say("from the reopened session"));
  // Read first: the stream waits for a notification, which only the object it follows can give.
  const read = sse.until((e) => e.data.type === "result");
  const result = await reopened.prompt("hello again");
  expect(result.status).toBe("success");
  const events = await read;
  expect(events.map((e) => e.data.type)).toContain("user");
  expect(events.at(-1)!.data).toMatchObject({ type: "result", text: "from the reopened session" });
  await sse.close();
});

/** A source over an in-memory list of this session's events, with live notification. */
function memorySource() {
  const stored: StampedEvent[] = [];
  const listeners = new Set<(e: StampedEvent) => void>();
  const source: EventSource = {
    stored: (after, limit) => stored.filter((e) => e.seq > after).slice(0, limit),
    lastSeq: () => stored.at(-1)?.seq ?? 0,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onRemoved: () => () => {},
    exists: () => true,
  };
  const own = (seq: number, type = "text_delta") => {
    const event = { type, text: `own ${seq}`, session_id: "s_parent", seq } as unknown as StampedEvent;
    stored.push(event);
    for (const l of listeners) l(event);
  };
  const child = (seq: number) => {
    const event = { type: "text_delta", text: `child ${seq}`, session_id: "s_child", seq, parent_tool_use_id: "toolu_task" } as unknown as StampedEvent;
    for (const l of listeners) l(event);
  };
  return { source, own, child };
}

test("a subagent's forwarded events reach the stream in the order they came, without an id (their seq is the child's)", async () => {
  const { source, own, child } = memorySource();
  own(1);
  const body = eventStream(source, 0, { heartbeatMs: 600_000, stallMs: 600_000, pageSize: 32 });
  const reader = sseReader(new Response(body));
  expect(await reader.next()).toEqual({ comment: "open", retry: "2000" });
  // Nothing read yet: the events pile up, and go out in the order they happened.
  child(1);
  own(2, "tool_start");
  child(2);
  child(3);
  own(3, "tool_end");
  const frames = [];
  for (let i = 0; i < 6; i++) frames.push(await reader.next());
  expect(frames.map((f) => JSON.parse(f.data!).text ?? JSON.parse(f.data!).type)).toEqual(["own 1", "child 1", "own 2", "child 2", "child 3", "own 3"]);
  expect(frames.map((f) => f.id)).toEqual(["1", undefined, "2", undefined, undefined, "3"]);
  expect(JSON.parse(frames[1]!.data!)).toMatchObject({ session_id: "s_child", parent_tool_use_id: "toolu_task" });
  await reader.close();
});

test("a stream opened after a session's stored events puts a subagent's events after them; a client far behind keeps a bounded number", async () => {
  const { source, own, child } = memorySource();
  for (let seq = 1; seq <= 3; seq++) own(seq);
  const body = eventStream(source, 0, { heartbeatMs: 600_000, stallMs: 600_000, pageSize: 2 });
  const reader = sseReader(new Response(body));
  await reader.next();
  for (let i = 0; i < MAX_FORWARDED + 50; i++) child(i);
  const texts: string[] = [];
  for (let i = 0; i < 3 + MAX_FORWARDED; i++) texts.push(JSON.parse((await reader.next()).data!).text);
  expect(texts.slice(0, 4)).toEqual(["own 1", "own 2", "own 3", "child 0"]);
  expect(texts.at(-1)).toBe(`child ${MAX_FORWARDED - 1}`);
  own(4);
  expect(JSON.parse((await reader.next()).data!).text).toBe("own 4");
  await reader.close();
});
