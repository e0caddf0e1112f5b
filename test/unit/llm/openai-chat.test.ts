// The Chat Completions provider through plain fetch against the scripted OpenAI-compatible fake,
// in each dialect: text, tool calls as each server family streams them, usage, stop reasons, and
// the quirks of COMPAT.md 7.2.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../../src/agent/types.ts";
import { startFakeOpenAI, type ChatDialect, type FakeChatServer } from "../../fake/openai-server.ts";
import { runChat } from "../../support/chat-run.ts";
import { ofType, sampleRequest } from "../../support/provider-run.ts";

const fast = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
const read = (path: string, id?: string) => ({ type: "tool_use" as const, name: "read", input: { path }, ...(id ? { id } : {}) });
const done = (events: ProviderEvent[]) => {
  const all = ofType(events, "done");
  expect(all).toHaveLength(1);
  return all[0]!;
};
const toolUses = (events: ProviderEvent[]) => done(events).content.filter((b) => b.type === "tool_use") as { id: string; name: string; input: unknown }[];

for (const dialect of ["openai", "ollama", "vllm"] as ChatDialect[]) {
  describe(`dialect ${dialect}`, () => {
    let fake: FakeChatServer;
    beforeAll(async () => {
      fake = await startFakeOpenAI({ dialect });
    });
    afterEach(() => {
      expect(fake.pending()).toBe(0);
      expect(fake.problems.flat()).toEqual([]);
      fake.reset();
    });
    afterAll(() => fake.close());

    test("text streams as text_delta events, then done with end_turn and the usage", async () => {
      fake.script({ reply: [{ type: "text", text: "Hello from a compatible server." }], usage: { input_tokens: 40, output_tokens: 9 }, reasoning: "let me think" });

      const { events } = await runChat(fake.url, { retry: fast });

      expect(ofType(events, "text_delta").map((e) => e.text).join("")).toBe("Hello from a compatible server.");
      expect(done(events)).toMatchObject({
        content: [{ type: "text", text: "Hello from a compatible server." }],
        stop_reason: "end_turn",
        usage: { input_tokens: 40, output_tokens: 9, cache_read_input_tokens: 0 },
        incomplete_tool_ids: [],
      });
      expect(JSON.stringify(done(events).content)).not.toContain("let me think");
    });

    test("two parallel tool calls come out as two calls with their own inputs and unique ids", async () => {
      fake.script({ reply: [{ type: "text", text: "Reading both." }, read("a.ts"), read("b.ts")] });

      const { events } = await runChat(fake.url, { retry: fast });

      const calls = toolUses(events);
      expect(calls.map((c) => c.input)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
      expect(new Set(calls.map((c) => c.id)).size).toBe(2);
      expect(done(events).stop_reason).toBe("tool_use");
      expect(ofType(events, "tool_use_start").map((e) => e.name)).toEqual(["read", "read"]);
    });

    test("a tool call cut by the output limit (finish_reason length) is incomplete, never run", async () => {
      fake.script({ lengthCut: [read("a-very-long-path/that/goes/on/and/on.ts")] });

      const { events } = await runChat(fake.url, { retry: fast });

      const [call] = toolUses(events);
      expect(done(events).stop_reason).toBe("max_tokens");
      expect(done(events).incomplete_tool_ids).toEqual([call!.id]);
      expect(call!.input).toEqual({});
    });
  });
}

describe("quirks, each on its own", () => {
  let fake: FakeChatServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ dialect: "openai" });
  });
  afterEach(() => {
    expect(fake.pending()).toBe(0);
    fake.reset();
  });
  afterAll(() => fake.close());

  const calls2 = [read("a.ts"), read("b.ts")];
  const cases: [string, object][] = [
    ["fragments without index", { noIndex: true }],
    ["index always 0, ids given", { indexAlwaysZero: true }],
    ["index always 0 and no ids, whole calls", { indexAlwaysZero: true, noIds: true, wholeCalls: true }],
    ["no ids at all", { noIds: true }],
    ["the same id on every call", { repeatedIds: true }],
    ["tool_calls with finish_reason stop", { stopWithToolCalls: true }],
    ["a choices: null usage chunk", { usageChoicesNull: true }],
    [": comment lines between chunks", { comments: true }],
    ["no [DONE] at the end", { noDone: true }],
  ];
  for (const [name, quirks] of cases) {
    test(`${name}: two calls, their inputs, unique ids of at most 40 characters, stop_reason tool_use`, async () => {
      fake.script({ reply: calls2, quirks });

      const { events } = await runChat(fake.url, { retry: fast });

      const calls = toolUses(events);
      expect(calls.map((c) => c.input)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
      expect(new Set(calls.map((c) => c.id)).size).toBe(2);
      expect(calls.every((c) => c.id.length > 0 && c.id.length <= 40)).toBe(true);
      expect(done(events).stop_reason).toBe("tool_use");
    });
  }

  test("Ollama's merged arguments {..}{..} on one index with no ids are split back into two calls", async () => {
    fake.script({ reply: [read("x")], rawArguments: '{"path":"a.ts"}{"path":"b.ts"}', quirks: { wholeCalls: true, noIds: true, indexAlwaysZero: true } });

    const { events } = await runChat(fake.url, { retry: fast });

    expect(toolUses(events).map((c) => c.input)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
  });

  test("arguments in a code fence with a trailing comma are repaired", async () => {
    fake.script({ reply: [read("x")], rawArguments: '```json\n{"path": "a.ts",}\n```' });

    const { events } = await runChat(fake.url, { retry: fast });

    expect(toolUses(events)[0]!.input).toEqual({ path: "a.ts" });
    expect(done(events).invalid_tool_inputs).toBeUndefined();
  });

  test("arguments that cannot be repaired: the call is marked invalid with the reason (the model is told), not incomplete", async () => {
    fake.script({ reply: [read("x")], rawArguments: "path=a.ts" });

    const { events } = await runChat(fake.url, { retry: fast });

    const [call] = toolUses(events);
    expect(done(events).incomplete_tool_ids).toEqual([]);
    expect(done(events).invalid_tool_inputs).toEqual([{ id: call!.id, error: "not valid JSON: path=a.ts" }]);
  });

  test("cached tokens from prompt_tokens_details are cache reads, left out of input_tokens", async () => {
    fake.script({ reply: [{ type: "text", text: "ok" }], usage: { input_tokens: 100, cached_tokens: 900, output_tokens: 5 } });

    const { events } = await runChat(fake.url, { retry: fast });

    expect(done(events).usage).toEqual({ input_tokens: 100, cache_read_input_tokens: 900, output_tokens: 5, cache_creation_input_tokens: 0 });
  });

  test("an error object mid-stream is retried like a cut stream, and the retried reply completes", async () => {
    fake.script({ midStreamError: { message: "upstream provider overloaded" } }, { reply: [{ type: "text", text: "second try" }] });

    const { events } = await runChat(fake.url, { retry: fast });

    expect(ofType(events, "retry")[0]!.reason).toContain("upstream provider overloaded");
    expect(done(events).content).toEqual([{ type: "text", text: "second try" }]);
  });

  test("a 401 mid-stream error is not retried", async () => {
    fake.script({ midStreamError: { message: "key revoked", code: 401 } });

    const { last } = await runChat(fake.url, { retry: fast, keyHint: "Check OPENAI_API_KEY." });

    expect(last).toMatchObject({ type: "error", code: "auth" });
    expect((last as { message: string }).message).toContain("key revoked");
    expect(fake.requests).toHaveLength(1);
  });

  test("401: auth, not retried, naming where the key comes from", async () => {
    fake.script({ error: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } });

    const { last } = await runChat(fake.url, { retry: fast, keyHint: "Check OPENAI_API_KEY." });

    expect(last).toMatchObject({ type: "error", code: "auth", status: 401 });
    expect((last as { message: string }).message).toBe("API error 401: the API key was refused (Incorrect API key provided). Check OPENAI_API_KEY.");
  });

  test("429 with retry-after waits what the server said, then succeeds", async () => {
    fake.script({ error: 429, retryAfter: 2 }, { reply: [{ type: "text", text: "ok" }] });

    const { events, sleeps } = await runChat(fake.url, { retry: fast });

    expect(sleeps).toEqual([5]);
    expect(ofType(events, "retry")[0]).toMatchObject({ attempt: 1, delay_ms: 5 });
    expect(done(events).content).toEqual([{ type: "text", text: "ok" }]);
  });

  test("400 context_length_exceeded is too_long (the loop compacts on it)", async () => {
    fake.script({ error: 400, body: { error: { message: "This model's maximum context length is 128000 tokens.", code: "context_length_exceeded" } } });

    const { last } = await runChat(fake.url, { retry: fast });

    expect(last).toMatchObject({ type: "error", code: "too_long" });
  });

  test("a cut stream and a malformed body are retried", async () => {
    fake.script({ cut: [{ type: "text", text: "half an answer that never ends" }] }, { malformed: true }, { reply: [{ type: "text", text: "whole" }] });

    const { events } = await runChat(fake.url, { retry: fast });

    expect(ofType(events, "retry")).toHaveLength(2);
    expect(done(events).content).toEqual([{ type: "text", text: "whole" }]);
  });

  test("a server that accepts and sends nothing is dropped after the idle timeout", async () => {
    fake.script({ hang: true }, { hang: true, afterRole: true });

    const { last, events } = await runChat(fake.url, { retry: { ...fast, maxAttempts: 2 }, idleTimeoutMs: 100 });

    expect(ofType(events, "retry")[0]!.reason).toContain("sent nothing for 0.1s");
    expect(last).toMatchObject({ type: "error", code: "connection" });
  });

  test("nothing listening: a connection error saying what to start", async () => {
    const { last } = await runChat("http://127.0.0.1:9/v1", { retry: { ...fast, maxAttempts: 1 }, unreachableHint: " (is ollama running? start it with: ollama serve)" });

    expect(last).toMatchObject({ type: "error", code: "connection" });
    expect((last as { message: string }).message).toContain("is ollama running?");
  });

  test("the request: system message first, tools as functions, max_tokens as the compat says, usage asked for", async () => {
    fake.script({ reply: [{ type: "text", text: "ok" }] });

    await runChat(fake.url, { retry: fast, compat: { maxTokensField: "max_completion_tokens" } });

    const body = fake.requests[0]!.body;
    expect(body.messages[0]).toEqual({ role: "system", content: "You are a test." });
    expect(body.tools[0]).toMatchObject({ type: "function", function: { name: "read", parameters: { type: "object" } } });
    expect(body.max_completion_tokens).toBe(1024);
    expect(body.max_tokens).toBeUndefined();
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-test");
  });

  test("a conversation with tool results, an image and ids too long for OpenAI converts into a valid request", async () => {
    fake.script({ reply: [{ type: "text", text: "seen" }] });
    const longId = `toolu_${"x".repeat(60)}`;
    const request = sampleRequest({
      model: "fake-model",
      messages: [
        { role: "user", content: [{ type: "text", text: "look" }] },
        { role: "assistant", content: [{ type: "thinking", thinking: "hm", signature: "sig" }, { type: "text", text: "Reading." }, { type: "tool_use", id: longId, name: "read", input: { path: "p.png" } }] },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: longId, content: [{ type: "text", text: "an image" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }] }],
        },
      ],
    });

    await runChat(fake.url, { retry: fast, request });

    expect(fake.problems[0]).toEqual([]);
    const messages = fake.requests[0]!.body.messages;
    const callId = messages[2].tool_calls[0].id;
    expect(callId.length).toBeLessThanOrEqual(40);
    expect(messages[3]).toEqual({ role: "tool", tool_call_id: callId, content: "an image" });
    expect(messages[4].content[1]).toEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } });
    expect(JSON.stringify(messages)).not.toContain("signature");
  });
});
