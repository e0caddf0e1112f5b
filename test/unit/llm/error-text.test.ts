// What a provider's failure says and which code it gets, whatever API family sent it: the status
// and the error type decide the code (auth, rate limit, overloaded, server, bad request, too long),
// the body becomes one short line, and Bun's fetch hints are dropped.
import { expect, test } from "bun:test";
import { bodySummary, codeForStatus, errorMessageOf, errorTypeOf, fetchErrorText, httpFailure, isTooLong } from "../../../src/llm/error-text.ts";

test("the status decides the code; an error type decides it where the status does not", () => {
  const cases: [number | undefined, string | undefined, string][] = [
    [401, undefined, "auth"],
    [403, undefined, "auth"],
    [400, "authentication_error", "auth"],
    [undefined, "invalid_api_key", "auth"],
    [429, undefined, "rate_limited"],
    [400, "rate_limit_exceeded", "rate_limited"],
    [529, undefined, "overloaded"],
    [undefined, "overloaded_error", "overloaded"],
    [500, undefined, "server"],
    [503, undefined, "server"],
    [undefined, "server_error", "server"],
    [408, undefined, "server"],
    [409, undefined, "server"],
    [400, undefined, "bad_request"],
    [404, undefined, "bad_request"],
    [422, "invalid_request_error", "bad_request"],
    [undefined, undefined, "unknown"],
  ];
  for (const [status, type, code] of cases) expect({ status, type, code: codeForStatus(status, type) as string }).toEqual({ status, type, code });
});

test("a prompt over the context window is too_long, in each provider's words, only on a 400 or 413 (or no status)", () => {
  for (const detail of [
    "prompt is too long: 210000 tokens > 200000 maximum",
    "This model's maximum context length is 128000 tokens",
    "context_length_exceeded",
    "the request exceeds the model's context window",
    "Too many input tokens",
    "context length exceeded",
  ]) {
    expect({ detail, tooLong: isTooLong(400, detail) }).toEqual({ detail, tooLong: true });
  }
  expect(isTooLong(413, "prompt is too long")).toBe(true);
  expect(isTooLong(undefined, "prompt is too long")).toBe(true);
  expect(isTooLong(500, "prompt is too long")).toBe(false);
  expect(isTooLong(400, "max_tokens is too large")).toBe(false);
  expect(httpFailure(400, "prompt is too long: 3 > 2", { keyHint: "" }).code).toBe("too_long");
});

test("the message: an auth failure names where the key comes from; rate limits and overload say so; the status leads", () => {
  expect(httpFailure(401, "invalid x-api-key", { keyHint: "Check ANTHROPIC_API_KEY." })).toEqual({ code: "auth", status: 401, message: "API error 401: the API key was refused (invalid x-api-key). Check ANTHROPIC_API_KEY." });
  expect(httpFailure(429, "slow down", { keyHint: "" }).message).toBe("API error 429: rate limited (slow down)");
  expect(httpFailure(529, "Overloaded", { keyHint: "" }).message).toBe("API error 529: the API is overloaded (Overloaded)");
  expect(httpFailure(500, "boom", { keyHint: "" }).message).toBe("API error 500: boom");
  expect(httpFailure(undefined, "Connection error.", { keyHint: "" })).toEqual({ code: "unknown", message: "API error: Connection error." });
});

test("retry-after (seconds, or retry-after-ms) comes with the failure", () => {
  expect(httpFailure(429, "x", { keyHint: "", headers: new Headers({ "retry-after": "7" }) }).retryAfterMs).toBe(7000);
  expect(httpFailure(529, "x", { keyHint: "", headers: new Headers({ "retry-after-ms": "250" }) }).retryAfterMs).toBe(250);
  expect(httpFailure(500, "x", { keyHint: "", headers: new Headers() })).not.toHaveProperty("retryAfterMs");
});

test("an error body's message and type, whatever the API's shape", () => {
  expect(errorMessageOf({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toBe("Overloaded");
  expect(errorMessageOf({ error: { message: "Incorrect API key", code: "invalid_api_key" } })).toBe("Incorrect API key");
  expect(errorMessageOf({ error: "model not found" })).toBe("model not found");
  expect(errorMessageOf({ object: "error", message: "vLLM says no" })).toBe("vLLM says no");
  expect(errorMessageOf({ detail: "no message here" })).toBeUndefined();
  expect(errorMessageOf("text")).toBeUndefined();
  expect(errorTypeOf({ error: { type: "rate_limit_error" } })).toBe("rate_limit_error");
  expect(errorTypeOf({ error: { code: "insufficient_quota" } })).toBe("insufficient_quota");
  expect(errorTypeOf({ type: "error" })).toBe("error");
  expect(errorTypeOf(null)).toBeUndefined();
});

test("a body in one short line: a JSON error's message, other JSON compacted, an HTML page's title and first line, plain text's first line", () => {
  expect(bodySummary('{"error": {"message": "bad model"}}')).toBe("bad model");
  expect(bodySummary('{"status":  "down",\n "eta": 5}')).toBe('{"status":"down","eta":5}');
  expect(bodySummary("<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>p{}</style></head><body><h1>Bad Gateway</h1><p>nginx &amp; friends</p></body></html>")).toBe('an HTML page "502 Bad Gateway": Bad Gateway');
  expect(bodySummary("<html><body><p>Sign&nbsp;in first</p></body></html>")).toBe("an HTML page Sign in first");
  expect(bodySummary("\n\n  upstream connect error\nreset reason: overflow")).toBe("upstream connect error");
  expect(bodySummary("   ")).toBe("(empty body)");
  const long = bodySummary("x".repeat(1000));
  expect(long).toHaveLength(300);
  expect(long).toEndWith("...");
});

test("fetch errors lose Bun's hint about its verbose option", () => {
  expect(fetchErrorText(new Error("Unable to connect. Is the computer able to access the url? For more information, pass `verbose: true` in the second argument to fetch()"))).toBe("Unable to connect. Is the computer able to access the url?");
  expect(fetchErrorText("plain")).toBe("plain");
});
