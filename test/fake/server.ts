import { encodeSse, messageStart, replyEvents, replyMessage, textDelta, textStart } from "./reply.ts";
import type { ReplyContext, SseEvent } from "./reply.ts";
import { idCounter } from "./ids.ts";
import { sseResponse } from "./sse-stream.ts";
import { strictProblem } from "./strict.ts";
import type { LiveStreams, StreamEnd } from "./sse-stream.ts";
import type { FakeServer, FakeServerOptions, FakeStep, RecordedRequest } from "./types.ts";

export type { FakeBlock, FakeServer, FakeServerOptions, FakeStep, FakeUsage, RecordedRequest } from "./types.ts";

/**
 * A scripted Anthropic Messages API on 127.0.0.1: each POST /v1/messages consumes the next step
 * (GET /v1/models answers a one-model list, or the next step when that is an error, hang or raw one).
 * An empty queue answers 500 "fake server: no scripted step left" (or `opts.repeat`).
 */
/** What the fake names a session whose first prompt was `prompt` (the title calls' answer): its first line, so sessions stay apart. */
export function fakeTitle(prompt: string): string {
  return `Named: ${prompt.trim().split("\n")[0]!.slice(0, 40)}`;
}

/** The first prompt a title call names (src/session/title.ts puts it in <request>), as the fake names it. */
function titled(body: Record<string, unknown>): string {
  const texts = ((body.messages as { content: unknown }[] | undefined) ?? []).flatMap((m) =>
    typeof m.content === "string" ? [m.content] : Array.isArray(m.content) ? m.content.flatMap((b: { text?: unknown }) => (typeof b.text === "string" ? [b.text] : [])) : [],
  );
  const match = /<request>\n([\s\S]*?)\n<\/request>/.exec(texts.join("\n"));
  return fakeTitle(match?.[1] ?? "");
}

export { titled as fakeTitleOf };

export function isTitleCall(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.system ?? "").includes("You name a coding session.") || JSON.stringify((body.messages as unknown[] | undefined)?.[0] ?? "").includes("You name a coding session.");
}

export async function startFakeAnthropic(opts: FakeServerOptions = {}): Promise<FakeServer> {
  const queue: FakeStep[] = [];
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  const live: LiveStreams = new Set();
  const ids = idCounter();
  const nextId = ids.nextId;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    // Bun closes connections idle for 10 s by default, which would end hanging streams on its own.
    idleTimeout: 0,
    fetch: async (req) => {
      const arrivedAt = performance.now();
      const path = new URL(req.url).pathname;
      const bodyText = await req.text();
      const body = parseJson(bodyText);
      requests.push({ method: req.method, path, headers: Object.fromEntries(req.headers), body, bodyText, arrivedAt });
      const headers = { "request-id": nextId("req_fake") };

      const models = req.method === "GET" && path === "/v1/models";
      if (!models && (req.method !== "POST" || path !== "/v1/messages")) {
        return apiError(404, `fake server: no route for ${req.method} ${path}`, headers);
      }
      if (!hasAuth(req.headers)) {
        return apiError(401, "fake server: missing x-api-key or Authorization: Bearer header", headers);
      }
      if (models) return modelList(queue, headers, req);
      if (!isRecord(body)) return apiError(400, "fake server: the request body is not a JSON object", headers);
      if (isTitleCall(body)) {
        titleRequests.push(requests.pop()!);
        const ctx: ReplyContext = { model: typeof body.model === "string" ? body.model : "claude-fake", inputTokens: Math.ceil(bodyText.length / 4), nextId };
        const stream = (events: SseEvent[], end: StreamEnd, delayMs?: number) => sseResponse(events.map(encodeSse), { end, delayMs, live, signal: req.signal, headers });
        const original = () => new Request(req.url, { method: req.method, headers: req.headers, body: bodyText });
        return answer({ reply: [{ type: "text", text: titled(body) }], usage: { input_tokens: 60, output_tokens: 6 } }, { wantsStream: body.stream === true, ctx, headers, stream, original, body });
      }
      const refused = opts.strict ? strictProblem(body) : undefined;
      if (refused) return apiError(400, refused, headers);

      const step = queue.shift() ?? opts.repeat;
      if (!step) return apiError(500, "fake server: no scripted step left", headers);

      const ctx: ReplyContext = {
        model: typeof body.model === "string" ? body.model : "claude-fake",
        inputTokens: Math.ceil(bodyText.length / 4),
        nextId,
      };
      const stream = (events: SseEvent[], end: StreamEnd, delayMs?: number) =>
        sseResponse(events.map(encodeSse), { end, delayMs, live, signal: req.signal, headers });
      const original = () => new Request(req.url, { method: req.method, headers: req.headers, body: bodyText });
      return answer(step, { wantsStream: body.stream === true, ctx, headers, stream, original, body });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    titleRequests,
    script: (...steps) => {
      queue.push(...steps);
    },
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      titleRequests.length = 0;
      ids.reset();
    },
    close: async () => {
      for (const drop of [...live]) drop();
      await server.stop(true);
    },
  };
}

type Answering = {
  wantsStream: boolean;
  ctx: ReplyContext;
  headers: Record<string, string>;
  stream: (events: SseEvent[], end: StreamEnd, delayMs?: number) => Response;
  /** The request again, its body already read for the record. */
  original: () => Request;
  body: Record<string, unknown>;
};

/** Cut, maxTokensCut and hang are stream failures, so they stream even for stream: false requests. */
function answer(step: FakeStep, answering: Answering): Response | Promise<Response> {
  const { wantsStream, ctx, headers, stream, original, body } = answering;
  if ("respond" in step) return answer(step.respond(body), answering);
  if ("reply" in step && step.waitFor) {
    const { waitFor, ...now } = step;
    return waitFor.then(() => answer(now, answering));
  }
  if ("reply" in step) {
    const shape = { ...step, blocks: step.reply };
    if (!wantsStream || step.json) return Response.json(replyMessage(shape, ctx), { headers });
    return stream(replyEvents(shape, ctx), "close", step.delayMs);
  }
  if ("error" in step) return errorResponse(step, headers);
  if ("cut" in step) {
    const events = replyEvents({ blocks: step.cut }, ctx);
    return stream(events.slice(0, step.afterEvents ?? firstDeltaCount(events)), "cut");
  }
  if ("maxTokensCut" in step) {
    return stream(replyEvents({ blocks: step.maxTokensCut, cutLastToolUse: true }, ctx), "close");
  }
  if ("hang" in step) {
    const text = step.afterText === undefined ? [] : [textStart(0), textDelta(0, step.afterText)];
    return stream([messageStart(ctx), ...text], "hang");
  }
  if ("malformed" in step) return malformedResponse(headers);
  return step.raw(original());
}

/** GET /v1/models (rein doctor's check): a queued error, hang or raw step answers it (a reply step stays queued); otherwise one fake model. */
function modelList(queue: FakeStep[], headers: Record<string, string>, req: Request): Response | Promise<Response> {
  const next = queue[0];
  const step = next && ("error" in next || "raw" in next || "hang" in next) ? queue.shift() : undefined;
  if (step && "error" in step) return errorResponse(step, headers);
  if (step && "raw" in step) return step.raw(req);
  if (step && "hang" in step) return new Promise<Response>((resolve) => req.signal.addEventListener("abort", () => resolve(new Response(null))));
  const model = { type: "model", id: "claude-fake", display_name: "Fake", created_at: "2026-01-01T00:00:00Z" };
  return Response.json({ data: [model], has_more: false, first_id: model.id, last_id: model.id }, { headers });
}

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function apiError(status: number, message: string, headers: Record<string, string>): Response {
  const type = errorTypes[status] ?? "api_error";
  return Response.json({ type: "error", error: { type, message } }, { status, headers });
}

function errorResponse(
  step: { error: number; body?: unknown; retryAfter?: number; headers?: Record<string, string> },
  headers: Record<string, string>,
): Response {
  const retryAfter: Record<string, string> =
    step.retryAfter === undefined ? {} : { "retry-after": String(step.retryAfter) };
  const allHeaders = { ...headers, ...retryAfter, ...step.headers };
  if (step.body === undefined) return apiError(step.error, `fake server: scripted ${step.error}`, allHeaders);
  const text = typeof step.body === "string" ? step.body : JSON.stringify(step.body);
  return new Response(text, { status: step.error, headers: { "content-type": "application/json", ...allHeaders } });
}

function malformedResponse(headers: Record<string, string>): Response {
  const garbage =
    '<html>502 Bad Gateway</html>\nevent: message_start\ndata: {"type":"message_start","message":{oops\n\n';
  return new Response(garbage, { headers: { "content-type": "text/event-stream", ...headers } });
}

/** The default cut point: just after the first content delta (or after message_start if there is none). */
function firstDeltaCount(events: SseEvent[]): number {
  const i = events.findIndex((e) => e.event === "content_block_delta");
  return i === -1 ? 1 : i + 1;
}

function hasAuth(headers: Headers): boolean {
  if (headers.get("x-api-key")) return true;
  return /^bearer \S/i.test(headers.get("authorization") ?? "");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
