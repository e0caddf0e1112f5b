// What rein's own Anthropic transport (src/llm/anthropic.ts, plain fetch since the SDK left the start
// path) puts on the wire and how it reads what the SDK used to read for it: the headers the SDK
// sent, ANTHROPIC_CUSTOM_HEADERS, a provider's own headers, pings and an `error` event mid-stream,
// and error bodies that are not JSON.
import { afterEach, expect, test } from "bun:test";
import type { FakeServer } from "../../fake/server.ts";
import { fakeAnthropicPerFile, fastRetry as fast } from "../../support/fake-anthropic.ts";
import { ofType, runProvider, TEST_API_KEY } from "../../support/provider-run.ts";
import { VERSION } from "../../../src/version.ts";

let fake: FakeServer;
fakeAnthropicPerFile((started) => (fake = started));

const saved = process.env.ANTHROPIC_CUSTOM_HEADERS;
afterEach(() => {
  if (saved === undefined) delete process.env.ANTHROPIC_CUSTOM_HEADERS;
  else process.env.ANTHROPIC_CUSTOM_HEADERS = saved;
});

const sse = (events: [string, unknown][]) =>
  new Response(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
const start = { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 0 } } };

test("the SDK's headers: the key as a bearer token, the API version, JSON, rein's user agent", async () => {
  fake.script({ reply: [{ type: "text", text: "ok" }] });
  await runProvider(fake.url);
  const headers = fake.requests[0]!.headers;
  expect(headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  expect(headers["anthropic-version"]).toBe("2026-10-21");
  expect(headers["content-type"]).toBe("application/json");
  expect(headers["user-agent"]).toBe(`rein/${VERSION}`);
  expect(Object.keys(headers).filter((name) => name.startsWith("x-stainless"))).toEqual([]);
});

test("ANTHROPIC_CUSTOM_HEADERS lines are sent, and a provider's own headers win over them", async () => {
  process.env.ANTHROPIC_CUSTOM_HEADERS = "x-team: blue\nx-both: from-env\nnot a header line";
  fake.script({ reply: [{ type: "text", text: "ok" }] });
  await runProvider(fake.url, { headers: { "x-both": "from-provider" } });
  const headers = fake.requests[0]!.headers;
  expect(headers["x-team"]).toBe("blue");
  expect(headers["x-both"]).toBe("from-provider");
});

test("a base URL with a trailing slash posts to /v1/messages once", async () => {
  fake.script({ reply: [{ type: "text", text: "ok" }] });
  const { last } = await runProvider(`${fake.url}/`);
  expect(last?.type).toBe("done");
  expect(fake.requests[0]!.path).toBe("/v1/messages");
});

test("pings are skipped and the reply still completes", async () => {
  fake.script({
    raw: () =>
      sse([
        ["ping", { type: "ping" }],
        ["message_start", start],
        ["ping", { type: "ping" }],
        ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
        ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } }],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }],
        ["message_stop", { type: "message_stop" }],
      ]),
  });
  const { events, last } = await runProvider(fake.url);
  expect(ofType(events, "text_delta").map((e) => e.text)).toEqual(["hi"]);
  expect(last).toMatchObject({ type: "done", content: [{ type: "text", text: "hi" }], stop_reason: "end_turn" });
});

test("an error event mid-stream (overloaded) is retried by its type, then reported with its message", async () => {
  const overloaded = () => sse([["message_start", start], ["error", { type: "error", error: { type: "overloaded_error", message: "Overloaded right now" } }]]);
  fake.script({ raw: overloaded }, { raw: overloaded }, { raw: overloaded });
  const { events, last } = await runProvider(fake.url, { retry: fast });
  expect(ofType(events, "retry").length).toBe(fast.maxAttempts - 1);
  expect(last).toMatchObject({ type: "error", code: "overloaded" });
  expect((last as { message: string }).message).toContain("Overloaded right now");
});

test("an error status with a plain-text body says the text; with no body, that there was none", async () => {
  fake.script({ raw: () => new Response("upstream said no", { status: 400 }) });
  const plain = await runProvider(fake.url, { retry: fast });
  expect(plain.last).toMatchObject({ type: "error", code: "bad_request", message: "API error 400: upstream said no" });
  fake.script({ raw: () => new Response(null, { status: 400 }) });
  const empty = await runProvider(fake.url, { retry: fast });
  expect(empty.last).toMatchObject({ type: "error", code: "bad_request", message: "API error 400: status code (no body)" });
});

test("nothing listening: a connection error naming the cause, not the SDK's bare 'Connection error.'", async () => {
  const { last } = await runProvider("http://127.0.0.1:9", { retry: { ...fast, maxAttempts: 1 } });
  expect(last).toMatchObject({ type: "error", code: "connection" });
  const message = (last as { message: string }).message;
  expect(message).toStartWith("could not reach the API: ");
  expect(message).not.toContain("Connection error.");
  expect(message.length).toBeGreaterThan("could not reach the API: ".length + 3);
});
