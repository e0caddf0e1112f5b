import { describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../../src/agent/types.ts";
import type { FakeServer } from "../../fake/server.ts";
import { fakeAnthropicPerFile, fastRetry as fast } from "../../support/fake-anthropic.ts";
import { anthropicStream } from "../../../src/llm/anthropic.ts";
import { ofType, runProvider, sampleRequest, TEST_API_KEY } from "../../support/provider-run.ts";
import { withoutCacheMarks } from "../../support/session-kit.ts";

let fake: FakeServer;
fakeAnthropicPerFile((started) => (fake = started));

function done(events: ProviderEvent[]) {
  const all = ofType(events, "done");
  expect(all).toHaveLength(1);
  return all[0]!;
}

describe("a successful turn", () => {
  test("text streams as text_delta events, then done with the content and usage", async () => {
    fake.script({
      reply: [{ type: "text", text: "Hello, streaming world!" }],
      chunkSize: 5,
      usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 3 },
    });

    const { events, last } = await runProvider(fake.url);

    expect(ofType(events, "text_delta").map((e) => e.text)).toEqual(["Hello", ", str", "eamin", "g wor", "ld!"]);
    expect(last).toEqual({
      type: "done",
      content: [{ type: "text", text: "Hello, streaming world!" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 3, cache_creation_input_tokens: 0 },
      incomplete_tool_ids: [],
    });
  });

  test("the request carries model, system, tools, max_tokens and messages, streamed, with the key", async () => {
    fake.script({ reply: [{ type: "text", text: "ok" }] });
    const request = sampleRequest({ max_tokens: 777, model: "claude-request-check" });

    await runProvider(fake.url, { request });

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    // SDK 1.x sends the key as a bearer token; older ones used x-api-key.
    expect([sent.headers["x-api-key"], sent.headers.authorization]).toContainEqual(expect.stringContaining(TEST_API_KEY));
    expect(sent.body.model).toBe("claude-request-check");
    // With cache breakpoints: the system prompt as one marked block, the last tool marked.
    expect(sent.body.system).toEqual([{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }]);
    expect(withoutCacheMarks(sent.body.tools)).toEqual(request.tools);
    expect(sent.body.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });
    expect(sent.body.max_tokens).toBe(777);
    expect(withoutCacheMarks(sent.body.messages)).toEqual(request.messages);
    expect(sent.body.stream).toBe(true);
  });

  test("a tool call's input is reassembled from its JSON pieces", async () => {
    const input = { path: "src/deeply/nested/file.ts", options: { lines: [1, 2, 3], note: "ünïcödé \"quoted\"" } };
    fake.script({
      reply: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_read_1", name: "read", input },
      ],
      chunkSize: 4,
    });

    const { events } = await runProvider(fake.url);

    const reply = done(events);
    expect(reply.stop_reason).toBe("tool_use");
    expect(reply.content).toEqual([
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "toolu_read_1", name: "read", input },
    ]);
    expect(reply.incomplete_tool_ids).toEqual([]);
  });

  test("a reply cut by max_tokens mid tool call reports the cut call as incomplete, its input {}", async () => {
    fake.script({
      maxTokensCut: [
        { type: "text", text: "Writing the file." },
        { type: "tool_use", id: "toolu_cut", name: "write", input: { path: "a.txt", content: "x".repeat(200) } },
      ],
    });

    const { events, last } = await runProvider(fake.url);

    const reply = done(events);
    expect(last).toBe(reply);
    expect(reply.stop_reason).toBe("max_tokens");
    expect(reply.incomplete_tool_ids).toEqual(["toolu_cut"]);
    expect(reply.content[1]).toEqual({ type: "tool_use", id: "toolu_cut", name: "write", input: {} });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("retries", () => {
  test("429 with retry-after 2 waits 2000 ms (the retry event says so), then succeeds", async () => {
    fake.script({ error: 429, retryAfter: 2 }, { reply: [{ type: "text", text: "after the wait" }] });

    const { events, sleeps } = await runProvider(fake.url, { retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 30_000 } });

    const retries = ofType(events, "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attempt).toBe(1);
    expect(retries[0]!.delay_ms).toBe(2000);
    expect(retries[0]!.reason).toContain("rate limited");
    expect(sleeps).toEqual([2000]);
    expect(done(events).content).toEqual([{ type: "text", text: "after the wait" }]);
    expect(fake.requests).toHaveLength(2);
  });

  test("without retry-after, the sleeps follow the backoff policy", async () => {
    fake.script({ error: 500 }, { error: 500 }, { reply: [{ type: "text", text: "ok" }] });

    const { events, sleeps } = await runProvider(fake.url, { retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 } });

    expect(ofType(events, "retry").map((r) => r.delay_ms)).toEqual(sleeps);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
    expect(done(events).content).toEqual([{ type: "text", text: "ok" }]);
  });

  for (const [status, code] of [
    [529, "overloaded"],
    [500, "server"],
  ] as const) {
    test(`${status} on every attempt: ${fast.maxAttempts - 1} retries, then an error with code ${code}`, async () => {
      fake.script({ error: status }, { error: status }, { error: status });

      const { events, last, sleeps } = await runProvider(fake.url, { retry: fast });

      expect(ofType(events, "retry").map((r) => r.attempt)).toEqual([1, 2]);
      expect(sleeps).toHaveLength(2);
      expect(last).toMatchObject({ type: "error", code, status });
      expect(ofType(events, "error")).toHaveLength(1);
      expect(ofType(events, "done")).toHaveLength(0);
      expect(fake.requests).toHaveLength(3);
    });
  }

  test("a stream cut mid reply is retried, and the retried reply completes", async () => {
    fake.script(
      { cut: [{ type: "text", text: "This reply will be cut off in the middle" }] },
      { reply: [{ type: "text", text: "Second try." }] },
    );

    const { events } = await runProvider(fake.url, { retry: fast });

    const kinds = events.map((e) => e.type);
    expect(kinds.indexOf("retry")).toBeGreaterThan(kinds.indexOf("text_delta"));
    expect(ofType(events, "retry")[0]!.reason).toMatch(/stream|connection|reach|ended/i);
    expect(done(events).content).toEqual([{ type: "text", text: "Second try." }]);
    expect(fake.requests).toHaveLength(2);
  });

  test("a stream that goes silent past idleTimeoutMs is dropped and retried as a connection error", async () => {
    fake.script({ hang: true, afterText: "thinking..." }, { reply: [{ type: "text", text: "awake" }] });

    const { events } = await runProvider(fake.url, { retry: fast, idleTimeoutMs: 200 });

    const retries = ofType(events, "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]!.reason).toContain("sent nothing for 0.2s");
    expect(done(events).content).toEqual([{ type: "text", text: "awake" }]);
    expect(fake.requests).toHaveLength(2);
  });

  test("a silent stream is a connection error (the code a retry is decided on)", async () => {
    fake.script({ hang: true });

    const { last } = await runProvider(fake.url, { retry: { ...fast, maxAttempts: 1 }, idleTimeoutMs: 100 });

    expect(last).toMatchObject({ type: "error", code: "connection" });
    expect((last as Extract<ProviderEvent, { type: "error" }>).message).toContain("sent nothing for 0.1s");
  });

  test("a stream that closes cleanly before message_stop is retried, never taken as a reply", async () => {
    const partial = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_p","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Half"}}\n\n',
    ].join("");
    fake.script(
      { raw: () => new Response(partial, { headers: { "content-type": "text/event-stream" } }) },
      { reply: [{ type: "text", text: "Whole." }] },
    );

    const { events } = await runProvider(fake.url, { retry: fast });

    expect(events.map((e) => e.type)).toEqual(["text_delta", "retry", "text_delta", "done"]);
    expect(ofType(events, "retry")[0]!.reason).toContain("ended before the reply was complete");
    expect(done(events).content).toEqual([{ type: "text", text: "Whole." }]);
  });

  test("a server that never answers the request is dropped after idleTimeoutMs and retried", async () => {
    fake.script({ raw: () => new Promise<Response>(() => {}) }, { reply: [{ type: "text", text: "there you are" }] });

    const { events } = await runProvider(fake.url, { retry: fast, idleTimeoutMs: 150 });

    expect(ofType(events, "retry")).toHaveLength(1);
    expect(ofType(events, "retry")[0]!.reason).toContain("sent nothing for 0.15s");
    expect(done(events).content).toEqual([{ type: "text", text: "there you are" }]);
  });

  test("a malformed body is never taken as an empty reply: it is retried, then reported", async () => {
    fake.script({ malformed: true }, { malformed: true }, { malformed: true });

    const { events, last } = await runProvider(fake.url, { retry: fast });

    expect(ofType(events, "done")).toHaveLength(0);
    expect(ofType(events, "retry")).toHaveLength(2);
    expect(last).toMatchObject({ type: "error", code: "server" });
    expect((last as Extract<ProviderEvent, { type: "error" }>).message).toContain("malformed response from the API");
    expect((last as Extract<ProviderEvent, { type: "error" }>).message).toContain("after 3 attempts");
    expect(fake.requests).toHaveLength(3);
  });

  test("a malformed body followed by a good one recovers", async () => {
    fake.script({ malformed: true }, { reply: [{ type: "text", text: "fine now" }] });

    const { events } = await runProvider(fake.url, { retry: fast });

    expect(ofType(events, "retry")).toHaveLength(1);
    expect(done(events).content).toEqual([{ type: "text", text: "fine now" }]);
  });
});

describe("failures that are not retried", () => {
  test("401: an auth error saying the key was refused, after exactly one request", async () => {
    fake.script({ error: 401 });

    const { events, last } = await runProvider(fake.url, { retry: fast });

    expect(ofType(events, "retry")).toHaveLength(0);
    expect(last).toMatchObject({ type: "error", code: "auth", status: 401 });
    const message = (last as Extract<ProviderEvent, { type: "error" }>).message;
    expect(message).toContain("API key was refused");
    expect(message).toContain("ANTHROPIC_API_KEY");
    expect(fake.requests).toHaveLength(1);
  });

  for (const message of ["prompt is too long: 210000 tokens > 200000 maximum", "input length and max_tokens exceed context limit: 190000 + 32000 > 200000", "The request exceeds the model's context window"]) {
    test(`400 "${message.slice(0, 30)}...": code too_long (the loop compacts on it), not retried`, async () => {
      fake.script({ error: 400, body: { type: "error", error: { type: "invalid_request_error", message } } });

      const { events, last } = await runProvider(fake.url, { retry: fast });

      expect(ofType(events, "retry")).toHaveLength(0);
      expect(last).toMatchObject({ type: "error", code: "too_long", status: 400 });
      expect(fake.requests).toHaveLength(1);
    });
  }

  test("400: bad_request with the API's own message, after exactly one request", async () => {
    fake.script({
      error: 400,
      body: { type: "error", error: { type: "invalid_request_error", message: "messages: roles must alternate" } },
    });

    const { events, last } = await runProvider(fake.url, { retry: fast });

    expect(ofType(events, "retry")).toHaveLength(0);
    expect(last).toMatchObject({ type: "error", code: "bad_request", status: 400 });
    expect((last as Extract<ProviderEvent, { type: "error" }>).message).toContain("roles must alternate");
    expect(fake.requests).toHaveLength(1);
  });

  test("an abort while the stream hangs ends at once with code aborted", async () => {
    fake.script({ hang: true, afterText: "Let me th" });
    const controller = new AbortController();
    const started = performance.now();

    const { events, last } = await runProvider(fake.url, {
      retry: fast,
      idleTimeoutMs: 60_000,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "text_delta") controller.abort();
      },
    });

    expect(ofType(events, "text_delta").map((e) => e.text)).toEqual(["Let me th"]);
    expect(last).toMatchObject({ type: "error", code: "aborted" });
    expect(ofType(events, "retry")).toHaveLength(0);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(fake.requests).toHaveLength(1);
  });

  test("an abort during the wait before a retry stops without another request", async () => {
    fake.script({ error: 529 });
    const controller = new AbortController();

    const { events, last } = await runProvider(fake.url, {
      retry: fast,
      signal: controller.signal,
      sleep: async () => controller.abort(),
    });

    expect(ofType(events, "retry")).toHaveLength(1);
    expect(last).toMatchObject({ type: "error", code: "aborted" });
    expect(fake.requests).toHaveLength(1);
  });

  test("an already-aborted signal sends no request", async () => {
    fake.script({ hang: true });
    const controller = new AbortController();
    controller.abort();

    const { events } = await runProvider(fake.url, { retry: fast, signal: controller.signal });

    expect(events).toEqual([{ type: "error", code: "aborted", message: "aborted" }]);
    expect(fake.requests).toHaveLength(0);
    fake.reset();
  });
});


describe("the connection", () => {
  test("opens when the provider is created, before any request", async () => {
    // A bare TCP listener sees connections and bytes, whoever sends them.
    const sockets: unknown[] = [];
    let connected!: () => void;
    let requested!: (socketIndex: number) => void;
    const connection = new Promise<void>((resolve) => (connected = resolve));
    const request = new Promise<number>((resolve) => (requested = resolve));
    const listener = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(socket) {
          sockets.push(socket);
          connected();
        },
        data(socket) {
          requested(sockets.indexOf(socket));
        },
      },
    });
    const within = <T>(promise: Promise<T>) => Promise.race([promise, Bun.sleep(3000).then(() => "timed out" as const)]);
    try {
      const stream = anthropicStream({ apiKey: TEST_API_KEY, baseURL: `http://127.0.0.1:${listener.port}` });
      expect(await within(connection)).toBeUndefined();
      expect(sockets).toHaveLength(1);

      const abort = new AbortController();
      const run = (async () => {
        for await (const _ of stream(sampleRequest(), abort.signal));
      })();
      // The request follows (over that connection once fetch's pool has it: Bun's business, and a race
      // on a loaded machine, so not asserted here).
      expect(await within(request)).toBeNumber();
      abort.abort();
      await run;
    } finally {
      listener.stop(true);
    }
  });

  test("behind a proxy it is not opened directly (fetch leaves the preconnect to the request, which uses the proxy)", async () => {
    let connections = 0;
    const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data: () => {} } });
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = "http://127.0.0.1:9";
    try {
      anthropicStream({ apiKey: TEST_API_KEY, baseURL: `http://127.0.0.1:${listener.port}` });
      await Bun.sleep(300);
      expect(connections).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
      listener.stop(true);
    }
  });

  test("is opened once per API, however many providers a process creates (a server's sessions)", async () => {
    let connections = 0;
    const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data: () => {} } });
    try {
      for (let i = 0; i < 5; i++) anthropicStream({ apiKey: TEST_API_KEY, baseURL: `http://127.0.0.1:${listener.port}` });
      await Bun.sleep(300);
      expect(connections).toBe(1);
    } finally {
      listener.stop(true);
    }
  });
});
