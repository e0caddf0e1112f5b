// The blocks a reply is made of, streamed from the fake Messages API through the real SDK and
// provider: thinking with its signature (sent back as it came), a server tool the API ran (web
// search) with its result, a tool call's input, and what the provider passes on as it streams.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import type { ProviderEvent } from "../../../src/agent/types.ts";
import { accumulate } from "../../../src/llm/accumulate.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { runProvider } from "../../support/provider-run.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const done = (events: ProviderEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`the stream ended with ${JSON.stringify(last)}`);
  return last;
};

test("thinking streams in pieces and comes back whole with its signature, before the text; it is not passed on as text", async () => {
  fake.script({ reply: [{ type: "thinking", thinking: "The user wants a greeting, so greet.", signature: "sig-abc" }, { type: "text", text: "Hello!" }], chunkSize: 5 });
  const { events } = await runProvider(fake.url);
  expect(done(events).content).toEqual([
    { type: "thinking", thinking: "The user wants a greeting, so greet.", signature: "sig-abc" },
    { type: "text", text: "Hello!" },
  ]);
  const streamed = events.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text).join("");
  expect(streamed).toBe("Hello!");
});

test("a web search the API ran: its call with the streamed query, and its result, kept in order for the next request", async () => {
  const results = [{ type: "web_search_result", url: "https://bun.sh", title: "Bun", encrypted_content: "xyz" }];
  fake.script({
    reply: [
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun runtime" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: results },
      { type: "text", text: "Bun is a runtime." },
    ],
    chunkSize: 3,
  });
  const { events } = await runProvider(fake.url);
  const reply = done(events);
  expect(reply.content).toEqual([
    { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun runtime" } },
    { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: results },
    { type: "text", text: "Bun is a runtime." },
  ]);
  // a server tool is not a call for rein to run
  expect(events.some((e) => e.type === "tool_use_start")).toBe(false);
  expect(reply.incomplete_tool_ids).toEqual([]);
  expect(reply.stop_reason).toBe("end_turn");
});

test("a tool call is announced by name as it starts, then comes whole with its input", async () => {
  fake.script({ reply: [{ type: "tool_use", id: "toolu_9", name: "read", input: { path: "a.ts" } }] });
  const { events } = await runProvider(fake.url);
  const start = events.findIndex((e) => e.type === "tool_use_start");
  expect(events[start]).toEqual({ type: "tool_use_start", name: "read" });
  expect(done(events)).toMatchObject({ content: [{ type: "tool_use", id: "toolu_9", name: "read", input: { path: "a.ts" } }], stop_reason: "tool_use", incomplete_tool_ids: [] });
});

test("a call with no input at all is an empty object, not invalid", async () => {
  fake.script({ reply: [{ type: "tool_use", id: "toolu_e", name: "todo", input: {} }] });
  const { events } = await runProvider(fake.url);
  expect(done(events).content).toEqual([{ type: "tool_use", id: "toolu_e", name: "todo", input: {} }]);
  expect(done(events)).not.toHaveProperty("invalid_tool_inputs");
});

// The accumulator on its own, fed the wire events the API sends in the cases a fake cannot produce.
test("a call whose block never closed, without max_tokens, is invalid: the stream ended before it was complete", () => {
  const acc = accumulate();
  acc.add({ type: "message_start", message: { usage: { input_tokens: 10, output_tokens: 1 } } } as never);
  acc.add({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_x", name: "bash", input: {} } } as never);
  acc.add({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"command": "l' } } as never);
  acc.add({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } } as never);
  acc.add({ type: "message_stop" } as never);
  const reply = acc.finish()!;
  expect(reply.invalid_tool_inputs).toEqual([{ id: "toolu_x", error: "the stream ended before it was complete" }]);
  expect(reply.incomplete_tool_ids).toEqual([]);
  expect(reply.content).toEqual([{ type: "tool_use", id: "toolu_x", name: "bash", input: {} }]);
  // usage: message_delta's counts replace message_start's where present
  expect(reply.usage).toEqual({ input_tokens: 10, output_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
});

test("an unreadable input's error shows its start, cut at 80 characters", () => {
  const acc = accumulate();
  const json = `{"content": "${"x".repeat(200)}`;
  acc.add({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_y", name: "write", input: {} } } as never);
  acc.add({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json } } as never);
  acc.add({ type: "content_block_stop", index: 0 } as never);
  acc.add({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: {} } as never);
  acc.add({ type: "message_stop" } as never);
  const [invalid] = acc.finish()!.invalid_tool_inputs!;
  expect(invalid!.error).toBe(`not valid JSON: ${json.slice(0, 77)}...`);
});

test("a stream that never said message_stop has no reply; a delta for a block never started is ignored", () => {
  const acc = accumulate();
  expect(acc.add({ type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "orphan" } } as never)).toBeUndefined();
  acc.add({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } as never);
  expect(acc.add({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } } as never)).toEqual({ type: "text_delta", text: "hi" });
  expect(acc.finish()).toBeUndefined();
  acc.add({ type: "message_stop" } as never);
  expect(acc.finish()!.content).toEqual([{ type: "text", text: "hi" }]);
});
