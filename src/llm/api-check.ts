// Does the API answer with this key? One cheap request (the model list, which no token is spent
// on), bounded in time, for `rein doctor`. The answer is a line to show, never an exception.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import { ANTHROPIC_KEY_HINT } from "./anthropic.ts";
import { bodySummary, fetchErrorText, httpFailure } from "./error-text.ts";

export const API_CHECK_TIMEOUT_MS = 5000;

export type ApiCheck = { ok: boolean; detail: string };

export async function checkAnthropicApi(options: { apiKey: string; baseURL?: string; timeoutMs?: number }): Promise<ApiCheck> {
  const timeoutMs = options.timeoutMs ?? API_CHECK_TIMEOUT_MS;
  const client = new BaseAnthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    logLevel: "off",
    openTelemetry: false,
  });
  // The SDK's own timeout ends at the response headers; this one also covers a body that never comes.
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  try {
    await client.get("/v1/models", { query: { limit: 1 }, signal, timeout: timeoutMs });
    return { ok: true, detail: `answers (${Math.round(performance.now() - started)} ms)` };
  } catch (error) {
    return { ok: false, detail: failureText(error, signal.aborted, timeoutMs) };
  }
}

function failureText(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut || error instanceof APIUserAbortError) return `no answer within ${timeoutMs / 1000} s: check ANTHROPIC_BASE_URL and the network`;
  // APIConnectionError is an APIError (with no status): asked first, or a refused connection reads "API error".
  if (error instanceof APIConnectionError) return `could not reach the API: ${fetchErrorText(error.cause ?? error)}`;
  if (error instanceof APIError) {
    const detail = error.apiMessage ?? bodySummary(error.message.replace(/^\d{3}\s+/, ""));
    return httpFailure(error.status, detail, { type: error.type, keyHint: ANTHROPIC_KEY_HINT }).message;
  }
  return `could not reach the API: ${fetchErrorText(error)}`;
}

/**
 * Does an OpenAI-compatible server answer? GET {baseURL}/models with the key, bounded in time; a
 * local server that is not running is said to be so, with where rein looked.
 */
export async function checkChatApi(options: { baseURL: string; apiKey?: string; headers?: Record<string, string>; timeoutMs?: number; local: boolean; keyHint: string }): Promise<ApiCheck> {
  const timeoutMs = options.timeoutMs ?? API_CHECK_TIMEOUT_MS;
  const url = `${options.baseURL.replace(/\/+$/, "")}/models`;
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const response = await fetch(url, { headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers }, signal });
    const text = await response.text();
    if (response.ok) return { ok: true, detail: `answers at ${options.baseURL} (${ms()})` };
    // Some servers have no model list: an answer all the same.
    if (response.status === 404) return { ok: true, detail: `answers at ${options.baseURL}, without a model list (${ms()})` };
    return { ok: false, detail: httpFailure(response.status, bodySummary(text), { headers: response.headers, keyHint: options.keyHint }).message };
  } catch (error) {
    if (signal.aborted) return { ok: false, detail: `no answer from ${options.baseURL} within ${timeoutMs / 1000} s` };
    if (options.local) return { ok: false, detail: `nothing listens at ${options.baseURL}` };
    return { ok: false, detail: `could not reach ${options.baseURL}: ${fetchErrorText(error)}` };
  }
}
