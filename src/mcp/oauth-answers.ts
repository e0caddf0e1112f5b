// What goes wrong on the way to a login, as one line each: an answer of the wrong shape (the SDK
// checks answers with zod, whose message is a JSON dump of every issue) and a request that did not
// answer in time (every login request is bounded; only the browser's return waits longer).
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { messageOf } from "./message.ts";

/** How long one request of the login (discovery, registration, tokens) may take. */
export const LOGIN_REQUEST_TIMEOUT_MS = 15_000;

type Issue = { path?: readonly PropertyKey[]; message?: string; code?: string };

/** The error's message on one line; an answer of the wrong shape names the fields that were wrong. */
export function answerText(error: unknown): string {
  const issues = (error as { issues?: unknown }).issues;
  if (Array.isArray(issues) && issues.length) {
    const fields = [...new Set((issues as Issue[]).map((i) => (i.path?.length ? i.path.map(String).join(".") : "(the whole answer)")))];
    const missing = (issues as Issue[]).every((i) => /received undefined/.test(i.message ?? ""));
    return `its answer ${missing ? "lacks" : "has a wrong"} ${fields.join(", ")}`;
  }
  if (error instanceof SyntaxError) return "its answer is not JSON";
  return messageOf(error).replace(/\s+/g, " ").slice(0, 300);
}

/** A request that has not answered (headers and body) within `ms` fails with a line naming its URL. */
export function boundedFetch(fetchFn: FetchLike, ms: number): FetchLike {
  return async (url, init) => {
    const signal = AbortSignal.timeout(ms);
    const both = init?.signal ? AbortSignal.any([init.signal, signal]) : signal;
    const where = String(url).replace(/\?.*$/, "");
    try {
      const answer = await fetchFn(url, { ...init, signal: both });
      // An event stream (an open server's answer to the probe) is not waited on to its end.
      if (answer.headers.get("content-type")?.includes("text/event-stream")) return answer;
      // The body is read later by the SDK: keep the bound on it, with the same line.
      const body = await answer.arrayBuffer().catch((error: unknown) => {
        throw signal.aborted ? timedOut(where, ms) : error;
      });
      return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    } catch (error) {
      if (signal.aborted) throw timedOut(where, ms);
      throw error;
    }
  };
}

/** Thrown as a TimeoutError-free Error, so the SDK does not take it for a CORS failure (a TypeError) and try again. */
function timedOut(url: string, ms: number): Error {
  return new Error(`${url} did not answer within ${ms / 1000} s`);
}
