// A scripted OpenAI-compatible Chat Completions server on 127.0.0.1, in one of three dialects
// (plain OpenAI, Ollama-like, vLLM/llama.cpp-like; openai-types.ts): each POST /v1/chat/completions
// consumes the next step, is recorded, and is checked as a strict server would (`problems`): an
// invalid request is answered 400 with what was wrong.
import { encodeChunks, replyChunks, type ChunkContext } from "./openai-reply.ts";
import { chatRequestProblems } from "./openai-check.ts";
import { DIALECTS, type ChatDialect, type ChatStep, type FakeChatServer } from "./openai-types.ts";
import { idCounter } from "./ids.ts";
import { sseResponse, type LiveStreams, type StreamEnd } from "./sse-stream.ts";
import type { RecordedRequest } from "./types.ts";
import { fakeTitleOf } from "./server.ts";

export type { ChatDialect, ChatQuirks, ChatStep, FakeChatServer } from "./openai-types.ts";

export async function startFakeOpenAI(opts: { dialect?: ChatDialect; repeat?: ChatStep; requireKey?: boolean } = {}): Promise<FakeChatServer> {
  const dialect = opts.dialect ?? "openai";
  const queue: ChatStep[] = [];
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  const problems: string[][] = [];
  const live: LiveStreams = new Set();
  const ids = idCounter();
  const nextId = ids.nextId;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch: async (req) => {
      const path = new URL(req.url).pathname;
      const bodyText = await req.text();
      const body = parseJson(bodyText);
      requests.push({ method: req.method, path, headers: Object.fromEntries(req.headers), body, bodyText, arrivedAt: performance.now() });
      if (req.method === "GET" && path === "/v1/models") return Response.json({ object: "list", data: [{ id: "fake-model", object: "model" }] });
      if (req.method !== "POST" || path !== "/v1/chat/completions") return chatError(404, `fake server: no route for ${req.method} ${path}`);
      if ((opts.requireKey ?? dialect === "openai") && !/^bearer \S/i.test(req.headers.get("authorization") ?? "")) {
        problems.push(["no Authorization header"]);
        return chatError(401, "fake server: missing Authorization: Bearer header", "invalid_api_key");
      }
      const found = chatRequestProblems(body);
      problems.push(found);
      if (found.length) return chatError(400, `fake server: invalid request: ${found.join("; ")}`, "invalid_request_error");
      // The hidden call naming a session (src/session/title.ts) is answered on its own, consuming no step.
      const title = JSON.stringify(body.messages?.[0] ?? "").includes("You name a coding session.");
      if (title) titleRequests.push(requests.pop()!);
      const step = title ? { reply: [{ type: "text" as const, text: fakeTitleOf(body) }] } : (queue.shift() ?? opts.repeat);
      if (!step) return chatError(500, "fake server: no scripted step left");
      const ctx: ChunkContext = {
        model: String(body.model),
        promptTokens: Math.ceil(bodyText.length / 4),
        nextId,
        includeUsage: body.stream_options?.include_usage === true,
      };
      const stream = (chunks: string[], end: StreamEnd, delayMs?: number) => sseResponse(chunks, { end, delayMs, live, signal: req.signal });
      return answer(step, body, ctx, stream, () => new Request(req.url, { method: req.method, headers: req.headers, body: bodyText }));
    },
  });

  function answer(step: ChatStep, body: any, ctx: ChunkContext, stream: (c: string[], e: StreamEnd, d?: number) => Response, original: () => Request): Response | Promise<Response> {
    const quirks = DIALECTS[dialect];
    if ("respond" in step) return answer(step.respond(body), body, ctx, stream, original);
    if ("reply" in step) {
      const q = { ...quirks, ...step.quirks };
      return stream(encodeChunks(replyChunks(step, ctx, q), q), "close", step.delayMs);
    }
    if ("error" in step) {
      const headers: Record<string, string> = { ...(step.retryAfter !== undefined ? { "retry-after": String(step.retryAfter) } : {}), ...step.headers };
      if (step.body === undefined) return chatError(step.error, `fake server: scripted ${step.error}`, undefined, headers);
      const text = typeof step.body === "string" ? step.body : JSON.stringify(step.body);
      return new Response(text, { status: step.error, headers: { "content-type": "application/json", ...headers } });
    }
    if ("cut" in step) {
      const chunks = encodeChunks(replyChunks({ reply: step.cut }, ctx, quirks), quirks, false);
      return stream(chunks.slice(0, step.afterChunks ?? 2), "cut");
    }
    if ("lengthCut" in step) return stream(encodeChunks(replyChunks({ reply: step.lengthCut }, ctx, quirks, { lengthCut: true }), quirks), "close");
    if ("midStreamError" in step) {
      const chunks = encodeChunks(replyChunks({ reply: step.partial ?? [{ type: "text", text: "partial answer" }] }, ctx, quirks), quirks, false);
      const error = `data: ${JSON.stringify({ error: step.midStreamError })}\n\n`;
      return stream([...chunks.slice(0, step.afterChunks ?? 1), error], "close");
    }
    if ("hang" in step) {
      const role = { id: "chatcmpl_hang", object: "chat.completion.chunk", created: 1, model: ctx.model, choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }] };
      return stream(step.afterRole ? [`data: ${JSON.stringify(role)}\n\n`] : [], "hang");
    }
    if ("malformed" in step) return new Response('<html>502 Bad Gateway</html>\ndata: {"choices": [oops\n\n', { headers: { "content-type": "text/event-stream" } });
    return step.raw(original());
  }

  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    dialect,
    requests,
    titleRequests,
    problems,
    script: (...steps) => void queue.push(...steps),
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      problems.length = 0;
      ids.reset();
    },
    close: async () => {
      for (const drop of [...live]) drop();
      await server.stop(true);
    },
  };
}

function chatError(status: number, message: string, type = status >= 500 ? "server_error" : "invalid_request_error", headers: Record<string, string> = {}): Response {
  return Response.json({ error: { message, type, param: null, code: null } }, { status, headers });
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
