// A fetch for streamed model requests: a 200 answer that is not an event stream is never read as
// an empty one. A JSON error body (some gateways answer errors with 200) becomes an error response
// with the status it names; anything else becomes a 502 whose message says what came instead.
import { bodySummary, errorMessageOf, errorTypeOf } from "./error-text.ts";

export function streamFetch(inner: typeof fetch = fetch): typeof fetch {
  const guarded = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await inner(input, init);
    if (!response.ok || isEventStream(response.headers)) return response;
    const text = await response.text();
    // A server that forgets the content type but streams anyway.
    if (/^(data|event|id|retry):|^:/m.test(text.slice(0, 200)) && !/^\s*[[{<]/.test(text)) {
      return new Response(text, { status: 200, headers: withType(response.headers, "text/event-stream") });
    }
    return notAStream(response, text);
  };
  return Object.assign(guarded, { preconnect: inner.preconnect }) as typeof fetch;
}

export function isEventStream(headers: Headers): boolean {
  return /text\/event-stream/i.test(headers.get("content-type") ?? "");
}

const STATUS_OF_TYPE: Record<string, number> = {
  authentication_error: 401,
  invalid_api_key: 401,
  permission_error: 403,
  invalid_request_error: 400,
  not_found_error: 404,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  overloaded_error: 529,
};

/** The error a 200 non-stream body stands for, as a response the SDK's error path reads. */
export function notAStream(response: Response, text: string): Response {
  const json = safeJson(text);
  const message = errorMessageOf(json);
  const type = errorTypeOf(json);
  const named = numericStatus(json) ?? (type ? STATUS_OF_TYPE[type] : undefined);
  const status = message !== undefined ? (named ?? 502) : 502;
  const kind = response.headers.get("content-type") || "no content type";
  const detail =
    message !== undefined
      ? `the API answered 200 with an error: ${bodySummary(text)}`
      : `the API answered 200 with ${kind} instead of an event stream: ${bodySummary(text)}`;
  const body = { type: "error", error: { type: type ?? "api_error", message: detail } };
  return new Response(JSON.stringify(body), { status, headers: withType(response.headers, "application/json") });
}

function numericStatus(json: unknown): number | undefined {
  const error = json && typeof json === "object" ? (json as { error?: unknown; code?: unknown }) : undefined;
  const inner = error?.error && typeof error.error === "object" ? (error.error as { code?: unknown; status?: unknown }) : undefined;
  for (const candidate of [inner?.status, inner?.code, error?.code]) {
    const n = typeof candidate === "string" ? Number(candidate) : candidate;
    if (typeof n === "number" && Number.isInteger(n) && n >= 400 && n < 600) return n;
  }
  return undefined;
}

function withType(headers: Headers, type: string): Headers {
  const copy = new Headers(headers);
  copy.set("content-type", type);
  copy.delete("content-length");
  copy.delete("content-encoding");
  return copy;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
