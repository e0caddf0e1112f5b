// What a provider's failure says, in one line: HTTP statuses and error bodies of every API family
// turned into rein's error codes and a short message. A 50 KB HTML error page becomes its status,
// title and first line; a JSON error body becomes its message.
import type { ProviderErrorCode } from "../agent/types.ts";
import type { Failure } from "./attempts.ts";
import { parseRetryAfter } from "./retry.ts";

const MAX_DETAIL = 300;

/** The message an error body carries, whatever the API's shape; undefined when it carries none. */
export function errorMessageOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const error = value.error;
  if (typeof error === "string" && error) return error;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  // vLLM and some proxies: {"object": "error", "message": ...}; {"type": "error", "message": ...}
  if ((value.object === "error" || value.type === "error") && typeof value.message === "string") return value.message;
  return undefined;
}

/** The error type a body names (`rate_limit_error`, `insufficient_quota`...), if any. */
export function errorTypeOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const error = isRecord(value.error) ? value.error : value;
  const type = error.type ?? error.code;
  return typeof type === "string" ? type : undefined;
}

/** A short rendering of a response body: a JSON error's message, an HTML page's title and first line, or the first line. */
export function bodySummary(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "(empty body)";
  const json = parseJson(trimmed);
  if (json !== undefined) return clip(errorMessageOf(json) ?? oneLine(JSON.stringify(json)));
  if (/^<(!doctype|html|head|body)\b|<\/html>/i.test(trimmed)) return htmlSummary(trimmed);
  return clip(oneLine(trimmed.split("\n").find((line) => line.trim()) ?? trimmed));
}

function htmlSummary(html: string): string {
  const title = decode(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "").trim();
  const body = html
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1>/gi, "\n")
    .replace(/<(br|p|div|h\d|li|tr|title)\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, " ");
  const first = decode(body)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .find((line) => line && line !== title);
  const parts = [title && `"${title}"`, first].filter(Boolean);
  return clip(`an HTML page${parts.length ? ` ${parts.join(": ")}` : ""}`);
}

function decode(text: string): string {
  return text.replace(/&nbsp;/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 3)}...` : text;
}

/** "prompt is too long: 210000 tokens > 200000 maximum", or a request over the context window. */
export function isTooLong(status: number | undefined, detail: string): boolean {
  if (status !== undefined && status !== 400 && status !== 413) return false;
  return /prompt is too long|too many (input )?tokens|exceeds? (the )?(model'?s? )?(maximum )?context (window|length|limit)|context (window|length) (exceeded|limit)|maximum context length|context_length_exceeded/i.test(detail);
}

export function codeForStatus(status: number | undefined, type?: string | null): ProviderErrorCode {
  if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error" || type === "invalid_api_key") return "auth";
  if (status === 429 || type === "rate_limit_error" || type === "rate_limit_exceeded") return "rate_limited";
  if (status === 529 || type === "overloaded_error") return "overloaded";
  if ((status !== undefined && status >= 500) || type === "api_error" || type === "server_error") return "server";
  if (status === 408 || status === 409) return "server";
  if (status !== undefined && status >= 400) return "bad_request";
  return "unknown";
}

/** The failure an HTTP error response stands for; `keyHint` says where this provider's key comes from. */
export function httpFailure(status: number | undefined, detail: string, opts: { type?: string | null; headers?: Headers; keyHint: string }): Failure {
  const code = isTooLong(status, detail) ? "too_long" : codeForStatus(status, opts.type);
  const retryAfterMs = parseRetryAfter(opts.headers);
  return { code, ...(status ? { status } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), message: describe(code, status, detail, opts.keyHint) };
}

function describe(code: ProviderErrorCode, status: number | undefined, detail: string, keyHint: string): string {
  const prefix = status ? `API error ${status}` : "API error";
  if (code === "auth") return `${prefix}: the API key was refused (${detail}). ${keyHint}`;
  if (code === "rate_limited") return `${prefix}: rate limited (${detail})`;
  if (code === "overloaded") return `${prefix}: the API is overloaded (${detail})`;
  return `${prefix}: ${detail}`;
}

/** Bun's fetch appends a hint about its own `verbose` option; it means nothing to a rein user. */
export function fetchErrorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
}

function parseJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
