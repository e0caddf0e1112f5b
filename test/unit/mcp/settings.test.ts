// A run's MCP settings (the bounds from the environment, the folders under the data dir), which
// rules name a configured server, `rein mcp add/remove` writing rein's own file, the one-line
// status, and the login's bounded requests and answer texts, all on real files and real servers.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mcpSettings, namesConfiguredServer } from "../../../src/mcp/settings.ts";
import { saveServer } from "../../../src/mcp/save.ts";
import { statusLine, type ServerStatus } from "../../../src/mcp/status.ts";
import { answerText, boundedFetch } from "../../../src/mcp/oauth-answers.ts";
import type { ServerConfig } from "../../../src/mcp/sources.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-mcp-settings-");
});
afterEach(() => dir.remove());

const settings = (env: Record<string, string> = {}) => mcpSettings({ projectRoot: join(dir.path, "p"), home: join(dir.path, "home"), rein: [], trusted: true, env, dataDir: join(dir.path, "data") });

describe("mcpSettings", () => {
  test("with nothing set: the defaults, and every folder under the data dir", () => {
    const s = settings();
    expect(s).toMatchObject({ servers: [], warnings: [], startupTimeoutMs: 30_000, callTimeoutMs: 120_000, waitMs: 3_000, toolBudget: 6_000 });
    expect([s.logDir, s.cacheDir, s.tokenFile]).toEqual([join(dir.path, "data", "mcp", "logs"), join(dir.path, "data", "mcp", "tools"), join(dir.path, "data", "mcp-tokens.json")]);
  });

  test("rein's variables win over Claude Code's (MCP_TIMEOUT, MCP_TOOL_TIMEOUT), which are still read alone", () => {
    expect(settings({ REIN_MCP_STARTUP_TIMEOUT_MS: "5000", MCP_TIMEOUT: "9000" }).startupTimeoutMs).toBe(5000);
    expect(settings({ MCP_TIMEOUT: "9000" }).startupTimeoutMs).toBe(9000);
    expect(settings({ MCP_TOOL_TIMEOUT: "700" }).callTimeoutMs).toBe(700);
    expect(settings({ REIN_MCP_TOOL_TIMEOUT_MS: "800", MCP_TOOL_TIMEOUT: "700" }).callTimeoutMs).toBe(800);
    expect(settings({ REIN_MCP_WAIT_MS: "10", REIN_MCP_TOOL_BUDGET: "100" })).toMatchObject({ waitMs: 10, toolBudget: 100 });
  });

  test("a value that is not a positive whole number is passed over for the next name or the default", () => {
    for (const bad of ["0", "-5", "1.5", "soon", ""]) expect(settings({ REIN_MCP_STARTUP_TIMEOUT_MS: bad, MCP_TIMEOUT: "4000" }).startupTimeoutMs).toBe(4000);
    expect(settings({ REIN_MCP_WAIT_MS: "fast" }).waitMs).toBe(3000);
  });

  test("the servers of rein's files and .mcp.json come through; a .mcp.json that is not JSON is a warning naming it", () => {
    mkdirSync(join(dir.path, "p"), { recursive: true });
    writeFileSync(join(dir.path, "p", ".mcp.json"), "{ nope");
    const s = mcpSettings({
      projectRoot: join(dir.path, "p"),
      home: join(dir.path, "home"),
      rein: [{ file: "/u/config.json", scope: "user", servers: { docs: { command: "docs-mcp" } } }],
      trusted: true,
      env: {},
      dataDir: join(dir.path, "data"),
    });
    expect(s.servers.map((x) => [x.name, x.source])).toEqual([["docs", "/u/config.json"]]);
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toStartWith(`${join(dir.path, "p", ".mcp.json")}: `);
    expect(s.warnings[0]).toEndWith("; its MCP servers are not used");
  });
});

test("namesConfiguredServer: the server's own permission or one of its tools, by the cleaned name; not a longer server's", () => {
  const servers: ServerConfig[] = [{ name: "git.hub", source: "/f", scope: "user" }, { name: "db", source: "/f", scope: "user" }];
  expect(namesConfiguredServer("mcp__git_hub", servers)).toBe(true);
  expect(namesConfiguredServer("mcp__git_hub__create_issue", servers)).toBe(true);
  expect(namesConfiguredServer("mcp__db__query", servers)).toBe(true);
  expect(namesConfiguredServer("mcp__dbx__query", servers)).toBe(false);
  expect(namesConfiguredServer("mcp__dbx", servers)).toBe(false);
  expect(namesConfiguredServer("bash", servers)).toBe(false);
});

describe("saveServer (rein mcp add/remove)", () => {
  test("adds an entry to a file that does not exist yet, mode 0600", () => {
    const file = join(dir.path, "cfg", "config.json");
    expect(saveServer(file, "docs", { command: "docs-mcp", args: ["--stdio"] })).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: { docs: { command: "docs-mcp", args: ["--stdio"] } } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("keeps every other key and server as it was; replaces one of the same name; removes by name", () => {
    const file = join(dir.path, "config.json");
    writeFileSync(file, JSON.stringify({ model: "opus", permissions: { allow: ["read"] }, mcpServers: { a: { command: "a" }, b: { command: "b" } } }));
    saveServer(file, "a", { type: "http", url: "https://a.example/mcp" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ model: "opus", permissions: { allow: ["read"] }, mcpServers: { a: { type: "http", url: "https://a.example/mcp" }, b: { command: "b" } } });
    expect(saveServer(file, "b", undefined)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers).toEqual({ a: { type: "http", url: "https://a.example/mcp" } });
  });

  test("removing a server the file does not have is false and leaves the file untouched", () => {
    const file = join(dir.path, "config.json");
    const text = '{"model":"opus"}';
    writeFileSync(file, text);
    expect(saveServer(file, "ghost", undefined)).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  test("a file that is not a JSON object is refused with a sentence, unchanged; an mcpServers that is not an object is replaced", () => {
    const file = join(dir.path, "config.json");
    writeFileSync(file, "[1, 2]");
    expect(() => saveServer(file, "x", { command: "x" })).toThrow(`${file} is not a JSON object, so it was not changed; fix the file first`);
    expect(readFileSync(file, "utf8")).toBe("[1, 2]");
    writeFileSync(file, '{"mcpServers": ["odd"]}');
    saveServer(file, "x", { command: "x" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: { x: { command: "x" } } });
  });
});

describe("statusLine", () => {
  const row = (over: Partial<ServerStatus>): ServerStatus =>
    ({ name: "docs", source: "/p/.mcp.json", scope: "project", transport: "stdio", state: "connected", tools: [], prompts: [], resources: [], problems: [], error: null, ...over }) as ServerStatus;
  const tool = (name: string, offered: boolean) => ({ name: `mcp__docs__${name}`, server_name: name, offered });

  test("a connected server counts only its offered tools, and its prompts", () => {
    expect(statusLine(row({ tools: [tool("a", true), tool("b", false), tool("c", true)], prompts: ["/mcp__docs__p"] }))).toBe("docs  stdio  connected  2 tools  1 prompts  /p/.mcp.json");
    expect(statusLine(row({}))).toBe("docs  stdio  connected  0 tools  /p/.mcp.json");
  });

  test("a server not connected has no tool count unless its cached tools are known; an error ends the line", () => {
    expect(statusLine(row({ state: "failed", transport: null, error: "spawn docs-mcp ENOENT" }))).toBe("docs  -  failed  /p/.mcp.json  spawn docs-mcp ENOENT");
    expect(statusLine(row({ state: "connecting", tools: [tool("a", true)] }))).toBe("docs  stdio  connecting  1 tools  /p/.mcp.json");
  });
});

describe("the login's requests", () => {
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch(req) {
        const path = new URL(req.url).pathname;
        if (path === "/fast") return Response.json({ ok: true }, { status: 201, headers: { "x-kept": "yes" } });
        if (path === "/events") return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("data: 1\n\n")) }), { headers: { "content-type": "text/event-stream" } });
        if (path === "/slow-body") {
          return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"par')) }), { headers: { "content-type": "application/json" } });
        }
        return new Promise<Response>((resolve) => req.signal.addEventListener("abort", () => resolve(new Response(""))));
      },
    });
  });
  afterAll(() => server.stop(true));
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}?client_secret=hidden`;

  test("an answer in time comes through whole: status, headers and body", async () => {
    const res = await boundedFetch(fetch, 5000)(url("/fast"));
    expect([res.status, res.headers.get("x-kept"), await res.json()]).toEqual([201, "yes", { ok: true }]);
  });

  test("no answer within the bound fails with a line naming the URL without its query", async () => {
    const error = await boundedFetch(fetch, 200)(url("/hang")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`http://127.0.0.1:${server.port}/hang did not answer within 0.2 s`);
    expect((error as Error).name).toBe("Error");
  });

  test("a body that stops coming is bounded too; an event stream is handed on open", async () => {
    const body = await boundedFetch(fetch, 200)(url("/slow-body")).catch((e: unknown) => e);
    expect((body as Error).message).toBe(`http://127.0.0.1:${server.port}/slow-body did not answer within 0.2 s`);
    const events = await boundedFetch(fetch, 200)(url("/events"));
    expect(events.headers.get("content-type")).toBe("text/event-stream");
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    await reader.cancel();
  });

  test("the caller's own abort still ends the request", async () => {
    const controller = new AbortController();
    const pending = boundedFetch(fetch, 10_000)(url("/hang"), { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const error = (await pending) as Error;
    expect(error.message).not.toContain("did not answer");
  });

  test("answerText: wrong-shaped answers name their fields; missing ones say lacks; JSON and other errors are one line", () => {
    expect(answerText({ issues: [{ path: ["token_endpoint"], message: "Required, received undefined" }, { path: ["issuer"], message: "Required, received undefined" }] })).toBe("its answer lacks token_endpoint, issuer");
    expect(answerText({ issues: [{ path: ["expires_in"], message: "Expected number, received string" }, { path: ["expires_in"], message: "again" }] })).toBe("its answer has a wrong expires_in");
    expect(answerText({ issues: [{ path: [], message: "Expected object, received array" }] })).toBe("its answer has a wrong (the whole answer)");
    expect(answerText(new SyntaxError("Unexpected token <"))).toBe("its answer is not JSON");
    expect(answerText(new Error("line one\n   line two"))).toBe("line one line two");
    expect(answerText("x".repeat(500))).toHaveLength(300);
  });
});
