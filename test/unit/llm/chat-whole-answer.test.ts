// An OpenAI-compatible server that ignores `stream: true` and answers with the whole completion as
// one JSON body (some proxies and older local servers do): the reply is read all the same, text and
// tool calls; a JSON error sent with a 200 is that error; a stream cut before it said why the reply
// finished is retried, not taken as a finished reply.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { ProviderEvent } from "../../../src/agent/types.ts";
import { startFakeOpenAI, type FakeChatServer } from "../../fake/openai-server.ts";
import { runChat } from "../../support/chat-run.ts";

let fake: FakeChatServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ dialect: "vllm" });
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  fake.reset();
});
afterAll(() => fake.close());

const fast = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 };
const json = (body: unknown, status = 200) => ({ raw: () => Response.json(body, { status }) });
const completion = (message: Record<string, unknown>, finish: string, usage = { prompt_tokens: 30, completion_tokens: 5 }) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  model: "fake-model",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
  usage,
});
const last = (events: ProviderEvent[]) => events.at(-1)!;

test("a whole completion's text is streamed once and is the reply, with its usage", async () => {
  fake.script(json(completion({ content: "All in one piece." }, "stop")));
  const { events } = await runChat(fake.url, { retry: fast });
  expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text)).toEqual(["All in one piece."]);
  expect(last(events)).toMatchObject({ type: "done", content: [{ type: "text", text: "All in one piece." }], stop_reason: "end_turn", usage: { input_tokens: 30, output_tokens: 5 } });
});

test("a whole completion's tool calls become calls with their parsed inputs", async () => {
  fake.script(
    json(
      completion(
        {
          content: null,
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
            { id: "call_b", type: "function", function: { name: "read", arguments: '{"path":"b.ts"}' } },
          ],
        },
        "tool_calls",
      ),
    ),
  );
  const { events } = await runChat(fake.url, { retry: fast });
  expect(last(events)).toMatchObject({
    type: "done",
    stop_reason: "tool_use",
    content: [
      { type: "tool_use", id: "call_a", name: "read", input: { path: "a.ts" } },
      { type: "tool_use", id: "call_b", name: "read", input: { path: "b.ts" } },
    ],
    incomplete_tool_ids: [],
  });
});

test("a 200 whose JSON body is an error is that error (an auth error is not retried), never an empty reply", async () => {
  fake.script(json({ error: { message: "Invalid API key", type: "invalid_request_error", code: 401 } }));
  const { events } = await runChat(fake.url, { retry: fast });
  expect(events).toHaveLength(1);
  expect(last(events)).toMatchObject({ type: "error" });
  expect((last(events) as { message: string }).message).toContain("Invalid API key");
});

test("a stream that stops before saying why the reply finished is retried; the retry's reply is the one", async () => {
  const sse = (lines: string[]) => ({ raw: () => new Response(lines.map((l) => `data: ${l}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } }) });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] });
  fake.script(sse([chunk({ role: "assistant", content: "half" })]), sse([chunk({ role: "assistant", content: "whole answer" }), chunk({}, "stop"), "[DONE]"]));
  const { events, sleeps } = await runChat(fake.url, { retry: fast });
  expect(last(events)).toMatchObject({ type: "done", content: [{ type: "text", text: "whole answer" }], stop_reason: "end_turn" });
  expect(events.some((e) => e.type === "retry")).toBe(true);
  expect(sleeps).toHaveLength(1);
  expect(fake.requests).toHaveLength(2);
});

test("the request asks for a stream whatever the server then does", async () => {
  fake.script(json(completion({ content: "ok" }, "stop")));
  await runChat(fake.url, { retry: fast });
  expect(fake.requests[0]!.body).toMatchObject({ stream: true, model: "fake-model" });
});
