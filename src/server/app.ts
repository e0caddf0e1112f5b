// The Hono app of `rein --serve` (docs/server.md): web-standard Request in, Response out; the
// composition root hands it to Bun.serve. Locked by default: only the server's own hosts, foreign
// origins refused (configured ones get CORS), a token (or the page's login cookie) on every route
// but /health and /login, bodies bounded in size and time, every answer JSON (but the page's).
import { Hono, type Context } from "hono";
import { Logins, requireToken, type ClientOf, type TokenGate } from "./auth.ts";
import type { BodyLimits } from "./body.ts";
import { ApiError, fail } from "./errors.ts";
import { requireOrigin, type Guard } from "./guard.ts";
import type { SessionHub } from "./hub.ts";
import { loginRoutes } from "./login.ts";
import { sessionRoutes } from "./session-routes.ts";
import { undoRoutes } from "./undo-routes.ts";
import { catalogRoutes, type Catalog } from "./catalog-routes.ts";
import { StreamCuts, type StreamLimits } from "./sse.ts";
import { TokenThrottle, type ThrottleClock } from "./throttle.ts";

export type AppDeps = {
  hub: SessionHub;
  token: string;
  /** origins besides the server's own that may call it (config server.origins) */
  origins: readonly string[];
  /** the Host header values the server answers to; its own origins are these */
  hosts: () => readonly string[];
  version: string;
  openapi?: Record<string, unknown>;
  /** the agents and models of a folder's configuration (GET /agents, GET /models) */
  catalog?: Catalog;
  /** the web page at / */
  page?: string;
  heartbeatMs?: number;
  /** how long a client may leave what it was sent unread before it is disconnected */
  stallMs?: number;
  bodyTimeoutMs?: number;
  keepOpen?: (request: Request) => void;
  /** the sender's address, for the throttle of wrong tokens (absent: every client counts as one) */
  clientOf?: ClientOf;
  /** the throttle's time (tests) */
  throttleClock?: ThrottleClock;
};

export const MAX_BODY = 1 << 20;

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const gate: TokenGate = { logins: new Logins(deps.token), throttle: new TokenThrottle(deps.throttleClock), clientOf: deps.clientOf };
  const body: BodyLimits = { maxBytes: MAX_BODY, timeoutMs: deps.bodyTimeoutMs ?? 30_000 };
  const stream: StreamLimits = { heartbeatMs: deps.heartbeatMs ?? 15_000, stallMs: deps.stallMs ?? 60_000, pageSize: 32 };
  app.onError((error, c) => {
    // A body that stalled is still owed: the connection is closed rather than left waiting for it.
    if (error instanceof ApiError) return fail(c, error.code, error.message, error.code === "timeout" ? { connection: "close" } : undefined);
    return fail(c, "internal", `internal error: ${error instanceof Error ? error.message : String(error)}`);
  });
  app.notFound((c) => wrongMethod(app, c) ?? fail(c, "not_found", `no route ${c.req.method} ${new URL(c.req.url).pathname}`));

  app.use("*", dropHeadBodies);
  app.use("*", requireOrigin({ hosts: deps.hosts, origins: deps.origins } satisfies Guard));
  app.get("/health", (c) => c.json({ ok: true, version: deps.version }));
  loginRoutes(app, gate, body);
  app.use("*", requireToken(gate));

  app.get("/", (c) => c.html(deps.page ?? "<!doctype html><title>rein</title><p>rein is running."));
  app.get("/openapi.json", (c) => c.json(deps.openapi ?? {}));
  sessionRoutes(app, { hub: deps.hub, body, stream, keepOpen: deps.keepOpen ?? (() => {}), cuts: new StreamCuts(), ...(deps.clientOf ? { clientOf: deps.clientOf } : {}) });
  undoRoutes(app, deps.hub, body);
  catalogRoutes(app, deps.hub, body, deps.catalog);
  return app;
}

/**
 * Hono answers HEAD by running the GET route and dropping its body without cancelling it: a
 * stream would run on unread. Cancelling ends whatever the body holds (subscriptions, timers).
 * The head is the one GET sends (RFC 9110 9.3.2): a body's real Content-Length, and none for a
 * stream (which is chunked), never a made-up `Content-Length: 0`.
 */
async function dropHeadBodies(c: Context, next: () => Promise<void>): Promise<void> {
  await next();
  if (c.req.method !== "HEAD") return;
  const headers = new Headers(c.res.headers);
  if (headers.get("content-type")?.startsWith("text/event-stream")) {
    void c.res.body?.cancel().catch(() => {});
    headers.delete("content-length");
    headers.set("transfer-encoding", "chunked");
  } else if (c.res.body) {
    headers.set("content-length", String((await c.res.arrayBuffer()).byteLength));
  } else return;
  c.res = new Response(null, { status: c.res.status, headers });
}

/** A 405 naming the methods the path has, when it has any. */
function wrongMethod(app: Hono, c: Context): Response | undefined {
  const path = new URL(c.req.url).pathname;
  const methods = new Set(app.routes.filter((r) => r.method !== "ALL" && pattern(r.path).test(path)).map((r) => r.method));
  if (methods.size === 0) return undefined;
  if (methods.has("GET")) methods.add("HEAD");
  const allow = [...methods].sort().join(", ");
  return fail(c, "method_not_allowed", `${c.req.method} is not allowed on ${path}: use ${allow}`, { allow });
}

function pattern(route: string): RegExp {
  const escaped = route.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+");
  return new RegExp(`^${escaped}$`);
}
