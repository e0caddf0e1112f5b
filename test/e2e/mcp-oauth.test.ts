// The OAuth login of a remote MCP server through the compiled binary, against the fake
// OAuth-protected server on 127.0.0.1: `rein mcp list` says it needs a login, `rein mcp login`
// prints the URL (the test follows it with fetch, as a browser would), the tool is then called
// with the token, a login that cannot be renewed becomes an error result the model reads, and
// `rein mcp logout` removes the tokens. Tokens never reach the model or the output.
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { startFakeOAuthMcp, type FakeOAuthMcp } from "../fake/fake-oauth-mcp.ts";
import { resultText, text, toolResultsOf, world, type World } from "./harness.ts";

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

async function configure(w: World, fake: FakeOAuthMcp): Promise<void> {
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ mcpServers: { remote: { type: "http", url: fake.url } }, permissions: { allow: ["mcp__remote"] } }));
}

function authorizationUrl(stdout: string): string {
  const url = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stdout)?.[1];
  if (!url) throw new Error(`no authorization URL in:\n${stdout}`);
  return url;
}

test.concurrent("needs login, login through the printed URL, a tool call with the token, a lapsed login, logout", async () => {
  await using w = await world();
  await using fake = startFakeOAuthMcp();
  await configure(w, fake);

  const before = await w.run(["mcp", "list"]);
  expect(before.stdout).toMatch(/^remote {2}http {2}needs login {2}.*rein mcp login remote/m);
  expect((await w.run(["mcp", "get", "remote"])).stdout).toContain("\nlogin: none saved (rein mcp login remote logs in");

  const login = w.start(["mcp", "login", "remote"]);
  await login.waitForStdout((out) => out.includes("Waiting for the browser"), "the authorization URL");
  const page = await fetch(authorizationUrl(login.stdout));
  expect(await page.text()).toContain('logged in to MCP server "remote"');
  const done = await login.exited;
  expect(done).toMatchObject({ code: 0 });
  expect(done.stdout).toContain(`logged in to MCP server "remote" (tokens saved in ${join(w.dataDir, "mcp-tokens.json")}); it offers 1 tool`);
  const tokenFile = join(w.dataDir, "mcp-tokens.json");
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  expect(statSync(w.dataDir).mode & 0o777).toBe(0o700);
  const { access_token } = JSON.parse(await Bun.file(tokenFile).text()).logins[`remote ${fake.url}`].tokens;
  expect(done.stdout + done.stderr).not.toContain(access_token);
  const got = await w.run(["mcp", "get", "remote"]);
  expect(got.stdout).toMatch(/\nlogin: logged in at http:\/\/127\.0\.0\.1:\d+; the token expires \d{4}-\d\d-\d\d \d\d:\d\dZ \(in \d+ (min|h)\), then is renewed with the refresh token\n/);
  const json = JSON.parse((await w.run(["mcp", "get", "remote", "--json"])).stdout) as { login: Record<string, unknown> };
  expect(json.login).toMatchObject({ logged_in: true, expired: false, renewable: true });
  expect(got.stdout + JSON.stringify(json)).not.toContain(access_token);

  w.fake.script({ reply: [use("mcp__remote__whoami", {})] }, { reply: [text("done")] });
  const run = await w.run(["-p", "who am I?"]);
  expect(run).toMatchObject({ code: 0 });
  expect(resultText(toolResultsOf(w.fake.requests.at(-1))[0])).toMatch(/^you are client-/);
  expect(w.fake.requests.some((r) => r.bodyText.includes(access_token))).toBe(false);

  // a token past its expiry is renewed before it is sent
  const file = JSON.parse(await Bun.file(tokenFile).text());
  file.logins[`remote ${fake.url}`].tokens.expires_at = Date.now() - 1000;
  await Bun.write(tokenFile, JSON.stringify(file));
  w.fake.script({ reply: [use("mcp__remote__whoami", {})] }, { reply: [text("done")] });
  expect(await w.run(["-p", "and now?"])).toMatchObject({ code: 0 });
  expect(resultText(toolResultsOf(w.fake.requests.at(-1))[0])).toMatch(/^you are client-/);
  expect(fake.grants).toEqual(["authorization_code", "refresh_token"]);
  expect(fake.requests.filter((r) => r.path === "/mcp" && r.authorization === `Bearer ${access_token}`).length).toBeGreaterThan(0);
  expect(JSON.parse(await Bun.file(tokenFile).text()).logins[`remote ${fake.url}`].tokens.access_token).not.toBe(access_token);

  fake.revokeAccessTokens();
  fake.revokeRefreshTokens();
  w.fake.script({ reply: [use("mcp__remote__whoami", {})] }, { reply: [text("done")] });
  expect(await w.run(["-p", "again"])).toMatchObject({ code: 0 });
  const lapsed = toolResultsOf(w.fake.requests.at(-1))[0];
  expect(lapsed?.is_error).toBe(true);
  expect(resultText(lapsed)).toContain("run `rein mcp login remote` in a terminal");

  expect(await w.run(["mcp", "logout", "remote"])).toMatchObject({ code: 0 });
  expect(JSON.parse(await Bun.file(tokenFile).text()).logins).toEqual({});
  const again = await w.run(["mcp", "logout", "remote"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('no login is saved for MCP server "remote"');
}, 60_000);

test.concurrent("a callback with another state ends the login with an error and saves nothing", async () => {
  await using w = await world();
  await using fake = startFakeOAuthMcp();
  await configure(w, fake);
  const login = w.start(["mcp", "login", "remote"]);
  await login.waitForStdout((out) => out.includes("Waiting for the browser"), "the authorization URL");
  const callback = new URL(new URL(authorizationUrl(login.stdout)).searchParams.get("redirect_uri")!);
  callback.search = "?code=forged&state=forged";
  expect((await fetch(callback)).status).toBe(400);
  const done = await login.exited;
  expect(done.code).toBe(1);
  expect(done.stderr).toMatch(/^rein: the login to MCP server "remote" failed: the answer's state does not match this login/m);
  expect(await Bun.file(join(w.dataDir, "mcp-tokens.json")).exists()).toBe(false);
  expect(fake.grants).toEqual([]);
}, 30_000);

test.concurrent("an authorization server whose metadata names another issuer is refused, before any URL is shown", async () => {
  await using w = await world();
  await using fake = startFakeOAuthMcp({ issuer: () => "https://elsewhere.example" });
  await configure(w, fake);
  const r = await w.run(["mcp", "login", "remote"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^rein: the login to MCP server "remote" failed: the authorization server's metadata names issuer https:\/\/elsewhere\.example, not http:\/\/127\.0\.0\.1:\d+ where it was found: refusing to log in/);
  expect(fake.clients.size).toBe(0);
}, 30_000);

test.concurrent("login refuses a stdio server and an unknown name with one line each", async () => {
  await using w = await world();
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ mcpServers: { local: { command: "node" } } }));
  const stdio = await w.run(["mcp", "login", "local"]);
  expect(stdio).toMatchObject({ code: 1, stderr: 'rein: MCP server "local" is a stdio server (a program on this machine): it has no login\n' });
  const unknown = await w.run(["mcp", "login", "nobody"]);
  expect(unknown).toMatchObject({ code: 1, stderr: 'rein: no MCP server named "nobody" (configured: local)\n' });
  expect((await w.run(["mcp", "login"])).code).toBe(2);
}, 30_000);

test.concurrent("a registration answer without redirect_uris ends the login with one line naming the field", async () => {
  await using w = await world();
  await using fake = startFakeOAuthMcp({ registration: ({ redirect_uris: _, ...rest }) => rest });
  await configure(w, fake);
  const r = await w.run(["mcp", "login", "remote"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^rein: the login to MCP server "remote" failed: registering rein with http:\/\/127\.0\.0\.1:\d+ failed: its answer lacks redirect_uris\n$/);
}, 30_000);

test.concurrent("protected resource metadata that is not JSON is told in one line, and the login URL still names the resource", async () => {
  await using w = await world();
  await using fake = startFakeOAuthMcp({ resourceMetadataBody: "<html>maintenance</html>" });
  await configure(w, fake);
  const login = w.start(["mcp", "login", "remote"]);
  await login.waitForStdout((out) => out.includes("Waiting for the browser"), "the authorization URL");
  const url = new URL(authorizationUrl(login.stdout));
  expect(url.searchParams.get("resource")).toBe(fake.url);
  await (await fetch(url)).text();
  const r = await login.exited;
  expect(r.code).toBe(0);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^rein: the server's protected resource metadata \(http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp\) could not be read \(its answer is not JSON\); taking http:\/\/127\.0\.0\.1:\d+ as its own authorization server$/);
}, 30_000);
