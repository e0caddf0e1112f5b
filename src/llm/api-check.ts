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
  if (error instanceof APIError) {
    const detail = error.apiMessage ?? bodySummary(error.message.replace(/^\d{3}\s+/, ""));
    return httpFailure(error.status, detail, { type: error.type, keyHint: ANTHROPIC_KEY_HINT }).message;
  }
  if (error instanceof APIConnectionError) return `could not reach the API: ${fetchErrorText(error.cause ?? error)}`;
  return `could not reach the API: ${fetchErrorText(error)}`;
}
