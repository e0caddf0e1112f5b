// Provider faults seen from outside (issue 14): what an error page, a 200 carrying an error, a
// silent server and an unreadable tool input turn into, through the real provider code.
import { describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../../src/agent/types.ts";
import type { FakeServer } from "../../fake/server.ts";
import { fakeAnthropicPerFile, fastRetry as fast } from "../../support/fake-anthropic.ts";
import { ofType, runProvider } from "../../support/provider-run.ts";

let fake: FakeServer;
fakeAnthropicPerFile((started) => (fake = started));

const errorOf = (events: ProviderEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error last, got ${JSON.stringify(last)}`);
  return last;
};

/** A 50 KB error page as a load balancer sends it. */
const bigPage = [
  "<!DOCTYPE html><html><head><title>503 Service Unavailable</title>",
  `<style>${"body{color:red}".repeat(500)}</style><script>${"var x=1;".repeat(2000)}</script></head>`,
  "<body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p>",
  `<div>${"filler text ".repeat(3000)}</div></body></html>`,
].join("\n");

describe("error bodies are summarised", () => {
  test("a 503 with a 50 KB HTML page: every retry reason and the final error say status, title and first line, in a few hundred characters", async () => {
    expect(bigPage.length).toBeGreaterThan(50_000);
    const step = { error: 503, body: bigPage, headers: { "content-type": "text/html" } };
    fake.script(step, step, step);

    const { events } = await runProvider(fake.url, { retry: fast });

    const reasons = [...ofType(events, "retry").map((r) => r.reason), errorOf(events).message];
    expect(reasons).toHaveLength(3);
    for (const reason of reasons) {
      expect(reason.length).toBeLessThan(400);
      expect(reason).toContain("503");
      expect(reason).toContain('"503 Service Unavailable"');
      expect(reason).toContain("Service Unavailable");
      expect(reason).not.toContain("<");
      expect(reason).not.toContain("filler");
    }
    expect(errorOf(events).code).toBe("server");
  });

  test("a JSON error body gives its message, not the JSON", async () => {
    fake.script({ error: 400, body: { type: "error", error: { type: "invalid_request_error", message: "max_tokens: must be at most 64000" } } });

    const { events } = await runProvider(fake.url, { retry: fast });

    expect(errorOf(events)).toMatchObject({ code: "bad_request", status: 400, message: "API error 400: max_tokens: must be at most 64000" });
  });
});

describe("a 200 that is not a stream is never an empty reply", () => {
  test("a 200 whose JSON body is an error surfaces that error, with the status its type names", async () => {
    const body = JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    fake.script({ raw: () => new Response(body, { headers: { "content-type": "application/json" } }) });

    const { events } = await runProvider(fake.url, { retry: fast });

    expect(errorOf(events)).toMatchObject({ code: "auth", status: 401 });
    expect(errorOf(events).message).toContain("invalid x-api-key");
    expect(fake.requests).toHaveLength(1);
  });

  test("a 200 whose JSON error names no status is a server error, retried, and says what came", async () => {
    const body = JSON.stringify({ error: { message: "upstream model crashed" } });
    const step = { raw: () => new Response(body, { headers: { "content-type": "application/json" } }) };
    fake.script(step, step, step);

    const { events } = await runProvider(fake.url, { retry: fast });

    expect(ofType(events, "retry")).toHaveLength(2);
    expect(errorOf(events).code).toBe("server");
    expect(errorOf(events).message).toContain("answered 200 with an error: upstream model crashed");
  });

  test("a 200 HTML page (a captive portal, a proxy's login) says it was not an event stream", async () => {
    const step = { raw: () => new Response("<html><title>Sign in</title><body>Please log in to continue</body></html>", { headers: { "content-type": "text/html" } }) };
    fake.script(step, step, step);

    const { events } = await runProvider(fake.url, { retry: fast });

    expect(errorOf(events).message).toContain('answered 200 with text/html instead of an event stream: an HTML page "Sign in": Please log in to continue');
  });
});

describe("a silent provider: the whole wait is bounded", () => {
  test("hangs on every attempt stop once maxWaitMs has passed without a byte, long before maxAttempts, saying how to wait longer", async () => {
    fake.script(...Array.from({ length: 10 }, () => ({ hang: true as const })));

    const { events } = await runProvider(fake.url, { retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 1, maxWaitMs: 500 }, idleTimeoutMs: 200 });

    const error = errorOf(events);
    expect(error.code).toBe("connection");
    expect(error.message).toContain("without an answer");
    expect(error.message).toContain("REIN_STREAM_IDLE_MS");
    // 200 + 200 + the 100 left: three attempts on an idle machine, fewer on a loaded one; never the ten allowed.
    expect(fake.requests.length).toBeGreaterThanOrEqual(1);
    expect(fake.requests.length).toBeLessThanOrEqual(4);
    expect(ofType(events, "retry").every((r) => r.reason.startsWith("the API sent nothing for"))).toBe(true);
    fake.reset();
  });

  test("a stream that keeps sending is never cut by maxWaitMs: only silence counts", async () => {
    // About 1.4 s of streaming, 60 ms apart, against a 600 ms bound on silence (wide margins for a loaded machine).
    fake.script({ reply: [{ type: "text", text: "slow but steady, ".repeat(8) }], chunkSize: 8, delayMs: 60 });

    const { events } = await runProvider(fake.url, { retry: { ...fast, maxWaitMs: 600 }, idleTimeoutMs: 10_000 });

    expect(ofType(events, "done")).toHaveLength(1);
    expect(ofType(events, "retry")).toHaveLength(0);
  });
});

describe("an unreadable tool input is not blamed on the output limit", () => {
  const sse = (events: object[]) =>
    new Response(events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join(""), {
      headers: { "content-type": "text/event-stream" },
    });
  const head = { type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } };
  const call = (json: string, stop: boolean) => [
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "read", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json } },
    ...(stop ? [{ type: "content_block_stop", index: 0 }] : []),
  ];
  const end = (reason: string) => [
    { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: "message_stop" },
  ];

  test("a closed call whose JSON is broken, stop_reason tool_use: invalid (with the reason), not incomplete", async () => {
    fake.script({ raw: () => sse([head, ...call('{"path": "a.ts"', true), ...end("tool_use")]) });

    const { events } = await runProvider(fake.url, { retry: fast });

    const [done] = ofType(events, "done");
    expect(done!.incomplete_tool_ids).toEqual([]);
    expect(done!.invalid_tool_inputs).toEqual([{ id: "toolu_1", error: 'not valid JSON: {"path": "a.ts"' }]);
  });

  test("a call left open by stop_reason max_tokens is incomplete (the output limit was the cause)", async () => {
    fake.script({ raw: () => sse([head, ...call('{"path": "a', false), ...end("max_tokens")]) });

    const { events } = await runProvider(fake.url, { retry: fast });

    const [done] = ofType(events, "done");
    expect(done!.incomplete_tool_ids).toEqual(["toolu_1"]);
    expect(done!.invalid_tool_inputs).toBeUndefined();
  });
});
