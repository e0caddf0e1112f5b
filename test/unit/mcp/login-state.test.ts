// What `rein mcp get` says of a remote server's saved login, read from a real token file.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { loginLine, loginState } from "../../../src/mcp/login-state.ts";
import { saveLogin, type StoredLogin } from "../../../src/mcp/oauth-store.ts";
import { tempDir } from "../../support/temp-dir.ts";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const server = { name: "remote", url: "http://127.0.0.1:9/mcp" };

function saved(tokens: StoredLogin["tokens"]) {
  const dir = tempDir("rein-login-state-");
  const file = join(dir.path, "mcp-tokens.json");
  const metadata = { issuer: "http://127.0.0.1:9", authorization_endpoint: "http://127.0.0.1:9/authorize", token_endpoint: "http://127.0.0.1:9/token", response_types_supported: ["code"] };
  saveLogin(file, { ...server, issuer: "http://127.0.0.1:9", metadata, client: { client_id: "c1" }, tokens });
  return { ...dir, file, [Symbol.dispose]: () => dir.remove() };
}

test("no saved login (or one for another URL) is none; the line says how to log in", () => {
  using dir = saved({ access_token: "secret-at", token_type: "Bearer" });
  expect(loginState(dir.file, { ...server, url: "http://127.0.0.1:9/other" }, NOW)).toEqual({ logged_in: false, expired: false, renewable: false });
  expect(loginLine(loginState(join(dir.path, "none.json"), server, NOW), "remote", NOW)).toBe("login: none saved (rein mcp login remote logs in, if the server asks for one)");
});

test("a live token: where, when it expires and whether it renews; never the token", () => {
  using dir = saved({ access_token: "secret-at", token_type: "Bearer", refresh_token: "secret-rt", expires_at: NOW + 45 * 60_000 });
  const state = loginState(dir.file, server, NOW);
  expect(state).toEqual({ logged_in: true, issuer: "http://127.0.0.1:9", expires_at: "2026-12-01T12:45:00.000Z", expired: false, renewable: true });
  const line = loginLine(state, "remote", NOW);
  expect(line).toBe("login: logged in at http://127.0.0.1:9; the token expires 2026-12-01 12:45Z (in 45 min), then is renewed with the refresh token");
  expect(JSON.stringify(state) + line).not.toContain("secret");
});

test("an expired token renews with a refresh token, or needs a new login without one; no expiry is said", () => {
  using renewable = saved({ access_token: "a", token_type: "Bearer", refresh_token: "r", expires_at: NOW - 1 });
  expect(loginLine(loginState(renewable.file, server, NOW), "remote", NOW)).toBe("login: logged in at http://127.0.0.1:9; the token expired 2026-12-01 11:59Z and is renewed with the refresh token at the next use");
  using lapsed = saved({ access_token: "a", token_type: "Bearer", expires_at: NOW - 3 * 3_600_000 });
  expect(loginLine(loginState(lapsed.file, server, NOW), "remote", NOW)).toBe("login: expired 2026-12-01 09:00Z (rein mcp login remote to log in again)");
  using forever = saved({ access_token: "a", token_type: "Bearer" });
  expect(loginLine(loginState(forever.file, server, NOW), "remote", NOW)).toBe("login: logged in at http://127.0.0.1:9; the token has no expiry");
  using later = saved({ access_token: "a", token_type: "Bearer", expires_at: NOW + 3 * 86_400_000 });
  expect(loginLine(loginState(later.file, server, NOW), "remote", NOW)).toContain("(in 3 days)");
});
