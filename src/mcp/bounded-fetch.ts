// The bound on what a remote (HTTP, SSE) MCP server sends, as a stdio server's lines are bounded:
// a JSON answer past it, or one event of an event stream past it, ends that read at once (nothing
// more of it is buffered) and is told once, with the sentence the server's failure reads as. A long
// event stream of small events is fine: the count starts again at each event's end (a blank line).
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

const LF = 10;
const CR = 13;
/** Statuses whose response may have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

export function boundedFetch(fetchFn: FetchLike, maxBytes: number, over: (failure: string) => void): FetchLike {
  const failure = `it sent a message larger than ${mib(maxBytes)} (the most rein reads as one message), so it was stopped`;
  return async (url, init) => {
    const response = await fetchFn(url, init);
    if (!response.body || NO_BODY.has(response.status)) return response;
    const events = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const count = events ? eventCounter() : totalCounter();
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (count(chunk) <= maxBytes) return controller.enqueue(chunk);
          over(failure);
          controller.error(new Error(failure)); // cancels the body: the rest is not read
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Bytes of the whole body so far. */
function totalCounter(): (chunk: Uint8Array) => number {
  let size = 0;
  return (chunk) => (size += chunk.byteLength);
}

/** Bytes since the last event's end (a blank line: LF LF or CRLF CRLF), across chunks. */
function eventCounter(): (chunk: Uint8Array) => number {
  let since = 0;
  let last1 = -1; // the last byte before this chunk
  let last2 = -1; // the one before it
  return (chunk) => {
    const at = (i: number) => (i >= 0 ? chunk[i]! : i === -1 ? last1 : last2);
    let i = chunk.lastIndexOf(LF);
    while (i >= 0 && !(at(i - 1) === LF || (at(i - 1) === CR && at(i - 2) === LF))) i = i > 0 ? chunk.lastIndexOf(LF, i - 1) : -1;
    since = i >= 0 ? chunk.byteLength - 1 - i : since + chunk.byteLength;
    if (chunk.byteLength >= 2) [last2, last1] = [chunk[chunk.byteLength - 2]!, chunk[chunk.byteLength - 1]!];
    else if (chunk.byteLength === 1) [last2, last1] = [last1, chunk[0]!];
    return since;
  };
}

const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`);
