// Who gets in: the browser's login cookie (and only with it, never a token in a URL), CORS for the
// configured origins, the Host check, wrong methods, and bodies that never arrive.
import { expect, test } from "bun:test";
import { PAGE_HTML } from "../../../src/server/page.ts";
import { ALLOWED_ORIGIN, expectError, TOKEN, useServer } from "./server-kit.ts";
import { checkResponse } from "./spec-check.ts";

const s = useServer({ page: PAGE_HTML, bodyTimeoutMs: 50 });
const OWN = "http://localhost";
const noToken = { authorization: "" };

async function logIn(): Promise<string> {
  const res = await s.call("POST", "/login", { body: `token=${encodeURIComponent(TOKEN)}`, headers: { ...noToken, origin: OWN, "content-type": "application/x-www-form-urlencoded" } });
  expect([res.status, res.headers.get("location")]).toEqual([303, "/"]);
  const cookie = res.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/^rein_login=[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
  expect(cookie).not.toContain(TOKEN);
  return cookie.split(";")[0]!;
}

test("a browser logs in with the form: the cookie opens the page, the API and the event stream; the token is never in a URL", async () => {
  const away = await s.call("GET", "/", { headers: noToken });
  expect([away.status, away.headers.get("location")]).toEqual([303, "/login"]);
  const form = await s.call("GET", "/login", { headers: noToken });
  expect(await form.text()).toContain('<form method="post" action="/login">');
  const wrong = await s.call("POST", "/login", { body: "token=not-it", headers: { ...noToken, origin: OWN } });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get("set-cookie")).toBeNull();

  const cookie = await logIn();
  const withCookie = (extra: Record<string, string> = {}) => ({ headers: { ...noToken, cookie, ...extra } });
  const page = await s.call("GET", "/", withCookie());
  expect(page.status).toBe(200);
  expect(await page.text()).not.toContain(TOKEN);
  expect((await s.call("GET", "/login", withCookie())).headers.get("location")).toBe("/");
  const created = await s.call("POST", "/sessions", { body: {}, ...withCookie({ origin: OWN }) });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const events = await s.call("GET", `/sessions/${id}/events`, withCookie());
  expect(events.headers.get("content-type")).toBe("text/event-stream");
  await events.body?.cancel();

  // A change sent with only the cookie must say where it comes from (a form on another port of this host would not).
  expect(await expectError(await s.call("POST", "/sessions", { body: {}, ...withCookie() }), 403, "forbidden_origin")).toContain("Origin");
  await expectError(await s.call("POST", "/sessions", { body: {}, ...withCookie({ origin: "http://localhost:9999" }) }), 403, "forbidden_origin");

  const out = await s.call("POST", "/logout", withCookie({ origin: OWN }));
  expect(out.headers.get("set-cookie")).toContain("rein_login=;");
  await expectError(await s.call("GET", "/sessions", withCookie()), 401, "unauthorized");
});

test("a configured origin gets its preflight answered without a token and CORS headers on every answer; others get neither", async () => {
  const preflight = await s.call("OPTIONS", "/sessions", {
    headers: { ...noToken, origin: ALLOWED_ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
  });
  expect(preflight.status).toBe(204);
  expect(Object.fromEntries([...preflight.headers].filter(([k]) => k.startsWith("access-control")))).toEqual({
    "access-control-allow-origin": ALLOWED_ORIGIN,
    "access-control-allow-methods": "GET, POST, DELETE",
    "access-control-allow-headers": "authorization, content-type, last-event-id",
    "access-control-max-age": "600",
  });
  for (const res of [
    await s.call("GET", "/sessions", { headers: { origin: ALLOWED_ORIGIN } }),
    await s.call("GET", "/health", { headers: { origin: ALLOWED_ORIGIN } }),
    await s.call("GET", "/sessions", { headers: { ...noToken, origin: ALLOWED_ORIGIN } }),
  ]) {
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
    expect(res.headers.get("vary")).toContain("Origin");
  }
  const foreign = await s.call("OPTIONS", "/sessions", { headers: { ...noToken, origin: "https://evil.example", "access-control-request-method": "POST" } });
  await expectError(foreign, 403, "forbidden_origin");
  expect([...foreign.headers.keys()].filter((k) => k.startsWith("access-control"))).toEqual([]);
  const own = await s.call("GET", "/sessions", { headers: { origin: OWN } });
  expect(own.headers.get("access-control-allow-origin")).toBeNull();
});

test("a Host the server does not answer to is refused, /health included", async () => {
  for (const path of ["/health", "/sessions", "/login"]) {
    const res = await s.call("GET", path, { headers: { host: "rebound.example:4774" } });
    expect(await expectError(res, 403, "forbidden_host")).toContain("server.hosts");
  }
});

test("a wrong method on a known path is a 405 naming the right ones; an unknown path is a 404", async () => {
  const res = await s.call("PUT", "/sessions");
  expect(await expectError(res, 405, "method_not_allowed")).toContain("GET, HEAD, POST");
  expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
  expect((await s.call("GET", "/sessions/s_1/abort")).headers.get("allow")).toBe("POST");
  const unknown = await s.app.request("/nowhere", { headers: { authorization: `Bearer ${TOKEN}` } });
  await expectError(unknown, 404, "not_found");
});

test("a body that stalls after the headers is answered 408 and the request ends", async () => {
  const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"cwd":')) });
  const res = await s.app.request("/sessions", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: stalled, duplex: "half" } as RequestInit);
  await checkResponse("POST", "/sessions", res);
  expect(res.headers.get("connection")).toBe("close");
  expect(await expectError(res, 408, "timeout")).toContain("did not arrive");
});
