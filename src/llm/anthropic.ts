// The Anthropic Messages API behind the provider interface: one streamed turn over plain fetch,
// under the shared retry policy (attempts.ts); every failure ends the stream as an `error` event.
// Not through the SDK: rein used its client only to POST and to split the event stream, and
// loading it cost every start about 4 MiB and 15 ms. What goes on the wire is what the SDK sent
// (its headers, the key as a bearer token, ANTHROPIC_CUSTOM_HEADERS), less its x-stainless-*
// telemetry; its errors are read as it read them (the status, the body's error type and message).
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelRequest, ProviderEvent, StreamFn } from "../agent/types.ts";
import { VERSION } from "../version.ts";
import { accumulate, type Accumulator } from "./accumulate.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, withRetries, type AttemptIO, type Failure } from "./attempts.ts";
import { withCacheBreakpoints } from "./cache-breakpoints.ts";
import { bodySummary, fetchErrorText, httpFailure, isRecord } from "./error-text.ts";
import { preconnect } from "./preconnect.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
import { sseMessages } from "./sse.ts";
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
const DEFAULT_BASE_URL = "https://api.anthropic.com";
/** The API version the SDK (1.14) sent, kept so the wire stays as it was. */
const API_VERSION = "2026-10-21";

export function anthropicStream(options: AnthropicOptions): StreamFn {
  const baseURL = options.baseURL || DEFAULT_BASE_URL;
  const url = `${baseURL.replace(/\/+$/, "")}/v1/messages`;
  const headers = requestHeaders(options);
  const send = streamFetch();
  preconnect(baseURL);
  const retry = {
    policy: { ...DEFAULT_RETRY, ...options.retry },
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const keyHint = options.keyHint ?? ANTHROPIC_KEY_HINT;
  // Models whose API refused an effort: sent none from then on (as Claude Code retries without it).
  const noEffort = new Set<string>();
  const post = { send, url, headers, noEffort };
  return (request, signal) => withRetries((io) => streamOnce(post, request, io, keyHint), signal, retry);
}

/** The beta Claude Code sends `output_config.effort` under. */
export const EFFORT_BETA = "effort-2025-11-24";

type Post = { send: typeof fetch; url: string; headers: Headers; noEffort: Set<string> };

/** The SDK's headers in its order of precedence: its own, the key, ANTHROPIC_CUSTOM_HEADERS, the provider's `headers`. */
function requestHeaders(options: AnthropicOptions): Headers {
  const headers = new Headers({ accept: "application/json", "content-type": "application/json", "user-agent": `rein/${VERSION}`, "anthropic-version": API_VERSION });
  if (options.apiKey) headers.set("authorization", `Bearer ${options.apiKey}`);
  for (const line of (process.env.ANTHROPIC_CUSTOM_HEADERS ?? "").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  return headers;
}

async function* streamOnce(post: Post, request: ModelRequest, io: AttemptIO, keyHint: string): AsyncGenerator<ProviderEvent, Failure | undefined> {
  const cached = withCacheBreakpoints(request);
  const body = {
    model: request.model,
    system: cached.system,
    messages: withWireIds(cached.messages),
    tools: request.serverTools?.length ? [...cached.tools, ...request.serverTools] : cached.tools,
    max_tokens: request.max_tokens,
    stream: true,
  };
  const send = (effort: string | undefined) => {
    const headers = new Headers(post.headers);
    if (effort) headers.set("anthropic-beta", EFFORT_BETA);
    return post.send(post.url, { method: "POST", headers, body: JSON.stringify(effort ? { ...body, output_config: { effort } } : body), signal: io.signal });
  };
  const effort = request.effort && !post.noEffort.has(request.model) ? request.effort : undefined;
  let response: Response;
  let errorText: string | undefined;
  try {
    response = await send(effort);
    if (!response.ok) errorText = await response.text().catch(() => "");
    if (effort && errorText !== undefined && effortRefused(response.status, errorText)) {
      post.noEffort.add(request.model);
      response = await send(undefined);
      errorText = response.ok ? undefined : await response.text().catch(() => "");
    }
  } catch (error) {
    if (io.signal.aborted) return { code: "aborted", message: "aborted" };
    return { code: "connection", message: `could not reach the API: ${fetchErrorText(error)}` };
  }
  if (errorText !== undefined) return failureOf(response.status, errorText, response.headers, keyHint);
  if (!response.body) return { code: "connection", message: "the API answered with no body" };
  const acc: Accumulator = accumulate();
  try {
    for await (const message of sseMessages(response.body, io.alive)) {
      if (message.event === "ping" || message.event === "message") continue; // the SDK skipped pings and unnamed events
      if (message.event === "error") return streamError(message.data, response.headers, keyHint);
      if (!message.data) continue;
      let event: RawMessageStreamEvent;
      try {
        event = JSON.parse(message.data) as RawMessageStreamEvent;
      } catch (error) {
        return { code: "server", message: `malformed response from the API: ${fetchErrorText(error)}` };
      }
      if (event.type === "content_block_delta") io.progress();
      else io.alive();
      const passed = acc.add(event);
      if (passed) yield passed;
    }
  } catch (error) {
    if (io.signal.aborted) return { code: "aborted", message: "aborted" };
    return { code: "connection", message: `the response stream failed: ${fetchErrorText(error)}` };
  }
  if (io.signal.aborted) return { code: "aborted", message: "aborted" };
  const done = acc.finish();
  if (!done) return { code: "connection", message: "the response stream ended before the reply was complete" };
  yield done;
  return undefined;
}

/** A 400 saying the model or the API takes no effort (the messages Claude Code retries without it on). */
function effortRefused(status: number, text: string): boolean {
  if (status !== 400) return false;
  const json = parseJson(text);
  const said = isRecord(json) && isRecord(json.error) && typeof json.error.message === "string" ? json.error.message : text;
  const message = said.toLowerCase();
  if (message.includes("effort parameter") && message.includes("not support")) return true;
  if (message.includes("invalid effort level")) return true;
  return message.includes("output_config") && (message.includes("extra inputs are not permitted") || message.includes("requires a model that supports") || message.includes("effort"));
}

/** An HTTP error: the body's `error.message` when it has one, else a summary of the body. */
function failureOf(status: number, text: string, headers: Headers, keyHint: string): Failure {
  const json = parseJson(text);
  const error = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  const detail = typeof error?.message === "string" ? error.message : text.trim() ? bodySummary(text) : "status code (no body)";
  return httpFailure(status, detail, { type: typeof error?.type === "string" ? error.type : null, headers, keyHint });
}

/** An `error` event inside the stream (overloaded mid-reply): no status, its type decides. */
function streamError(data: string, headers: Headers, keyHint: string): Failure {
  const json = parseJson(data);
  const error = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  const detail = typeof error?.message === "string" ? error.message : bodySummary(data);
  return httpFailure(undefined, detail, { type: typeof error?.type === "string" ? error.type : null, headers, keyHint });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
