// The Anthropic Messages API behind the provider interface: streams one turn, turns every failure
// into a final `error` event, and owns retries (the SDK's own are off).
// The client and the Messages resource alone: the SDK's index pulls in every resource, which costs
// a one-shot run about 6 ms of start-up in the compiled binary.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import { Messages, type MessageParam, type Tool as ApiTool } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelRequest, ProviderErrorCode, ProviderEvent, StreamFn } from "../agent/types.ts";
import { accumulate, type Accumulator } from "./accumulate.ts";
import { withCacheBreakpoints } from "./cache-breakpoints.ts";
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs, type RetryPolicy } from "./retry.ts";

export type AnthropicOptions = {
  apiKey: string;
  baseURL?: string;
  retry?: RetryPolicy;
  /** an attempt whose stream sends nothing for this long is dropped and retried */
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

type Failure = { code: ProviderErrorCode; message: string; status?: number; retryAfterMs?: number };

export function anthropicStream(options: AnthropicOptions): StreamFn {
  const client = new BaseAnthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    logLevel: "off",
    // No spans and no trace headers: rein sends nothing it was not asked to, and tracing costs time on every request.
    openTelemetry: false,
  });
  const messages = new Messages(client as ConstructorParameters<typeof Messages>[0]);
  preconnect(client.baseURL);
  const policy = options.retry ?? DEFAULT_RETRY;
  const sleep = options.sleep ?? abortableSleep;
  const idleTimeoutMs = options.idleTimeoutMs ?? 120_000;

  return async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    for (let attempt = 1; ; attempt++) {
      const failure = yield* streamOnce(messages, request, signal, idleTimeoutMs);
      if (!failure) return;
      if (signal.aborted) {
        yield { type: "error", code: "aborted", message: "aborted" };
        return;
      }
      if (!isRetryable(failure.code) || attempt >= policy.maxAttempts) {
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : "";
        yield { type: "error", code: failure.code, status: failure.status, message: failure.message + tries };
        return;
      }
      const delay = retryDelayMs(attempt, policy, failure.retryAfterMs);
      yield { type: "retry", attempt, delay_ms: delay, reason: failure.message };
      await sleep(delay, signal);
      if (signal.aborted) {
        yield { type: "error", code: "aborted", message: "aborted" };
        return;
      }
    }
  };
}

const preconnected = new Set<string>();

/**
 * Opens the connection to the API (DNS, TCP, TLS) while rein still starts up: the first request
 * then finds it in fetch's keep-alive pool. Best effort; a failure shows in the request itself.
 * With HTTP(S)_PROXY set, Bun's fetch opens nothing ahead (tested): the request uses the proxy.
 */
function preconnect(baseURL: string): void {
  // Once per API per process: a server creating many sessions needs no more than the pool keeps.
  if (preconnected.has(baseURL)) return;
  preconnected.add(baseURL);
  try {
    fetch.preconnect(baseURL);
  } catch {
    // an invalid URL fails the request with its own message
  }
}

async function* streamOnce(
  messages: Messages,
  request: ModelRequest,
  signal: AbortSignal,
  idleTimeoutMs: number,
): AsyncGenerator<ProviderEvent, Failure | undefined> {
  const attempt = new AbortController();
  const onAbort = () => attempt.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) attempt.abort();
  let idle = false;
  let timer = setTimeout(() => ((idle = true), attempt.abort()), idleTimeoutMs);
  const acc: Accumulator = accumulate();
  try {
    const cached = withCacheBreakpoints(request);
    const events = await messages.create(
      {
        model: request.model,
        system: cached.system,
        messages: cached.messages as MessageParam[],
        tools: cached.tools as ApiTool[],
        max_tokens: request.max_tokens,
        stream: true,
      },
      { signal: attempt.signal, timeout: idleTimeoutMs },
    );
    for await (const event of events) {
      clearTimeout(timer);
      timer = setTimeout(() => ((idle = true), attempt.abort()), idleTimeoutMs);
      const passed = acc.add(event);
      if (passed) yield passed;
    }
    if (idle) return { code: "connection", message: `the API sent nothing for ${idleTimeoutMs / 1000}s` };
    if (signal.aborted) return { code: "aborted", message: "aborted" };
    const done = acc.finish();
    if (!done) return { code: "connection", message: "the response stream ended before the reply was complete" };
    yield done;
    return undefined;
  } catch (error) {
    if (idle) return { code: "connection", message: `the API sent nothing for ${idleTimeoutMs / 1000}s` };
    return classify(error);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

function classify(error: unknown): Failure {
  if (error instanceof APIUserAbortError) return { code: "aborted", message: "aborted" };
  if (error instanceof APIConnectionError) {
    return { code: "connection", message: `could not reach the API: ${error.message}` };
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = error.apiMessage ?? error.message;
    const retryAfterMs = parseRetryAfter(error.headers);
    const code = tooLong(status, detail) ? "too_long" : codeFor(status, error.type);
    return { code, status, retryAfterMs, message: describe(code, status, detail) };
  }
  // Bun's fetch appends a hint about its own `verbose` option; it means nothing to a rein user.
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
  if (error instanceof SyntaxError) return { code: "server", message: `malformed response from the API: ${message}` };
  return { code: "connection", message: `the response stream failed: ${message}` };
}

/** "prompt is too long: 210000 tokens > 200000 maximum", or a request over the context window. */
function tooLong(status: number | undefined, detail: string): boolean {
  if (status !== 400 && status !== 413) return false;
  return /prompt is too long|too many (input )?tokens|exceeds? (the )?(model'?s? )?(maximum )?context (window|length|limit)|context (window|length) (exceeded|limit)/i.test(detail);
}

function codeFor(status: number | undefined, type: string | null): ProviderErrorCode {
  if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error") return "auth";
  if (status === 429 || type === "rate_limit_error") return "rate_limited";
  if (status === 529 || type === "overloaded_error") return "overloaded";
  if ((status !== undefined && status >= 500) || type === "api_error") return "server";
  if (status === 408 || status === 409) return "server";
  if (status !== undefined && status >= 400) return "bad_request";
  return "unknown";
}

function describe(code: ProviderErrorCode, status: number | undefined, detail: string): string {
  const prefix = status ? `API error ${status}` : "API error";
  if (code === "auth") {
    return `${prefix}: the API key was refused (${detail}). Check ANTHROPIC_API_KEY or "apiKey" in ~/.config/rein/config.json.`;
  }
  if (code === "rate_limited") return `${prefix}: rate limited (${detail})`;
  if (code === "overloaded") return `${prefix}: the API is overloaded (${detail})`;
  return `${prefix}: ${detail}`;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
