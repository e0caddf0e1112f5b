// Who may call at all, before any token: a request for a Host the server does not answer to is
// refused (a DNS-rebinding page sends its own name as the Host and the Origin, so the server's
// origins are taken from the names it answers to, never from Host), and so is a request from a
// web page of another origin unless it is in server.origins. Those origins get CORS headers and
// their preflights (which carry no token) are answered; nobody else gets either.
import type { MiddlewareHandler } from "hono";
import { fail } from "./errors.ts";

export type Guard = {
  /** The Host header values the server answers to (`127.0.0.1:4774`, `rein.lan:4774`...). */
  hosts: () => readonly string[];
  /** Origins besides the server's own that may call it (config server.origins). */
  origins: readonly string[];
};

const ALLOW_METHODS = "GET, POST, DELETE";
const ALLOW_HEADERS = "authorization, content-type, last-event-id";

export function requireOrigin(guard: Guard): MiddlewareHandler {
  return async (c, next) => {
    const own = guard.hosts();
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!own.includes(host.toLowerCase())) {
      return fail(c, "forbidden_host", `requests for host ${host} are refused: this server answers to ${own.join(", ")} (server.hosts in the user config adds names)`);
    }
    const origin = c.req.header("origin");
    if (!origin || own.some((h) => origin === `http://${h}`)) return next();
    if (!guard.origins.includes(origin)) {
      return fail(c, "forbidden_origin", `requests from ${origin} are refused; add it to server.origins in the user config to allow it`);
    }
    const cors = { "access-control-allow-origin": origin, vary: "Origin" };
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
      return c.body(null, 204, { ...cors, "access-control-allow-methods": ALLOW_METHODS, "access-control-allow-headers": ALLOW_HEADERS, "access-control-max-age": "600" });
    }
    await next();
    for (const [name, value] of Object.entries(cors)) c.res.headers.set(name, value);
  };
}
