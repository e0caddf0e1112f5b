// The Hono app of `rein --serve` (docs/server.md): web-standard Request in, Response out; the
// composition root hands it to Bun.serve. Locked by default: a bearer token on every route but
// /health, foreign origins refused, bodies bounded.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import * as v from "valibot";
import { HubError, type SessionHub } from "./hub.ts";
import { requireOrigin, requireToken } from "./auth.ts";
import { eventStream } from "./sse.ts";

export type AppDeps = {
  hub: SessionHub;
  token: string;
  /** origins besides the server's own that may call it (config server.origins) */
  origins: readonly string[];
  /**
   * The Host header values the server answers to (`127.0.0.1:PORT`, `localhost:PORT`...); its own
   * origins are these. Unset (a non-loopback bind with a token) accepts any host.
   */
  hosts?: () => readonly string[];
  version: string;
  heartbeatMs?: number;
  openapi?: Record<string, unknown>;
  page?: (token: string) => string;
};

const MAX_BODY = 1 << 20;
const Rule = v.pipe(v.string(), v.minLength(1));
const NewSession = v.strictObject({
  cwd: v.optional(v.pipe(v.string(), v.minLength(1))),
  model: v.optional(v.pipe(v.string(), v.minLength(1))),
  permission_mode: v.optional(v.picklist(["default", "plan", "accept-edits", "auto"])),
  allow: v.optional(v.array(Rule)),
  deny: v.optional(v.array(Rule)),
  ask: v.optional(v.array(Rule)),
});
const Prompt = v.strictObject({ text: v.pipe(v.string(), v.minLength(1)) });
const Reply = v.strictObject({ reply: v.picklist(["once", "always", "reject"]), message: v.optional(v.string()) });

export function createApp(deps: AppDeps): Hono {
  const { hub } = deps;
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof HubError) return fail(c, error.code === "not_found" ? 404 : error.code === "bad_request" ? 400 : 409, error.code, error.message);
    return fail(c, 500, "internal", error instanceof Error ? error.message : String(error));
  });
  app.notFound((c) => fail(c, 404, "not_found", `no route ${c.req.method} ${new URL(c.req.url).pathname}`));

  app.use("*", requireOrigin(deps.origins, deps.hosts));
  app.get("/health", (c) => c.json({ ok: true, version: deps.version }));
  app.use("*", requireToken(deps.token));
  app.use("*", bodyLimit({ maxSize: MAX_BODY, onError: (c) => fail(c, 413, "too_large", `the body is over ${MAX_BODY} bytes`) }));

  app.get("/", (c) => c.html(deps.page ? deps.page(deps.token) : "<!doctype html><title>rein</title><p>rein is running."));
  app.get("/openapi.json", (c) => c.json(deps.openapi ?? {}));

  app.post("/sessions", async (c) => {
    const params = await body(c, NewSession);
    try {
      return c.json({ id: hub.create(params).id }, 201);
    } catch (error) {
      throw error instanceof HubError ? error : new HubError("bad_request", error instanceof Error ? error.message : String(error));
    }
  });
  app.get("/sessions", (c) => c.json({ sessions: hub.list() }));
  app.get("/sessions/:id", (c) => {
    const id = c.req.param("id");
    const session = hub.get(id);
    return c.json({
      session: hub.info(id),
      messages: session.history(),
      pending_asks: session.pendingAsks().map((a) => ({ id: a.id, tool: a.tool, requests: a.requests, ...(a.reason ? { reason: a.reason } : {}) })),
    });
  });
  app.post("/sessions/:id/prompt", async (c) => {
    const { text } = await body(c, Prompt);
    const run = hub.prompt(c.req.param("id"), text);
    if (c.req.query("wait") === "1") return c.json(await run, 200);
    run.catch(() => {});
    return c.json({ accepted: true }, 202);
  });
  app.get("/sessions/:id/events", (c) => {
    const id = c.req.param("id");
    hub.row(id);
    const after = Number(c.req.header("last-event-id") ?? c.req.query("after") ?? 0);
    return eventStream(c, hub, id, Number.isFinite(after) ? after : 0, deps.heartbeatMs ?? 15_000);
  });
  app.post("/sessions/:id/permissions/:askId", async (c) => {
    const { reply, message } = await body(c, Reply);
    hub.reply(c.req.param("id"), c.req.param("askId"), reply, message);
    return c.json({ ok: true });
  });
  app.post("/sessions/:id/abort", (c) => c.json({ aborted: hub.abort(c.req.param("id")) }));
  app.delete("/sessions/:id", async (c) => {
    await hub.remove(c.req.param("id"));
    return c.json({ deleted: true });
  });
  return app;
}

async function body<T extends v.GenericSchema>(c: Context, schema: T): Promise<v.InferOutput<T>> {
  let json: unknown;
  try {
    const text = await c.req.text();
    json = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new HubError("bad_request", "the body is not valid JSON");
  }
  // valibot's strictObject takes an array with no elements for an object with no keys.
  if (Array.isArray(json)) throw new HubError("bad_request", "the body must be a JSON object, not an array");
  const parsed = v.safeParse(schema, json);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  throw new HubError("bad_request", `${path ? `"${path}": ` : ""}${issue?.message ?? "invalid body"}`);
}

export function fail(c: Context, status: 400 | 401 | 403 | 404 | 409 | 413 | 500, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status);
}
