// The server's locks: a bearer token on every route (compared in constant time), and no calls from
// a web page of another origin (a page the user visits must not drive their agent).
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

export function requireToken(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    // The page at / may be opened from a browser's address bar, which cannot send a header.
    const given = bearer ?? (new URL(c.req.url).pathname === "/" ? c.req.query("token") : undefined);
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return next();
    return c.json({ error: { code: "unauthorized", message: "missing or wrong token: send Authorization: Bearer TOKEN (see rein --serve's output for where the token is)" } }, 401);
  };
}

/**
 * Refuses a request from a web page of another origin, and, on a loopback address, a request whose
 * Host is not the server's own (a DNS-rebinding page would send its own name as the Host and as
 * the Origin, so the server's origin is taken from the addresses it listens on, never from Host).
 */
export function requireOrigin(allowed: readonly string[], hosts?: () => readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const own = hosts?.();
    const host = c.req.header("host");
    if (own && (!host || !own.includes(host))) {
      return c.json({ error: { code: "forbidden_origin", message: `requests for host ${host ?? "(none)"} are refused: this server answers to ${own.join(", ")}` } }, 403);
    }
    const origin = c.req.header("origin");
    const ownOrigins = own ? own.map((h) => `http://${h}`) : [new URL(c.req.url).origin];
    if (!origin || ownOrigins.includes(origin) || allowed.includes(origin)) return next();
    return c.json({ error: { code: "forbidden_origin", message: `requests from ${origin} are refused; add it to server.origins in the user config to allow it` } }, 403);
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
