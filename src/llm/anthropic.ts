// The Anthropic Messages API behind the provider interface: streams one turn through the SDK (its
// own retries off), under the shared retry policy (attempts.ts); every failure ends the stream as
// an `error` event.
// The client alone: the SDK's index pulls in every resource, which costs a one-shot run about 6 ms
// of start-up in the compiled binary. The request goes through the client's `post`, not the
// Messages resource's `create`, which walks every block of every message on each request for the
// SDK's helper telemetry header (none of rein's messages come from its helpers) and checks the
// model against its deprecation tables: work that grows with the conversation, for nothing.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import type { Stream } from "@anthropic-ai/sdk/core/streaming";
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelRequest, ProviderEvent, StreamFn } from "../agent/types.ts";
import { accumulate, type Accumulator } from "./accumulate.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, withRetries, type AttemptIO, type Failure } from "./attempts.ts";
import { withCacheBreakpoints } from "./cache-breakpoints.ts";
import { bodySummary, fetchErrorText, httpFailure } from "./error-text.ts";
import { preconnect } from "./preconnect.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
import { streamFetch } from "./stream-fetch.ts";
import { withWireIds } from "./tool-ids.ts";

export type AnthropicOptions = {
  apiKey: string;
  baseURL?: string;
  headers?: Record<string, string>;
  retry?: Partial<RetryPolicy>;
  /** an attempt whose stream sends nothing for this long is dropped and retried */
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** where a refused key comes from, for the error message */
  keyHint?: string;
};

export const ANTHROPIC_KEY_HINT = 'Check ANTHROPIC_API_KEY or "apiKey" in ~/.config/rein/config.json.';

export function anthropicStream(options: AnthropicOptions): StreamFn {
  const client = new BaseAnthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    maxRetries: 0,
    logLevel: "off",
    fetch: streamFetch(),
    // No spans and no trace headers: rein sends nothing it was not asked to, and tracing costs time on every request.
    openTelemetry: false,
  });
  preconnect(client.baseURL);
  const retry = {
    policy: { ...DEFAULT_RETRY, ...options.retry },
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const keyHint = options.keyHint ?? ANTHROPIC_KEY_HINT;
  // Models whose API refused an effort: sent none from then on (as Claude Code retries without it).
  const noEffort = new Set<string>();
  return (request, signal) => withRetries((io) => streamOnce(client, request, io, keyHint, noEffort), signal, retry);
}

/** The beta Claude Code sends `output_config.effort` under. */
export const EFFORT_BETA = "effort-2025-11-24";

async function* streamOnce(client: BaseAnthropic, request: ModelRequest, io: AttemptIO, keyHint: string, noEffort: Set<string>): AsyncGenerator<ProviderEvent, Failure | undefined> {
  const acc: Accumulator = accumulate();
  try {
    const cached = withCacheBreakpoints(request);
    const body = {
      model: request.model,
      system: cached.system,
      messages: withWireIds(cached.messages),
      tools: request.serverTools?.length ? [...cached.tools, ...request.serverTools] : cached.tools,
      max_tokens: request.max_tokens,
      stream: true,
    } as MessageCreateParamsStreaming;
    // Not through `create`, so not its console.warn for a model it lists as deprecated either (a raw line on stderr every turn).
    const post = (effort: string | undefined) =>
      client.post<Stream<RawMessageStreamEvent>>("/v1/messages", {
        body: effort ? { ...body, output_config: { effort } } : body,
        ...(effort ? { headers: { "anthropic-beta": EFFORT_BETA } } : {}),
        stream: true,
        signal: io.signal,
        timeout: io.idleMs,
      });
    const effort = request.effort && !noEffort.has(request.model) ? request.effort : undefined;
    const events = await post(effort).catch((error: unknown) => {
      if (!effort || !effortRefused(error)) throw error;
      noEffort.add(request.model);
      return post(undefined);
    });
    for await (const event of events) {
      if (event.type === "content_block_delta") io.progress();
      else io.alive();
      const passed = acc.add(event);
      if (passed) yield passed;
    }
    if (io.signal.aborted) return { code: "aborted", message: "aborted" };
    const done = acc.finish();
    if (!done) return { code: "connection", message: "the response stream ended before the reply was complete" };
    yield done;
    return undefined;
  } catch (error) {
    return classify(error, keyHint);
  }
}

/** A 400 saying the model or the API takes no effort (the messages Claude Code retries without it on). */
function effortRefused(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status !== 400) return false;
  const message = (error.apiMessage ?? error.message).toLowerCase();
  if (message.includes("effort parameter") && message.includes("not support")) return true;
  if (message.includes("invalid effort level")) return true;
  return message.includes("output_config") && (message.includes("extra inputs are not permitted") || message.includes("requires a model that supports") || message.includes("effort"));
}

function classify(error: unknown, keyHint: string): Failure {
  if (error instanceof APIUserAbortError) return { code: "aborted", message: "aborted" };
  if (error instanceof APIConnectionError) {
    return { code: "connection", message: `could not reach the API: ${error.message}` };
  }
  if (error instanceof APIError) {
    const status = error.status;
    // Without a JSON error the SDK's message is "<status> <the whole body>" (an HTML page, say).
    const detail = error.apiMessage ?? bodySummary(error.message.replace(/^\d{3}\s+/, ""));
    return httpFailure(status, detail, { type: error.type, headers: error.headers, keyHint });
  }
  const message = fetchErrorText(error);
  if (error instanceof SyntaxError) return { code: "server", message: `malformed response from the API: ${message}` };
  return { code: "connection", message: `the response stream failed: ${message}` };
}
