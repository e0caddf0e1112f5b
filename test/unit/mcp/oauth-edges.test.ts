// The edges of an MCP login not walked by the full-login tests: a server that does not ask for a
// login, one that answers with an error, unreadable resource metadata (a note, not a failure), an
// authorization server without S256 PKCE, and the loopback callback's refusals and time limit. All
// against servers on 127.0.0.1.
import { afterEach, expect, test } from "bun:test";
import { listenForCode } from "../../../src/mcp/oauth-callback.ts";
import { discover, LoginError } from "../../../src/mcp/oauth-discover.ts";
import { startFakeOAuthMcp } from "../../fake/fake-oauth-mcp.ts";

const servers: ReturnType<typeof Bun.serve>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop(true);
});

/** An MCP endpoint at /mcp whose answers the test gives, with an authorization server beside it. */
function mcpServer(answer: (path: string, origin: string) => Response) {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => answer(new URL(req.url).pathname, new URL(req.url).origin) });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}/mcp`, origin: `http://127.0.0.1:${server.port}` };
}

const entry = (url: string) => ({ type: "http" as const, url });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(LoginError);
  return (error as Error).message;
}

test("a server that answers without a 401 asks for no login: 'open'; an error status is a refusal naming it", async () => {
  const open = mcpServer(() => Response.json({ jsonrpc: "2.0", id: 0, result: {} }));
  expect(await discover(entry(open.url))).toBe("open");
  const broken = mcpServer(() => new Response("down", { status: 503, statusText: "Service Unavailable" }));
  expect(await refusal(discover(entry(broken.url)))).toBe(`${broken.url} answered 503 Service Unavailable, not 401: it does not ask for an OAuth login there`);
});

test("a server url over plain http to another machine is refused before anything is sent", async () => {
  expect(await refusal(discover(entry("http://mcp.example/mcp")))).toBe("the server's url (http://mcp.example/mcp) is not https: refusing to send a login over it");
});

test("resource metadata that cannot be read is a note: the server is taken as its own authorization server", async () => {
  await using fake = startFakeOAuthMcp({ resourceMetadataBody: "<html>not metadata</html>" });
  const found = await discover(entry(fake.url));
  if (found === "open") throw new Error("expected a login");
  expect(found.issuer).toBe(fake.origin);
  expect(found.resource).toBe(fake.url);
  expect(found.notes).toHaveLength(1);
  expect(found.notes[0]).toContain("the server's protected resource metadata");
  expect(found.notes[0]).toContain(`taking ${fake.origin} as its own authorization server`);
});

test("a full discovery names the endpoints, the issuer and the resource, with no notes", async () => {
  await using fake = startFakeOAuthMcp();
  const found = await discover(entry(fake.url));
  if (found === "open") throw new Error("expected a login");
  expect(found).toMatchObject({ issuer: fake.origin, resource: fake.url, notes: [] });
  expect(found.metadata.token_endpoint).toStartWith(fake.origin);
  expect(found.metadata.code_challenge_methods_supported).toContain("S256");
});

test("an authorization server without S256 PKCE, or with no metadata at all, is refused", async () => {
  const noPkce = mcpServer((path, origin) => {
    if (path === "/mcp") return new Response("login", { status: 401 });
    if (path === "/.well-known/oauth-authorization-server") {
      return Response.json({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, response_types_supported: ["code"], code_challenge_methods_supported: ["plain"] });
    }
    return new Response("none", { status: 404 });
  });
  expect(await refusal(discover(entry(noPkce.url)))).toBe(`the authorization server ${noPkce.origin} does not offer S256 PKCE (code_challenge_methods_supported): refusing to log in`);
  const bare = mcpServer((path) => (path === "/mcp" ? new Response("login", { status: 401 }) : new Response("none", { status: 404 })));
  expect(await refusal(discover(entry(bare.url)))).toBe(`the authorization server ${bare.origin} publishes no metadata (/.well-known/oauth-authorization-server or openid-configuration)`);
});

test("an authorization endpoint over plain http elsewhere is refused even when the metadata is otherwise good", async () => {
  const server = mcpServer((path, origin) => {
    if (path === "/mcp") return new Response("login", { status: 401 });
    if (path === "/.well-known/oauth-authorization-server") {
      return Response.json({ issuer: origin, authorization_endpoint: "http://login.example/authorize", token_endpoint: `${origin}/token`, response_types_supported: ["code"], code_challenge_methods_supported: ["S256"] });
    }
    return new Response("none", { status: 404 });
  });
  expect(await refusal(discover(entry(server.url)))).toBe("its authorization endpoint (http://login.example/authorize) is not https: refusing to send a login over it");
});


test("callback: the code with the right state is the answer, and the browser is told it may close the tab", async () => {
  const cb = listenForCode("st-1", { timeoutMs: 10_000, name: "remote" });
  expect(cb.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const page = await fetch(`${cb.redirectUri}?state=st-1&code=abc`);
  expect(page.status).toBe(200);
  expect(await page.text()).toBe('rein: logged in to MCP server "remote". You can close this tab.\n');
  expect(await cb.code).toBe("abc");
  await cb.close();
});

test("callback: another path is a 404 and the login keeps waiting; the server's refusal and a missing code end it", async () => {
  const cb = listenForCode("st-2", { timeoutMs: 10_000, name: "remote" });
  expect((await fetch(cb.redirectUri.replace("/callback", "/favicon.ico"))).status).toBe(404);
  const refused = await fetch(`${cb.redirectUri}?state=st-2&error=access_denied&error_description=${encodeURIComponent("the user said no")}`);
  expect(refused.status).toBe(400);
  expect(await refused.text()).toBe("rein: the login failed: the authorization server refused: access_denied (the user said no)\n");
  await expect(cb.code).rejects.toThrow("the authorization server refused: access_denied (the user said no)");
  await cb.close();

  const empty = listenForCode("st-3", { timeoutMs: 10_000, name: "remote" });
  await fetch(`${empty.redirectUri}?state=st-3`);
  await expect(empty.code).rejects.toThrow("the answer has no authorization code");
  await empty.close();
});

test("callback: no answer within the time limit ends the login saying to run it again", async () => {
  const cb = listenForCode("st-4", { timeoutMs: 300, name: "remote" });
  await expect(cb.code).rejects.toThrow(`no answer came back to the login within ${300 / 60_000} minutes: run rein mcp login remote again`);
  await cb.close();
});

test("callback: a configured port already in use is one line naming it", async () => {
  const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  servers.push(taken);
  let error: unknown;
  try {
    listenForCode("st-5", { port: taken.port, timeoutMs: 1000, name: "remote" });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(LoginError);
  expect((error as Error).message).toStartWith(`could not listen on 127.0.0.1:${taken.port} for the login's answer (`);
});
