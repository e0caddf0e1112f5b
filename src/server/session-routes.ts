// The session routes of `rein --serve` (docs/server.md "Routes"): bodies validated before the
// session is looked up; every failure is an ApiError the app answers as JSON.
import type { Context, Hono } from "hono";
import * as v from "valibot";
import { readRule } from "../config/rule.ts";
import { PERMISSION_MODES } from "../config/schema.ts";
import { jsonBody, type BodyLimits } from "./body.ts";
import { ApiError } from "./errors.ts";
import type { SessionHub } from "./hub.ts";
import type { ClientOf } from "./auth.ts";
import { eventStream, SSE_HEADERS, type StreamCuts, type StreamLimits } from "./sse.ts";

export type RouteDeps = {
  hub: SessionHub;
  body: BodyLimits;
  stream: StreamLimits;
  /** Lifts the server's idle timeout for a request that may rightly stay quiet (a stream, ?wait=1). */
  keepOpen: (request: Request) => void;
  /** streams cut for a stall, so each client's next stream can say so */
  cuts: StreamCuts;
  /** the sender's address (absent: every client counts as one) */
  clientOf?: ClientOf;
};

const Rule = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    const read = dataset.typed ? readRule(dataset.value, "allow") : undefined;
    if (read && "error" in read) addIssue({ message: `expected a rule like "bash(git *)" or "edit": ${read.error}` });
  }),
);
const NewSession = v.strictObject({
  cwd: v.optional(v.pipe(v.string(), v.minLength(1))),
  model: v.optional(v.pipe(v.string(), v.minLength(1))),
  permission_mode: v.optional(v.picklist(PERMISSION_MODES)),
  agent: v.optional(v.pipe(v.string(), v.minLength(1))),
  allow: v.optional(v.array(Rule)),
  deny: v.optional(v.array(Rule)),
  ask: v.optional(v.array(Rule)),
});
/** The image types the providers take, and at most this many a prompt, each at most 5 MB as sent (its base64 text). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const MAX_IMAGES = 20;
const IMAGE_CHARS = Math.ceil((5 * 1024 * 1024 * 4) / 3);
const Image = v.strictObject({
  media_type: v.picklist(IMAGE_TYPES),
  data: v.pipe(v.string(), v.minLength(1), v.maxLength(IMAGE_CHARS, "an image is at most 5 MB"), v.regex(/^[A-Za-z0-9+/]+={0,2}$/, "base64, without a data: prefix")),
});
const Prompt = v.strictObject({ text: v.pipe(v.string(), v.minLength(1)), images: v.optional(v.pipe(v.array(Image), v.maxLength(MAX_IMAGES))) });
/** A prompt's body may carry images: it is bounded higher than the other routes'. */
export const PROMPT_MAX_BYTES = 32 << 20;
const Reply = v.strictObject({
  reply: v.picklist(["once", "always", "reject"]),
  message: v.optional(v.string()),
  scope: v.optional(v.picklist(["session", "project", "user"])),
});

export function sessionRoutes(app: Hono, deps: RouteDeps): void {
  const { hub } = deps;
  app.post("/sessions", async (c) => {
    const params = await jsonBody(c, NewSession, deps.body);
    try {
      return c.json({ id: hub.create(params).id }, 201);
    } catch (error) {
      throw error instanceof ApiError ? error : new ApiError("bad_request", error instanceof Error ? error.message : String(error));
    }
  });
  app.get("/sessions", (c) => c.json({ sessions: hub.list() }));
  app.get("/sessions/:id", (c) => {
    const id = c.req.param("id");
    const session = hub.get(id);
    return c.json({
      session: hub.info(id),
      trusted: hub.trusted(id),
      context_window: session.contextWindow,
      messages: session.history(),
      pending_asks: session.pendingAsks().map((a) => ({ id: a.id, tool: a.tool, requests: a.requests, ...(a.reason ? { reason: a.reason } : {}) })),
    });
  });
  app.post("/sessions/:id/prompt", async (c) => {
    const { text, images = [] } = await jsonBody(c, Prompt, { ...deps.body, maxBytes: PROMPT_MAX_BYTES });
    const run = hub.prompt(c.req.param("id"), text, images.map((image) => ({ type: "image" as const, source: { type: "base64" as const, ...image } })));
    if (c.req.query("wait") !== "1") {
      run.catch(() => {});
      return c.json({ accepted: true }, 202);
    }
    deps.keepOpen(c.req.raw);
    return c.json(await run, 200);
  });
  app.get("/sessions/:id/events", (c) => {
    const after = lastSeen(c);
    const source = hub.events(c.req.param("id"));
    // A HEAD gets the head only: no stream, no subscription, no heartbeat left behind.
    if (c.req.method === "HEAD") return c.body(null, 200, SSE_HEADERS);
    deps.keepOpen(c.req.raw);
    const who = { cuts: deps.cuts, sessionId: c.req.param("id"), client: deps.clientOf?.(c.req.raw) ?? "" };
    return c.body(eventStream(source, after, deps.stream, Date.now, who), 200, SSE_HEADERS);
  });
  app.post("/sessions/:id/permissions/:askId", async (c) => {
    const { reply, message, scope } = await jsonBody(c, Reply, deps.body);
    if (scope && reply !== "always") throw new ApiError("bad_request", `"scope": only an "always" answer has a scope`);
    const saved = hub.reply(c.req.param("id"), c.req.param("askId"), reply, message, scope);
    return c.json({ ok: true, ...(saved ? { saved_to: saved } : {}) });
  });
  app.get("/sessions/:id/mcp", async (c) => c.json({ servers: await hub.get(c.req.param("id")).mcpServers() }));
  app.post("/sessions/:id/abort", (c) => c.json({ aborted: hub.abort(c.req.param("id")) }));
  app.delete("/sessions/:id", async (c) => {
    const purge = c.req.query("purge") === "1";
    await hub.remove(c.req.param("id"), purge);
    return c.json({ deleted: true, purged: purge });
  });
}

function lastSeen(c: Context): number {
  const given = c.req.header("last-event-id") ?? c.req.query("after") ?? "0";
  const after = Number(given);
  if (!/^\d+$/.test(given.trim()) || !Number.isSafeInteger(after)) throw new ApiError("bad_request", `Last-Event-ID (or ?after) must be a whole number, got ${JSON.stringify(given)}`);
  return after;
}
