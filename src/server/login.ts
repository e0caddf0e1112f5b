// The browser's way in: GET /login is a form for the token; POST /login checks it and sets an
// HttpOnly, SameSite=Strict cookie (a random login value, never the token), so the page survives a
// reload and a bookmark and its EventSource is let in too, with no token in any URL or log.
// The pages use referrer policy same-origin: with no-referrer, Chromium sends `Origin: null` on a
// same-origin POST, which the origin check must refuse.
import type { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { checkToken, COOKIE, credential, type TokenGate } from "./auth.ts";
import { readBody, type BodyLimits } from "./body.ts";

const WEEK_S = 7 * 24 * 60 * 60;

export function loginRoutes(app: Hono, gate: TokenGate, limits: BodyLimits): void {
  app.get("/login", async (c) => {
    const how = await credential(c, gate);
    if (how instanceof Response) return how;
    return how ? c.redirect("/", 303) : c.html(form());
  });
  app.post("/login", async (c) => {
    const fields = new URLSearchParams(await readBody(c, limits));
    const token = fields.get("token")?.trim() ?? "";
    const checked = token ? await checkToken(c, gate, token) : false;
    if (checked instanceof Response) return checked;
    if (!checked) return c.html(form("That is not the server's token."), 401);
    setCookie(c, COOKIE, gate.logins.issue(), { httpOnly: true, sameSite: "Strict", path: "/", maxAge: WEEK_S });
    return c.redirect("/", 303);
  });
  app.post("/logout", (c) => {
    const value = getCookie(c, COOKIE);
    if (value) gate.logins.revoke(value);
    deleteCookie(c, COOKIE, { path: "/" });
    return c.redirect("/login", 303);
  });
}

function form(problem?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><title>rein: log in</title>
<style>
  :root { color-scheme: light dark; }
  body { font: 15px/1.5 system-ui, sans-serif; display: grid; place-items: center; min-height: 90vh; margin: 0 16px; }
  main { width: min(360px, 100%); }
  form { display: grid; gap: 10px; }
  input, button { font: inherit; padding: 8px 10px; border-radius: 6px; border: 1px solid #8884; }
  button { background: #2f6fdb; color: #fff; border-color: #2f6fdb; }
  .problem { color: light-dark(#cf222e, #ff8080); margin: 0; }
  p { margin: 0; }
</style></head>
<body><main><form method="post" action="/login">
  <h1 style="margin:0;font-size:20px">rein</h1>
  <p>Paste the server's token: it is in <code>REIN_SERVER_TOKEN</code>, <code>server.token</code> of the
  user config, or the file <code>rein --serve</code> named when it started.</p>
  ${problem ? `<p class="problem" role="alert">${problem}</p>` : ""}
  <input name="token" type="password" autocomplete="current-password" aria-label="Token" required autofocus>
  <button type="submit">Log in</button>
</form></main></body></html>`;
}
