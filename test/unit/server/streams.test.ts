// The SSE route as clients meet it: HEAD, clients that go away or stop reading, the error event's
// name, and sessions that go away under an open stream.
import { expect, test } from "bun:test";
import type { Session } from "../../../src/session/session.ts";
import { eventLog } from "../../support/event-log.ts";
import { checkedSse, expectError, say, useServer } from "./server-kit.ts";
import { sseReader } from "./sse-client.ts";

const s = useServer({ heartbeatMs: 20, stallMs: 60 });

/** How many listeners the session has (counted from here on), and a wait for the count to fall to 0. */
function listeners(session: Session): { count: () => number; released: () => Promise<void> } {
  let live = 0;
  let onZero: (() => void) | undefined;
  const subscribe = session.subscribe.bind(session);
  session.subscribe = (listener) => {
    live++;
    const off = subscribe(listener);
    return () => {
      live--;
      off();
      if (live === 0) onZero?.();
    };
  };
  return { count: () => live, released: () => (live === 0 ? Promise.resolve() : new Promise((resolve) => (onZero = resolve))) };
}

test("HEAD on the events route answers the head only and leaves nothing running", async () => {
  const id = await s.newSession();
  const { count } = listeners(s.hub.get(id));
  const res = await s.call("HEAD", `/sessions/${id}/events`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  // GET's stream is chunked: the head has no length, never a Content-Length of 0 (RFC 9110)
  expect(res.headers.get("content-length")).toBeNull();
  expect(await res.text()).toBe("");
  expect(count()).toBe(0);
  await expectError(await s.call("GET", "/sessions/s_nope/events"), 404, "not_found");
  expect((await s.call("HEAD", "/sessions/s_nope/events")).status).toBe(404);
});

test("a client that cancels the stream releases its subscription", async () => {
  const id = await s.newSession();
  const { count } = listeners(s.hub.get(id));
  const sse = sseReader(await s.call("GET", `/sessions/${id}/events`));
  expect(await sse.next()).toEqual({ comment: "open", retry: "2000" });
  expect(count()).toBe(1);
  await sse.close();
  expect(count()).toBe(0);
});

test("a client that stops reading is disconnected; it resumes with Last-Event-ID and misses nothing", async () => {
  const id = await s.newSession();
  s.kit.fake.script(say("first answer"));
  await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "one" } });
  const { count, released } = listeners(s.hub.get(id));
  const res = await s.call("GET", `/sessions/${id}/events`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes("event: result")) seen += decoder.decode((await reader.read()).value);
  const lastSeen = Math.max(...[...seen.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
  expect(count()).toBe(1);

  // The client stops reading; the session goes on, and the server cuts the stalled client off.
  s.kit.fake.script(say("second answer"));
  await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "two" } });
  await released();
  expect(String(await reader.read().catch((error: unknown) => error))).toContain("stopped reading");

  const again = checkedSse(await s.call("GET", `/sessions/${id}/events`, { headers: { "last-event-id": String(lastSeen) } }));
  const [cut, ...rest] = await again.until((e) => e.event === "result");
  await again.close();
  // the resumed stream says first that the last one was cut, and why; it has no id (Last-Event-ID stays)
  expect(cut).toMatchObject({ event: "stream_cut", data: { type: "stream_cut", session_id: id, seq: -1, reason: "stalled", unread_ms: 60 } });
  expect(cut!.id).toBe("");
  expect((cut!.data as unknown as { last_sent: number }).last_sent).toBeGreaterThanOrEqual(lastSeen);
  expect(rest.map((e) => e.data.seq)).toEqual(s.kit.store.events(id, lastSeen).map((e) => e.seq));
  expect(rest.at(-1)?.data).toMatchObject({ type: "result", text: "second answer" });
  // told once: the next resume is a plain one
  const later = checkedSse(await s.call("GET", `/sessions/${id}/events`, { headers: { "last-event-id": String(lastSeen) } }));
  expect((await later.until((e) => e.event === "result"))[0]?.event).not.toBe("stream_cut");
  await later.close();
});

test("a rein error goes out as the SSE event rein_error (EventSource keeps `error` for a lost connection); its JSON type stays error", async () => {
  const id = await s.newSession();
  s.kit.fake.script({ error: 400, body: { type: "error", error: { type: "invalid_request_error", message: "bad request from the test" } } });
  const sse = checkedSse(await s.call("GET", `/sessions/${id}/events`));
  await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "fail" } });
  const events = await sse.until((e) => e.event === "result");
  await sse.close();
  const failed = events.find((e) => e.data.type === "error");
  expect(failed?.event).toBe("rein_error");
  expect(events.map((e) => e.event)).not.toContain("error");
});

test("a session trashed by `rein sessions rm` meanwhile ends its open streams and is a 404 everywhere", async () => {
  const id = await s.newSession();
  const log = eventLog(s.hub.get(id));
  s.kit.fake.script(say("kept"));
  await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "hi" } });
  await log.waitFor("result");
  const res = await s.call("GET", `/sessions/${id}/events`);
  const reader = res.body!.getReader();
  expect(s.kit.store.trashSession(id)).toBe(true);
  let done = false;
  while (!done) done = (await reader.read()).done;
  for (const [method, path, body] of [
    ["GET", `/sessions/${id}`],
    ["GET", `/sessions/${id}/events`],
    ["POST", `/sessions/${id}/prompt`, { text: "again" }],
    ["POST", `/sessions/${id}/abort`],
    ["DELETE", `/sessions/${id}`],
  ] as const) {
    expect(await expectError(await s.call(method, path, { body }), 404, "not_found")).toContain("trash");
  }
  const listed = (await (await s.call("GET", "/sessions")).json()) as { sessions: { id: string }[] };
  expect(listed.sessions.map((x) => x.id)).not.toContain(id);
});

test("a Last-Event-ID that is not a seq is a 400", async () => {
  const id = await s.newSession();
  expect(await expectError(await s.call("GET", `/sessions/${id}/events`, { headers: { "last-event-id": "abc" } }), 400, "bad_request")).toContain("Last-Event-ID");
  await expectError(await s.call("GET", `/sessions/${id}/events?after=-1`), 400, "bad_request");
});
