// OpenAI Chat Completions (and every server that speaks it: OpenRouter, Ollama, LM Studio,
// llama.cpp, vLLM) behind the provider interface, over plain fetch: one streamed turn under the
// shared retry policy, the conversation converted at the edge (openai-messages.ts), the chunks
// accumulated robustly (openai-accumulate.ts).
import type { ModelRequest, ProviderEvent, StreamFn } from "../agent/types.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, withRetries, type AttemptIO, type Failure } from "./attempts.ts";
import { bodySummary, codeForStatus, errorMessageOf, errorTypeOf, fetchErrorText, httpFailure, isRecord } from "./error-text.ts";
import type { ChatCompat } from "./models.ts";
import { chatAccumulator } from "./openai-accumulate.ts";
import { chatMessages } from "./openai-messages.ts";
import { preconnect } from "./preconnect.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
import { sseMessages } from "./sse.ts";
import { isEventStream, notAStream } from "./stream-fetch.ts";

export type OpenAIChatOptions = {
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  compat?: Partial<ChatCompat>;
  retry?: Partial<RetryPolicy>;
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** where a refused key comes from, for the error message */
  keyHint?: string;
  /** what to say when nothing listens (a local server that is not running) */
  unreachableHint?: string;
};

const DEFAULT_COMPAT: ChatCompat = {
  maxTokensField: "max_tokens",
  supportsUsageInStreaming: true,
  requiresToolResultName: false,
  requiresAssistantAfterToolResult: false,
  supportsImages: true,
};

export function openaiChatStream(options: OpenAIChatOptions): StreamFn {
  const url = `${options.baseURL.replace(/\/+$/, "")}/chat/completions`;
  const compat = { ...DEFAULT_COMPAT, ...options.compat };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...options.headers,
  };
  const retry = {
    policy: { ...DEFAULT_RETRY, ...options.retry },
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const hints = { key: options.keyHint ?? "Check the provider's API key.", unreachable: options.unreachableHint ?? "" };
  preconnect(options.baseURL);
  return (request, signal) => {
    const body = JSON.stringify(chatBody(request, compat));
    return withRetries((io) => streamOnce(url, headers, body, io, hints), signal, retry);
  };
}

export function chatBody(request: ModelRequest, compat: ChatCompat): Record<string, unknown> {
  return {
    model: request.model,
    messages: chatMessages(request, compat),
    ...(request.tools.length
      ? { tools: request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.input_schema } })) }
      : {}),
    [compat.maxTokensField]: request.max_tokens,
    // The router sends an effort only to a reasoning model that takes that level (llm/models.ts).
    ...(request.effort ? { reasoning_effort: request.effort } : {}),
    stream: true,
    ...(compat.supportsUsageInStreaming ? { stream_options: { include_usage: true } } : {}),
  };
}

type Hints = { key: string; unreachable: string };

async function* streamOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
  io: AttemptIO,
  hints: Hints,
): AsyncGenerator<ProviderEvent, Failure | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers, body, signal: io.signal });
  } catch (error) {
    if (io.signal.aborted) return { code: "aborted", message: "aborted" };
    return { code: "connection", message: `could not reach the API at ${url}: ${fetchErrorText(error)}${hints.unreachable}` };
  }
  if (!response.ok) return failureOf(response.status, await response.text().catch(() => ""), response.headers, hints);
  if (!response.body) return { code: "connection", message: "the API answered with no body" };
  const acc = chatAccumulator();
  if (!isEventStream(response.headers)) return yield* wholeAnswer(response, acc, hints);
  let ended = false;
  try {
    for await (const message of sseMessages(response.body, io.alive)) {
      if (message.data.trim() === "[DONE]") {
        ended = true;
        break;
      }
      const chunk = parseChunk(message.data);
      if (!chunk) return { code: "server", message: `malformed response from the API: ${bodySummary(message.data)}` };
      if (chunk.error !== undefined || message.event === "error") return streamError(chunk, hints);
      const { event, grew } = acc.add(chunk);
      if (grew) io.progress();
      if (event) yield event;
    }
  } catch (error) {
    if (io.signal.aborted) return { code: "aborted", message: "aborted" };
    return { code: "connection", message: `the response stream failed: ${fetchErrorText(error)}` };
  }
  if (io.signal.aborted) return { code: "aborted", message: "aborted" };
  // A stream that ends without [DONE] still counts once it said why the reply finished.
  if (!ended && !acc.finished) return { code: "connection", message: "the response stream ended before the reply was complete" };
  yield acc.finish();
  return undefined;
}

/** A server that ignored `stream: true` and sent the whole completion, or an error, as one body. */
async function* wholeAnswer(response: Response, acc: ReturnType<typeof chatAccumulator>, hints: Hints): AsyncGenerator<ProviderEvent, Failure | undefined> {
  const text = await response.text();
  const json = parseChunk(text);
  if (!json || !Array.isArray(json.choices) || json.error !== undefined) {
    const error = notAStream(response, text);
    return failureOf(error.status, await error.text(), error.headers, hints);
  }
  const { event } = acc.add(json);
  if (event?.type === "text_delta") yield event;
  yield acc.finish();
  return undefined;
}

function parseChunk(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function failureOf(status: number, text: string, headers: Headers, hints: Hints): Failure {
  const json = parseChunk(text);
  const detail = json && errorMessageOf(json) !== undefined ? bodySummary(errorMessageOf(json)!) : bodySummary(text);
  return httpFailure(status, detail, { type: errorTypeOf(json), headers, keyHint: hints.key });
}

/** An error sent inside a 200 stream (OpenRouter, vLLM): retried like a cut stream unless it names a status that is not. */
function streamError(chunk: Record<string, unknown>, hints: Hints): Failure {
  const message = errorMessageOf(chunk) ?? bodySummary(JSON.stringify(chunk));
  const error = isRecord(chunk.error) ? chunk.error : chunk;
  const raw = error.status ?? error.code;
  const status = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{3}$/.test(raw) ? Number(raw) : undefined;
  const type = errorTypeOf(chunk);
  const known = codeForStatus(status, type);
  if (known === "unknown") return { code: "server", message: `the API sent an error mid-stream: ${message}` };
  return httpFailure(status, `mid-stream: ${message}`, { type, keyHint: hints.key });
}
