// The session routes in process (server-kit.ts): prompts, asks, aborts, deletes and the SSE
// stream, each answer checked against the OpenAPI document.
import { expect, test } from "bun:test";
import { hostname } from "node:os";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { sseEventName } from "../../../src/server/sse.ts";
import { eventLog } from "../../support/event-log.ts";
import { ALLOWED_ORIGIN, auth, callProbe, checkedSse, expectError, say, TOKEN, useServer } from "./server-kit.ts";

const s = useServer();

test("no token, a wrong token and a token of another length are refused with 401", async () => {
  await expectError(await s.app.request("/sessions"), 401, "unauthorized");
  await expectError(await s.call("GET", "/sessions", { headers: { authorization: `Bearer ${"b".repeat(TOKEN.length)}` } }), 401, "unauthorized");
  await expectError(await s.call("GET", "/sessions", { headers: { authorization: `Bearer ${TOKEN}x` } }), 401, "unauthorized");
  await expectError(await s.call("GET", "/sessions", { headers: { authorization: TOKEN } }), 401, "unauthorized");
  // a token in the URL is never taken, not even for the page (the browser logs in: access.test.ts)
  await expectError(await s.app.request(`/sessions?token=${TOKEN}`), 401, "unauthorized");
  const page = await s.app.request(`/?token=${TOKEN}`);
  expect([page.status, page.headers.get("location")]).toEqual([303, "/login"]);
  expect((await s.call("GET", "/")).status).toBe(200);
  expect((await s.call("GET", "/sessions")).status).toBe(200);
});

test("GET /health needs no token", async () => {
  const res = await s.app.request("/health");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true, version: "0.0.0-test" });
});

test("a foreign Origin is refused with 403; the server's own and a configured origin pass", async () => {
  await expectError(await s.call("GET", "/sessions", { headers: { origin: "https://evil.example" } }), 403, "forbidden_origin");
  await expectError(await s.app.request("/sessions", { headers: { origin: "https://evil.example" } }), 403, "forbidden_origin");
  expect((await s.call("GET", "/sessions", { headers: { origin: "http://localhost" } })).status).toBe(200);
  expect((await s.call("GET", "/sessions", { headers: { origin: ALLOWED_ORIGIN } })).status).toBe(200);
});

test("malformed JSON is a 400 bad_request", async () => {
  const message = await expectError(await s.call("POST", "/sessions", { body: "{not json" }), 400, "bad_request");
  expect(message).toContain("not valid JSON");
  expect(await expectError(await s.call("POST", "/sessions", { body: "[]" }), 400, "bad_request")).toContain("object");
  const id = await s.newSession();
  await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: '{"text": "hi"' }), 400, "bad_request");
});

test("a body that fails validation is a 400 naming the field", async () => {
  expect(await expectError(await s.call("POST", "/sessions", { body: { permission_mode: "yolo" } }), 400, "bad_request")).toContain("permission_mode");
  expect(await expectError(await s.call("POST", "/sessions", { body: { allow: "bash(*)" } }), 400, "bad_request")).toContain("allow");
  expect(await expectError(await s.call("POST", "/sessions", { body: { colour: "blue" } }), 400, "bad_request")).toContain("colour");
  const id = await s.newSession();
  expect(await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: { text: 42 } }), 400, "bad_request")).toContain("text");
  expect(await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: {} }), 400, "bad_request")).toContain("text");
  expect(await expectError(await s.call("POST", `/sessions/${id}/permissions/ask_x`, { body: { reply: "maybe" } }), 400, "bad_request")).toContain("reply");
  expect(s.hub.isRunning(id)).toBe(false);
});

test("a body over 1 MiB is a 413, with or without a Content-Length; a prompt's (which may carry images) over 32 MiB", async () => {
  const id = await s.newSession();
  const big = JSON.stringify({ reply: "x".repeat((1 << 20) + 1) });
  const path = `/sessions/${id}/permissions/ask_x`;
  // A declared length is refused before the body is read; an undeclared one once it passes 1 MiB.
  await expectError(await s.call("POST", path, { body: big, headers: { "content-length": String(big.length) } }), 413, "too_large");
  await expectError(await s.call("POST", path, { body: big }), 413, "too_large");
  const streamed = new Blob([big]).stream();
  const res = await s.app.request(path, { method: "POST", headers: auth, body: streamed, duplex: "half" } as RequestInit);
  await expectError(res, 413, "too_large");
  const huge = JSON.stringify({ text: "x".repeat((32 << 20) + 1) });
  await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: huge }), 413, "too_large");
  expect(s.kit.store.events(id)).toEqual([]);
});

test("a prompt's images go to the model after its text; a bad image is a 400 naming it", async () => {
  const id = await s.newSession();
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  expect(await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "look", images: [{ media_type: "image/bmp", data: png }] } }), 400, "bad_request")).toContain("images");
  expect(await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "look", images: [{ media_type: "image/png", data: `data:image/png;base64,${png}` }] } }), 400, "bad_request")).toContain("base64");
  s.kit.fake.script(say("A dot."));
  const res = await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "look", images: [{ media_type: "image/png", data: png }] } });
  expect(res.status).toBe(200);
  const content = s.kit.fake.requests.at(-1)!.body.messages[0].content;
  expect(content[0]).toMatchObject({ type: "text", text: "look" });
  expect(content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: png } });
});

test("an unknown session is a 404 on every route", async () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/sessions/s_nope"],
    ["GET", "/sessions/s_nope/events"],
    ["POST", "/sessions/s_nope/prompt", { text: "hi" }],
    ["POST", "/sessions/s_nope/permissions/ask_1", { reply: "once" }],
    ["POST", "/sessions/s_nope/abort"],
    ["DELETE", "/sessions/s_nope"],
  ];
  for (const [method, path, body] of routes) await expectError(await s.call(method, path, { body }), 404, "not_found");
});

test("an unknown ask id is a 404", async () => {
  const id = await s.newSession();
  const message = await expectError(await s.call("POST", `/sessions/${id}/permissions/ask_nope`, { body: { reply: "once" } }), 404, "not_found");
  expect(message).toContain("ask_nope");
});

test("a permission answered twice: the second answer is a 409 already_answered", async () => {
  const id = await s.newSession({ ask: ["probe"] });
  const log = eventLog(s.hub.get(id));
  s.kit.fake.script(callProbe("toolu_p1"), say("probed it"));
  expect((await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "probe" } })).status).toBe(202);
  const ask = await log.waitFor("permission_ask");

  const pending = (await (await s.call("GET", `/sessions/${id}`)).json()) as { pending_asks: { id: string; tool: string }[] };
  expect(pending.pending_asks).toEqual([expect.objectContaining({ id: ask.id, tool: "probe" })]);
  const first = await s.call("POST", `/sessions/${id}/permissions/${ask.id}`, { body: { reply: "once" } });
  expect(first.status).toBe(200);
  expect(await first.json()).toEqual({ ok: true });
  await expectError(await s.call("POST", `/sessions/${id}/permissions/${ask.id}`, { body: { reply: "reject" } }), 409, "already_answered");

  expect(await log.waitFor("result")).toMatchObject({ status: "success", text: "probed it" });
  expect(log.of("tool_end")).toEqual([expect.objectContaining({ is_error: false, output: "probed" })]);
  expect(log.of("permission_reply")).toEqual([expect.objectContaining({ id: ask.id, reply: "once" })]);
});

test("a second prompt while one runs is a 409 busy; abort ends the first", async () => {
  const id = await s.newSession();
  const log = eventLog(s.hub.get(id));
  s.kit.fake.script({ hang: true, afterText: "thinking" });
  expect((await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "one" } })).status).toBe(202);
  await log.waitFor("text_delta");

  await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "two" } }), 409, "busy");
  const sessions = (await (await s.call("GET", "/sessions")).json()) as { sessions: { id: string; running: boolean }[] };
  expect(sessions.sessions.find((s) => s.id === id)?.running).toBe(true);

  expect(await (await s.call("POST", `/sessions/${id}/abort`)).json()).toEqual({ aborted: true });
  expect((await log.waitFor("result")).status).toBe("interrupted");
  expect(log.of("user").map((e) => e.text)).toEqual(["one"]);
});

test("?wait=1 answers with the run's result event", async () => {
  const id = await s.newSession();
  s.kit.fake.script(say("Hello."));
  const res = await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "hi" } });
  expect(res.status).toBe(200);
  const result = (await res.json()) as StampedEvent;
  expect(result).toMatchObject({ type: "result", status: "success", text: "Hello.", turns: 1, session_id: id });
  expect(s.kit.store.events(id).at(-1)).toEqual(result);
  expect(s.hub.info(id).running).toBe(false);
});

test("POST /abort stops a hanging prompt: result interrupted, the partial text kept", async () => {
  const id = await s.newSession();
  expect(await (await s.call("POST", `/sessions/${id}/abort`)).json()).toEqual({ aborted: false });
  s.kit.fake.script({ hang: true, afterText: "half of the answer" });
  const run = s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "tell me" } });
  await eventLog(s.hub.get(id)).waitFor("text_delta");

  expect(await (await s.call("POST", `/sessions/${id}/abort`)).json()).toEqual({ aborted: true });
  const res = await run;
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ type: "result", status: "interrupted" });

  const detail = (await (await s.call("GET", `/sessions/${id}`)).json()) as { session: { running: boolean }; messages: unknown[] };
  expect(detail.session.running).toBe(false);
  expect(detail.messages).toEqual([
    { role: "user", content: [{ type: "text", text: "tell me" }] },
    { role: "assistant", content: [{ type: "text", text: "half of the answer" }] },
  ]);
  expect(s.kit.store.messages(id).map((m) => m.status)).toEqual(["complete", "interrupted"]);
});

test("DELETE moves a session to the trash (aborting its prompt): then it is a 404 until restored; ?purge=1 deletes it for good", async () => {
  const id = await s.newSession();
  const log = eventLog(s.hub.get(id));
  s.kit.fake.script({ hang: true, afterText: "never finished" });
  expect((await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "wait" } })).status).toBe(202);
  await log.waitFor("text_delta");

  const res = await s.call("DELETE", `/sessions/${id}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ deleted: true, purged: false });
  expect((await log.waitFor("result")).status).toBe("interrupted");
  expect(await expectError(await s.call("GET", `/sessions/${id}`), 404, "not_found")).toContain("trash");
  await expectError(await s.call("DELETE", `/sessions/${id}`), 404, "not_found");
  expect(s.kit.store.getSession(id)?.deleted_at).toEqual(expect.any(Number));
  expect(s.kit.store.events(id).at(-1)).toMatchObject({ type: "result" });

  // restored (as `rein sessions restore` does), it is served again, then purged for good
  expect(s.kit.store.restoreSession(id)).toBe(true);
  expect((await s.call("GET", `/sessions/${id}`)).status).toBe(200);
  const purged = await s.call("DELETE", `/sessions/${id}?purge=1`);
  expect(await purged.json()).toEqual({ deleted: true, purged: true });
  expect(s.kit.store.getSession(id)).toBeUndefined();
});

test("DELETE ends the session's open event streams", async () => {
  const id = await s.newSession();
  const res = await s.call("GET", `/sessions/${id}/events`);
  const reader = res.body!.getReader();
  await reader.read(); // the stream is open (": open")
  expect((await s.call("DELETE", `/sessions/${id}`)).status).toBe(200);
  let done = false;
  while (!done) done = (await reader.read()).done;
  expect(done).toBe(true);
});

test("SSE: every stored event, with id = seq, event = type and the event as JSON data", async () => {
  const id = await s.newSession();
  s.kit.fake.script(say("Streamed over SSE."));
  expect((await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "hi" } })).status).toBe(200);

  const res = await s.call("GET", `/sessions/${id}/events`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const sse = checkedSse(res);
  const events = await sse.until((e) => e.event === "result");
  await sse.close();

  expect(events.map((e) => e.data)).toEqual(s.kit.store.events(id));
  for (const e of events) {
    expect(e.id).toBe(String(e.data.seq));
    expect(e.event).toBe(sseEventName(e.data.type));
  }
  expect(events.map((e) => e.event)).toEqual(["session", "user", "text_delta", "text_delta", "assistant", "result"]);
});

test("SSE: a client that leaves mid-turn does not stop it; Last-Event-ID resumes with no gap and no duplicate", async () => {
  const id = await s.newSession({ ask: ["probe"] });
  const log = eventLog(s.hub.get(id));
  s.kit.fake.script(callProbe("toolu_a"), callProbe("toolu_b"), say("both probes done"));

  const first = checkedSse(await s.call("GET", `/sessions/${id}/events`));
  expect((await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "probe twice" } })).status).toBe(202);
  const seenBefore = await first.until((e) => e.event === "tool_start");
  await first.close();
  const lastSeen = seenBefore.at(-1)!.data.seq;

  // The turn goes on without any client: it asks, is answered, and reaches the second ask.
  const ask = await log.waitFor("permission_ask");
  await s.call("POST", `/sessions/${id}/permissions/${ask.id}`, { body: { reply: "once" } });
  const second = await log.waitFor("permission_ask", (e) => e.id !== ask.id);

  const again = checkedSse(await s.call("GET", `/sessions/${id}/events`, { headers: { "last-event-id": String(lastSeen) } }));
  const replayed = await again.until((e) => e.data.seq === second.seq);
  expect((await s.call("POST", `/sessions/${id}/permissions/${second.id}`, { body: { reply: "once" } })).status).toBe(200);
  const live = await again.until((e) => e.event === "result");
  await again.close();

  const stored = s.kit.store.events(id);
  expect(stored.at(-1)).toMatchObject({ type: "result", status: "success", text: "both probes done" });
  expect(seenBefore.map((e) => e.data.seq)).toEqual(stored.slice(0, seenBefore.length).map((e) => e.seq));
  expect([...replayed, ...live].map((e) => e.data.seq)).toEqual(stored.filter((e) => e.seq > lastSeen).map((e) => e.seq));
  expect(live[0]?.event).toBe("permission_reply");

  // ?after=N does the same as the header
  const after = checkedSse(await s.call("GET", `/sessions/${id}/events?after=${stored.length - 2}`));
  expect((await after.until((e) => e.event === "result")).map((e) => e.data.seq)).toEqual([stored.length - 1, stored.length]);
  await after.close();
});

test("SSE: an idle stream gets the heartbeat comment", async () => {
  const id = await s.newSession();
  const sse = checkedSse(await s.call("GET", `/sessions/${id}/events`));
  expect(await sse.next()).toEqual({ comment: "open", retry: "2000" });
  expect(await sse.next()).toEqual({ comment: "ping" });
  expect(await sse.next()).toEqual({ comment: "ping" });
  await sse.close();
});

test("a session keeps what it was created with, so it opens the same way after a restart", async () => {
  const id = await s.newSession({ permission_mode: "plan", agent: "plan", deny: ["bash(git push *)"] });
  const row = s.kit.store.getSession(id)!;
  expect(JSON.parse(row.settings!)).toEqual({ permission_mode: "plan", agent: "plan", deny: ["bash(git push *)"] });
  expect(await (await s.call("GET", `/sessions/${id}`)).json()).toMatchObject({ session: { settings: { agent: "plan" } } });
});

test("a scope goes only with always, and a hub that cannot save keeps always to the session", async () => {
  const id = await s.newSession({ ask: ["probe"] });
  const log = eventLog(s.hub.get(id));
  s.kit.fake.script(callProbe("toolu_s"), say("done"));
  await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "probe" } });
  const ask = await log.waitFor("permission_ask");
  expect(await expectError(await s.call("POST", `/sessions/${id}/permissions/${ask.id}`, { body: { reply: "once", scope: "user" } }), 400, "bad_request")).toContain("scope");
  expect(await expectError(await s.call("POST", `/sessions/${id}/permissions/${ask.id}`, { body: { reply: "always", scope: "user" } }), 400, "bad_request")).toContain("session only");
  expect(await (await s.call("POST", `/sessions/${id}/permissions/${ask.id}`, { body: { reply: "always", scope: "session" } })).json()).toEqual({ ok: true });
  expect(await log.waitFor("result")).toMatchObject({ status: "success" });
});

test("a session another rein process is running (it holds the lease) answers a prompt with 409 busy", async () => {
  const id = await s.newSession();
  // the holder: a live process of this host (a lease with this process's own pid but not its token is an earlier, dead one)
  const holder = Bun.spawn(["sleep", "30"]);
  s.kit.store.db.query("INSERT INTO leases VALUES (?, 'another-process', ?, ?, ?, ?)").run(id, holder.pid, hostname(), Date.now(), Date.now() + 60_000);
  const message = await expectError(await s.call("POST", `/sessions/${id}/prompt`, { body: { text: "hi" } }), 409, "busy");
  holder.kill();
  await holder.exited;
  expect(message).toContain("in use by another rein process");
  expect(s.kit.store.events(id)).toEqual([]);
  s.kit.store.db.query("DELETE FROM leases WHERE session_id = ?").run(id);
  s.kit.fake.script(say("free again"));
  expect((await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text: "hi" } })).status).toBe(200);
});
