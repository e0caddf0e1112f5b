// The server's lock: a bearer token on every route (compared in constant time), or, for a browser,
// the login cookie that POST /login sets once the token was typed into its form (login.ts). Every
// token check, bearer or form, goes through the throttle (throttle.ts): wrong ones slow their sender.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { fail } from "./errors.ts";
import type { TokenThrottle } from "./throttle.ts";

export const COOKIE = "rein_login";
const MAX_LOGINS = 64;

/**
 * The logins a browser holds: random values, never the token, kept in memory (a restart asks
 * again). A cookie is shared by every port of a host, so it must not be worth the token for ever.
 */
export class Logins {
  private readonly digests: Buffer[] = [];

  constructor(private readonly token: string) {}

  tokenMatches(given: string): boolean {
    return timingSafeEqual(digest(given), digest(this.token));
  }

  issue(): string {
    const value = randomBytes(24).toString("base64url");
    this.digests.push(digest(value));
    if (this.digests.length > MAX_LOGINS) this.digests.shift();
    return value;
  }

  holds(value: string): boolean {
    const wanted = digest(value);
    // every entry is compared, so the time does not say which one matched
    return this.digests.reduce((found, d) => timingSafeEqual(d, wanted) || found, false);
  }

  revoke(value: string): void {
    const wanted = digest(value);
    const at = this.digests.findIndex((d) => timingSafeEqual(d, wanted));
    if (at !== -1) this.digests.splice(at, 1);
  }
}

/** Who sent a request, for the throttle: its address (the composition root knows it), or one shared name. */
export type ClientOf = (request: Request) => string | undefined;

/** A token check of one client, through the throttle: true, false, or a 429 to answer at once. */
export async function checkToken(c: Context, gate: TokenGate, given: string): Promise<boolean | Response> {
  const client = gate.clientOf?.(c.req.raw) ?? "unknown";
  const checked = await gate.throttle.check(client, () => gate.logins.tokenMatches(given));
  if ("ok" in checked) return checked.ok;
  return fail(c, "too_many_requests", `too many wrong tokens from ${client}: wait ${checked.retryAfterS} s before trying again`, { "retry-after": String(checked.retryAfterS) });
}

export type TokenGate = { logins: Logins; throttle: TokenThrottle; clientOf?: ClientOf | undefined };

/** How the request proved itself: a bearer token, the login cookie, or not at all (or a 429 for a client sending wrong tokens). */
export async function credential(c: Context, gate: TokenGate): Promise<"bearer" | "cookie" | undefined | Response> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (bearer !== undefined) {
    const checked = await checkToken(c, gate, bearer);
    return checked === true ? "bearer" : checked === false ? undefined : checked;
  }
  const cookie = getCookie(c, COOKIE);
  return cookie && gate.logins.holds(cookie) ? "cookie" : undefined;
}

export function requireToken(gate: TokenGate): MiddlewareHandler {
  return async (c, next) => {
    const how = await credential(c, gate);
    if (how instanceof Response) return how;
    if (how === "bearer") return next();
    // A cookie rides along with any request the browser makes to this host, so a call that changes
    // something must also say it comes from the server's own page (or an allowed origin: guard.ts).
    if (how === "cookie" && (SAFE.has(c.req.method) || c.req.header("origin"))) return next();
    if (how === "cookie") return fail(c, "forbidden_origin", `a ${c.req.method} with the login cookie must carry an Origin header (browsers send one)`);
    // The page: a browser that is not logged in goes to the login form instead of a JSON answer.
    if (c.req.method === "GET" && new URL(c.req.url).pathname === "/") return c.redirect("/login", 303);
    return fail(c, "unauthorized", "missing or wrong token: send Authorization: Bearer TOKEN (see rein --serve's output for where the token is)");
  };
}

const SAFE = new Set(["GET", "HEAD"]);

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
