// The OAuth login of a remote MCP server against the fake OAuth-protected server on 127.0.0.1:
// discovery from the 401, registration, PKCE, the loopback callback, tokens saved 0600 and used
// only for the URL they were issued for, refreshed before expiry and after a 401, and the errors
// that say to log in.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RemoteEntry } from "../../../src/mcp/config.ts";
import { LoginError } from "../../../src/mcp/oauth-discover.ts";
import { login } from "../../../src/mcp/oauth-login.ts";
import { readLogin, removeLogins } from "../../../src/mcp/oauth-store.ts";
import { startFakeOAuthMcp, type FakeOAuthMcp } from "../../fake/fake-oauth-mcp.ts";
import { call, hub } from "./servers.ts";

const tokenFileIn = () => join(mkdtempSync(join(tmpdir(), "rein-oauth-")), "data", "mcp-tokens.json");
const entryOf = (fake: FakeOAuthMcp, extra: Partial<RemoteEntry> = {}): RemoteEntry => ({ type: "http", url: fake.url, ...extra });
const follow = async (url: string) => void (await (await fetch(url)).text());

async function loggedIn(fake: FakeOAuthMcp, tokenFile = tokenFileIn()) {
  const saved = await login({ name: "remote", entry: entryOf(fake), tokenFile, env: {}, onUrl: follow });
  if (saved === "open") throw new Error("the fake asked for no login");
  return { saved, tokenFile };
}

test.concurrent("login: discovery, registration, PKCE and the loopback callback save tokens 0600 that a tool call then uses", async () => {
  await using fake = startFakeOAuthMcp();
  const { saved, tokenFile } = await loggedIn(fake);
  expect(saved).toMatchObject({ name: "remote", url: fake.url, issuer: fake.origin, resource: fake.url });
  const redirect = [...fake.clients.values()][0]!.redirect_uris[0]!;
  expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  // one request, then the port is closed
  await expect(fetch(`${redirect}?code=again&state=again`)).rejects.toThrow();
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  expect(statSync(join(tokenFile, "..")).mode & 0o777).toBe(0o700);
  await using h = hub({ remote: entryOf(fake) }, { tokenFile });
  const tools = await h.tools();
  expect(h.servers[0]!.state).toBe("connected");
  expect((await call(tools, "mcp__remote__whoami")).output).toBe(`you are ${saved.client.client_id}`);
  // the token went to the MCP endpoint and nowhere else
  const sentTo = new Set(fake.requests.filter((r) => r.authorization).map((r) => r.path));
  expect([...sentTo]).toEqual(["/mcp"]);
}, 20_000);

test.concurrent("an expired token is refreshed before it is sent; a token the server stopped taking is refreshed on the 401", async () => {
  await using fake = startFakeOAuthMcp();
  const { saved, tokenFile } = await loggedIn(fake);
  const file = JSON.parse(readFileSync(tokenFile, "utf8"));
  file.logins[`remote ${fake.url}`].tokens.expires_at = Date.now() - 1000;
  writeFileSync(tokenFile, JSON.stringify(file));
  await using h = hub({ remote: entryOf(fake) }, { tokenFile });
  const tools = await h.tools();
  expect(fake.grants).toEqual(["authorization_code", "refresh_token"]);
  expect(fake.requests.some((r) => r.path === "/mcp" && r.authorization === `Bearer ${saved.tokens.access_token}`)).toBe(false);
  const renewed = readLogin(tokenFile, { name: "remote", url: fake.url })!;
  expect(renewed.tokens.access_token).not.toBe(saved.tokens.access_token);
  expect(renewed.tokens.refresh_token).not.toBe(saved.tokens.refresh_token);

  fake.revokeAccessTokens();
  expect((await call(tools, "mcp__remote__whoami")).output).toBe(`you are ${saved.client.client_id}`);
  expect(fake.grants).toEqual(["authorization_code", "refresh_token", "refresh_token"]);
}, 20_000);

test.concurrent("a login that cannot be renewed gives the model an error that says to run rein mcp login", async () => {
  await using fake = startFakeOAuthMcp();
  const { tokenFile } = await loggedIn(fake);
  await using h = hub({ remote: entryOf(fake) }, { tokenFile });
  const tools = await h.tools();
  fake.revokeAccessTokens();
  fake.revokeRefreshTokens();
  const result = await call(tools, "mcp__remote__whoami");
  expect(result.isError).toBe(true);
  expect(result.output).toContain('MCP server "remote"');
  expect(result.output).toContain("rein mcp login remote");
  expect(result.output).not.toMatch(/at-[0-9a-f]{32}|rt-[0-9a-f]{32}/);
}, 20_000);

test.concurrent("a server that answers 401 with no login saved needs login; a login saved for another URL is not sent", async () => {
  await using fake = startFakeOAuthMcp();
  await using other = startFakeOAuthMcp();
  const { tokenFile } = await loggedIn(other);
  await using h = hub({ remote: entryOf(fake) }, { tokenFile });
  expect(await h.tools()).toEqual([]);
  expect(h.servers[0]!.state).toBe("needs login");
  expect(h.servers[0]!.lastError).toContain("rein mcp login remote");
  expect(fake.requests.filter((r) => r.authorization)).toEqual([]);
}, 20_000);

test.concurrent("a legacy SSE entry logs in from the GET's 401 and its event stream carries the token", async () => {
  await using fake = startFakeOAuthMcp();
  const tokenFile = tokenFileIn();
  const saved = await login({ name: "old", entry: entryOf(fake, { type: "sse" }), tokenFile, env: {}, onUrl: follow });
  if (saved === "open") throw new Error("the fake asked for no login");
  expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/mcp", authorization: null });
  await using h = hub({ old: entryOf(fake, { type: "sse" }) }, { tokenFile });
  await h.tools(); // the fake speaks only streamable HTTP: its 405 to the event stream fails the SSE handshake
  expect(fake.requests.some((r) => r.method === "GET" && r.path === "/mcp" && r.authorization === `Bearer ${saved.tokens.access_token}`)).toBe(true);
  expect(h.servers[0]).toMatchObject({ state: "failed", lastError: expect.stringContaining("405") });
}, 20_000);

test.concurrent("a callback with another state is refused and nothing is saved", async () => {
  await using fake = startFakeOAuthMcp();
  const tokenFile = tokenFileIn();
  const forged = async (url: string) => {
    const redirect = new URL(new URL(url).searchParams.get("redirect_uri")!);
    redirect.searchParams.set("code", "code-forged");
    redirect.searchParams.set("state", "not-the-state");
    const answer = await fetch(redirect);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("state does not match");
  };
  const failed = login({ name: "remote", entry: entryOf(fake), tokenFile, env: {}, onUrl: forged });
  await expect(failed).rejects.toThrow(/state does not match/);
  expect(fake.grants).toEqual([]);
  expect(readLogin(tokenFile, { name: "remote", url: fake.url })).toBeUndefined();
}, 20_000);

test.concurrent("metadata whose issuer is not the authorization server it came from is refused before anything is sent", async () => {
  await using fake = startFakeOAuthMcp({ issuer: () => "https://elsewhere.example" });
  const tokenFile = tokenFileIn();
  let shown = false;
  const failed = login({ name: "remote", entry: entryOf(fake), tokenFile, env: {}, onUrl: () => void (shown = true) });
  await expect(failed).rejects.toBeInstanceOf(LoginError);
  await expect(failed).rejects.toThrow(/issuer https:\/\/elsewhere\.example, not http:\/\/127\.0\.0\.1:\d+ .*refusing/);
  expect(shown).toBe(false);
  expect(fake.clients.size).toBe(0);
}, 20_000);

test.concurrent("an authorization server whose metadata never answers ends the login within the request bound, with a line naming it", async () => {
  await using fake = startFakeOAuthMcp({ hangMetadata: true });
  let shown = false;
  const failed = login({ name: "remote", entry: entryOf(fake), tokenFile: tokenFileIn(), env: {}, onUrl: () => void (shown = true), requestTimeoutMs: 300 });
  await expect(failed).rejects.toBeInstanceOf(LoginError);
  await expect(failed).rejects.toThrow(/^the authorization server's metadata \(http:\/\/127\.0\.0\.1:\d+\) could not be read: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server did not answer within 0\.3 s$/);
  expect(shown).toBe(false);
}, 20_000);

test.concurrent("metadata for another resource, or an authorization server over plain http elsewhere, is refused", async () => {
  await using other = startFakeOAuthMcp({ resource: () => "https://another.example/mcp" });
  const tokenFile = tokenFileIn();
  const wrongResource = login({ name: "remote", entry: entryOf(other), tokenFile, env: {}, onUrl: follow });
  await expect(wrongResource).rejects.toThrow(/metadata is for https:\/\/another\.example\/mcp, not http:\/\/127\.0\.0\.1:\d+\/mcp: refusing/);
  await using plain = startFakeOAuthMcp({ authorizationServer: () => "http://auth.example" });
  const insecure = login({ name: "remote", entry: entryOf(plain), tokenFile, env: {}, onUrl: follow });
  await expect(insecure).rejects.toThrow("the authorization server (http://auth.example) is not https: refusing to send a login over it");
  expect(readLogin(tokenFile, { name: "remote", url: plain.url })).toBeUndefined();
}, 20_000);

test.concurrent("a configured clientId on a fixed callbackPort is used instead of registering", async () => {
  await using fake = startFakeOAuthMcp({ noRegistration: true });
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  fake.clients.set("preset", { redirect_uris: [`http://127.0.0.1:${port}/callback`] });
  const tokenFile = tokenFileIn();
  const saved = await login({ name: "remote", entry: entryOf(fake, { oauth: { clientId: "preset", callbackPort: port } }), tokenFile, env: {}, onUrl: follow });
  expect(saved).toMatchObject({ client: { client_id: "preset" } });
  expect(fake.clients.size).toBe(1);
  const unregistered = login({ name: "remote", entry: entryOf(fake), tokenFile, env: {}, onUrl: follow });
  await expect(unregistered).rejects.toThrow(/does not register clients itself: .*"clientId"/);
}, 20_000);

test.concurrent("logout removes the server's logins, whatever URL they were for", async () => {
  await using fake = startFakeOAuthMcp();
  const { tokenFile } = await loggedIn(fake);
  expect(removeLogins(tokenFile, "someone-else")).toBe(0);
  expect(removeLogins(tokenFile, "remote")).toBe(1);
  expect(readLogin(tokenFile, { name: "remote", url: fake.url })).toBeUndefined();
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
}, 20_000);

test("an entry's oauth is checked field by field; false turns the login off", async () => {
  const { parseEntry } = await import("../../../src/mcp/config.ts");
  const url = "https://mcp.example/mcp";
  expect(parseEntry({ type: "http", url, oauth: { clientId: 5 } }, {})).toEqual({ problem: "oauth.clientId: expected oauth.clientId to be a string" });
  expect(parseEntry({ type: "http", url, oauth: "yes" }, {})).toMatchObject({ problem: expect.stringContaining("or false") });
  expect(parseEntry({ type: "http", url, oauth: { clientId: "c", scopes: ["a", "b"], callbackPort: 8123 } }, {})).toMatchObject({ oauth: { clientId: "c", scopes: ["a", "b"], callbackPort: 8123 } });
  const { remoteAuth } = await import("../../../src/mcp/oauth-fetch.ts");
  expect(remoteAuth("x", { type: "http", url, oauth: false }, "/tmp/t.json")).toBeUndefined();
  expect(remoteAuth("x", { type: "http", url, headers: { Authorization: "Bearer mine" } }, "/tmp/t.json")).toBeUndefined();
  expect(remoteAuth("x", { type: "http", url }, "/tmp/t.json")).toBeDefined();
});

test("the token file is among rein's secrets: no tool may read it, whatever the rules", async () => {
  const { sensitivePath } = await import("../../../src/permission/sensitive.ts");
  const dataDir = "/home/u/.local/share/rein";
  const { mcpSettings } = await import("../../../src/mcp/session.ts");
  const { tokenFile } = mcpSettings({ projectRoot: "/w", home: "/home/u", rein: [], trusted: false, env: {}, dataDir });
  expect(tokenFile).toBe(join(dataDir, "mcp-tokens.json"));
  expect(sensitivePath(tokenFile, "/home/u", [dataDir])).toMatchObject({ action: "deny" });
  expect(sensitivePath(`${tokenFile}.123.tmp`, "/home/u", [dataDir])).toMatchObject({ action: "deny" });
});
