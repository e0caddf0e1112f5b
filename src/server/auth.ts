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

export function requireOrigin(allowed: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (!origin || origin === new URL(c.req.url).origin || allowed.includes(origin)) return next();
    return c.json({ error: { code: "forbidden_origin", message: `requests from ${origin} are refused; add it to server.origins in the user config to allow it` } }, 403);
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
