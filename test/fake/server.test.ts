import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import Anthropic, { AnthropicError, APIError, APIUserAbortError, RateLimitError } from "@anthropic-ai/sdk";
import type { MessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { startFakeAnthropic } from "./server.ts";
import type { FakeServer } from "./server.ts";

let fake: FakeServer;
let client: Anthropic;

const params = {
  model: "claude-test-1",
  max_tokens: 256,
  messages: [{ role: "user" as const, content: "hello" }],
};

beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 });
});

afterEach(() => {
  expect(fake.pending()).toBe(0);
  fake.reset();
});

afterAll(() => fake.close());

test("streamed text arrives in chunkSize deltas and reassembles", async () => {
  fake.script({ reply: [{ type: "text", text: "Hello, fake world!" }], chunkSize: 5 });

  const stream = client.messages.stream(params);
  const deltas: string[] = [];
  stream.on("text", (delta) => deltas.push(delta));
  const message = await stream.finalMessage();

  expect(deltas).toEqual(["Hello", ", fak", "e wor", "ld!"]);
  expect<unknown>(message.content).toEqual([{ type: "text", text: "Hello, fake world!" }]);
  expect(message.model).toBe("claude-test-1");
  expect(message.stop_reason).toBe("end_turn");
  expect(message.usage.input_tokens).toBe(Math.ceil(fake.requests[0]!.bodyText.length / 4));
  expect(message.usage.output_tokens).toBeGreaterThan(0);
});

test("scripted usage and stop reason are reported", async () => {
  fake.script({
    reply: [{ type: "text", text: "ok" }],
    stopReason: "stop_sequence",
    usage: { input_tokens: 1200, output_tokens: 7, cache_read_input_tokens: 1000, cache_creation_input_tokens: 30 },
  });

  const message = await client.messages.stream(params).finalMessage();

  expect(message.stop_reason).toBe("stop_sequence");
  expect(message.usage).toMatchObject({
    input_tokens: 1200,
    output_tokens: 7,
    cache_read_input_tokens: 1000,
    cache_creation_input_tokens: 30,
  });
});

test("tool_use input is sent in pieces and reassembled by the SDK", async () => {
  const input = { path: "src/main.ts", lines: [1, 20], opts: { follow: true } };
  fake.script({
    reply: [
      { type: "text", text: "Reading." },
      { type: "tool_use", name: "read", input },
    ],
  });

  const stream = client.messages.stream(params);
  const pieces: string[] = [];
  stream.on("inputJson", (piece) => pieces.push(piece));
  const message = await stream.finalMessage();

  expect(pieces.length).toBeGreaterThanOrEqual(2);
  expect(pieces.join("")).toBe(JSON.stringify(input));
  expect(message.stop_reason).toBe("tool_use");
  expect<unknown>(message.content[1]).toEqual({ type: "tool_use", id: "toolu_fake_1", name: "read", input });
});

test("thinking blocks stream with their signature", async () => {
  fake.script({
    reply: [
      { type: "thinking", thinking: "The user greets me.", signature: "sig-1" },
      { type: "text", text: "Hi." },
    ],
  });

  const message = await client.messages.stream(params).finalMessage();

  expect<unknown>(message.content).toEqual([
    { type: "thinking", thinking: "The user greets me.", signature: "sig-1" },
    { type: "text", text: "Hi." },
  ]);
});

test("stream: false gets one JSON message; json: true forces it", async () => {
  fake.script(
    { reply: [{ type: "tool_use", name: "ls", input: {}, id: "toolu_custom" }] },
    { reply: [{ type: "text", text: "as json" }], json: true },
  );

  const first = await client.messages.create(params);
  const res = await fetch(`${fake.url}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: JSON.stringify({ ...params, stream: true }),
  });

  expect<unknown>(first.content).toEqual([{ type: "tool_use", id: "toolu_custom", name: "ls", input: {} }]);
  expect(first.stop_reason).toBe("tool_use");
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(await res.json()).toMatchObject({ type: "message", content: [{ type: "text", text: "as json" }] });
});

test("an error step surfaces as APIError with status, type and retry-after", async () => {
  fake.script({ error: 429, retryAfter: 7 }, { error: 529 });

  const limited = await client.messages.create(params).catch((e: unknown) => e);
  const overloaded = await client.messages
    .stream(params)
    .finalMessage()
    .catch((e: unknown) => e);

  expect(limited).toBeInstanceOf(RateLimitError);
  const rateLimit = limited as RateLimitError;
  expect(rateLimit.status).toBe(429);
  expect(rateLimit.headers?.get("retry-after")).toBe("7");
  expect(rateLimit.error).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  expect(overloaded).toBeInstanceOf(APIError);
  expect((overloaded as APIError).status).toBe(529);
  expect((overloaded as APIError).error).toMatchObject({ error: { type: "overloaded_error" } });
});

test("an error step can carry its own body and headers", async () => {
  fake.script({
    error: 400,
    body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long" } },
    headers: { "x-custom": "1" },
  });

  const err = (await client.messages.create(params).catch((e: unknown) => e)) as APIError;

  expect(err.status).toBe(400);
  expect(err.message).toContain("prompt is too long");
  expect(err.headers?.get("x-custom")).toBe("1");
});

test("a cut step delivers the first delta, then the stream iteration throws", async () => {
  fake.script({ cut: [{ type: "text", text: "a partial answer that never ends" }] });

  const events: MessageStreamEvent[] = [];
  const iterate = async () => {
    for await (const event of client.messages.stream(params)) events.push(event);
  };

  const err = await iterate().catch((e: unknown) => e);
  expectDropped(err);
  expect(events.map((e) => e.type)).toEqual(["message_start", "content_block_start", "content_block_delta"]);
  expect(events[2]).toMatchObject({ delta: { type: "text_delta", text: "a partial answer" } });
});

test("a cut step with afterEvents: 1 drops right after message_start", async () => {
  fake.script({ cut: [{ type: "text", text: "never seen" }], afterEvents: 1 });

  const stream = client.messages.stream(params);
  const texts: string[] = [];
  stream.on("text", (t) => texts.push(t));

  expectDropped(await stream.finalMessage().catch((e: unknown) => e));
  expect(texts).toEqual([]);
});

test("maxTokensCut leaves the last tool call unfinished with stop_reason max_tokens", async () => {
  const input = { path: "a.txt", content: "x".repeat(40) };
  fake.script({
    maxTokensCut: [
      { type: "text", text: "Writing." },
      { type: "tool_use", name: "write", input },
    ],
  });

  const stream = client.messages.stream(params);
  const stops: number[] = [];
  stream.on("streamEvent", (e) => {
    if (e.type === "content_block_stop") stops.push(e.index);
  });
  const message = await stream.finalMessage();

  expect(message.stop_reason).toBe("max_tokens");
  expect(stops).toEqual([0]);
  expect<unknown>(message.content[0]).toEqual({ type: "text", text: "Writing." });
  expect(message.content[1]).toMatchObject({ type: "tool_use", name: "write" });
  expect(message.content[1]).not.toMatchObject({ input });
});

test("a hang step waits after its text until the client aborts", async () => {
  fake.script({ hang: true, afterText: "thinking about it" });
  const abort = new AbortController();

  const stream = client.messages.stream(params, { signal: abort.signal });
  const first = await new Promise<string>((resolve) => stream.on("text", resolve));
  abort.abort();

  expect(first).toBe("thinking about it");
  await expect(stream.finalMessage()).rejects.toBeInstanceOf(APIUserAbortError);
});

test("delayMs spaces the events out", async () => {
  fake.script({ reply: [{ type: "text", text: "slow and steady" }], delayMs: 60_000 });
  const abort = new AbortController();

  const stream = client.messages.stream(params, { signal: abort.signal });
  const first = await new Promise<string>((resolve) => stream.on("streamEvent", (e) => resolve(e.type)));
  const soFar = stream.currentMessage?.content;
  abort.abort();

  expect(first).toBe("message_start");
  expect(soFar).toEqual([]);
  await expect(stream.finalMessage()).rejects.toBeInstanceOf(APIUserAbortError);
});

test("close() ends hanging streams", async () => {
  const own = await startFakeAnthropic();
  const ownClient = new Anthropic({ apiKey: "test-key", baseURL: own.url, maxRetries: 0 });
  own.script({ hang: true, afterText: "..." });

  const stream = ownClient.messages.stream(params);
  await new Promise((resolve) => stream.on("text", resolve));
  await own.close();

  expectDropped(await stream.finalMessage().catch((e: unknown) => e));
});

test("a malformed stream rejects", async () => {
  fake.script({ malformed: true });
  const quiet = new Anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0, logLevel: "off" });

  const err = await quiet.messages
    .stream(params)
    .finalMessage()
    .catch((e: unknown) => e);

  expect(err).toBeInstanceOf(Error);
  expect(err).not.toBeInstanceOf(APIError);
  expect(String(err)).toMatch(/JSON/i);
});

test("requests are recorded with body and auth header", async () => {
  fake.script({ reply: [{ type: "text", text: "ok" }] });

  await client.messages.create(params);

  expect(fake.requests).toHaveLength(1);
  const [req] = fake.requests;
  expect(req).toMatchObject({ method: "POST", path: "/v1/messages" });
  expect(req!.body.model).toBe("claude-test-1");
  expect(req!.body.messages).toEqual(params.messages);
  expect(req!.headers.authorization).toBe("Bearer test-key");
  expect(JSON.parse(req!.bodyText)).toEqual(req!.body);
});

test("an empty queue answers 500 'no scripted step left'", async () => {
  const err = (await client.messages.create(params).catch((e: unknown) => e)) as APIError;

  expect(err).toBeInstanceOf(APIError);
  expect(err.status).toBe(500);
  expect(err.message).toContain("fake server: no scripted step left");
  expect(fake.requests).toHaveLength(1);
});

test("no auth header gives 401 and consumes no step; unknown paths give 404", async () => {
  fake.script({ reply: [{ type: "text", text: "still queued" }] });

  const noAuth = await fetch(`${fake.url}/v1/messages`, { method: "POST", body: JSON.stringify(params) });
  const wrongPath = await fetch(`${fake.url}/v1/files`, { headers: { "x-api-key": "k" } });

  expect(noAuth.status).toBe(401);
  expect(await noAuth.json()).toMatchObject({ error: { type: "authentication_error" } });
  expect(wrongPath.status).toBe(404);
  expect(fake.pending()).toBe(1);
  expect(fake.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/files"]);
  expect<unknown>((await client.messages.create(params)).content).toEqual([{ type: "text", text: "still queued" }]);
});

test("GET /v1/models lists one model and leaves a queued reply alone; a queued error answers it", async () => {
  fake.script({ reply: [{ type: "text", text: "for the messages" }] });
  const listed = await fetch(`${fake.url}/v1/models?limit=1`, { headers: { "x-api-key": "k" } });
  expect(await listed.json()).toMatchObject({ data: [{ type: "model", id: "claude-fake" }], has_more: false });
  expect(fake.pending()).toBe(1);
  fake.reset();
  fake.script({ error: 403 });
  const refused = await fetch(`${fake.url}/v1/models`, { headers: { "x-api-key": "k" } });
  expect(refused.status).toBe(403);
  expect(fake.pending()).toBe(0);
});

test("a raw step sees the request and answers anything", async () => {
  fake.script({
    raw: async (req) => Response.json({ echoed: ((await req.json()) as { model: string }).model }, { status: 418 }),
  });

  const res = await fetch(`${fake.url}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": "k" },
    body: JSON.stringify(params),
  });

  expect(res.status).toBe(418);
  expect(await res.json()).toEqual({ echoed: "claude-test-1" });
});

test("repeat answers whenever the queue is empty", async () => {
  const own = await startFakeAnthropic({ repeat: { reply: [{ type: "text", text: "ok" }] } });
  const ownClient = new Anthropic({ apiKey: "test-key", baseURL: own.url, maxRetries: 0 });
  own.script({ reply: [{ type: "text", text: "scripted first" }] });

  const texts = [];
  for (let i = 0; i < 3; i++) texts.push(await ownClient.messages.stream(params).finalText());
  await own.close();

  expect(texts).toEqual(["scripted first", "ok", "ok"]);
  expect(own.requests).toHaveLength(3);
});

test("reset clears the queue, the requests and the ids", async () => {
  fake.script({ reply: [{ type: "tool_use", name: "a", input: {} }] }, { reply: [{ type: "text", text: "b" }] });
  await client.messages.create(params);

  fake.reset();
  fake.script({ reply: [{ type: "tool_use", name: "a", input: {} }] });
  const message = await client.messages.create(params);

  expect(fake.requests).toHaveLength(1);
  expect(message.content[0]).toMatchObject({ id: "toolu_fake_1" });
});

/** A dropped connection reaches the SDK as a plain AnthropicError (not an HTTP APIError). */
function expectDropped(err: unknown) {
  expect(err).toBeInstanceOf(AnthropicError);
  expect(err).not.toBeInstanceOf(APIError);
  expect(String(err)).toContain("ECONNRESET");
}

test("strict: what the Messages API refuses gets its 400 and consumes no step; a valid request is answered", async () => {
  const strict = await startFakeAnthropic({ strict: true });
  const api = new Anthropic({ apiKey: "test-key", baseURL: strict.url, maxRetries: 0 });
  try {
    strict.script({ reply: [{ type: "text", text: "ok" }] });
    const call = { type: "tool_use" as const, id: "toolu_1", name: "read", input: {} };
    const refused: [string, Anthropic.MessageParam[]][] = [
      ["text content blocks must be non-empty", [{ role: "user", content: [{ type: "text", text: "" }] }]],
      ["text content blocks must contain non-whitespace text", [{ role: "user", content: [{ type: "text", text: " \n" }] }]],
      ["`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1", [{ role: "user", content: "go" }, { role: "assistant", content: [call] }, { role: "user", content: "other" }]],
      ["unexpected `tool_use_id` found in `tool_result` blocks: toolu_9", [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "x" }] }]],
      ["Could not process image", [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "bm90IGEgcG5n" } }] }]],
    ];
    for (const [message, messages] of refused) {
      const error = await api.messages.create({ ...params, messages }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(400);
      expect((error as APIError).message).toContain(message);
    }
    expect(strict.pending()).toBe(1);
    const answer = await api.messages.create({ ...params, messages: [{ role: "user", content: "go" }, { role: "assistant", content: [call] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }] }] });
    expect(answer.content).toEqual([{ type: "text", text: "ok" } as never]);
  } finally {
    await strict.close();
  }
});
