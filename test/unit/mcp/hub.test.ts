import { homedir } from "node:os";
// The hub against real server processes: server-everything from npm and a misbehaving server of
// our own. None of the failures stops anything: each is a state, a last error and an error result.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolDefinition } from "../../../src/agent/tool-schema.ts";
import { childEnv } from "../../../src/permission/child-env.ts";
import { call, everything, hub, rogue, until } from "./servers.ts";

test.concurrent("server-everything's tools become mcp__ tools with their JSON Schema; hints allow nothing", async () => {
  await using h = hub({ everything: everything() });
  const tools = await h.tools();
  const echo = tools.find((t) => t.name === "mcp__everything__echo")!;
  expect(toolDefinition(echo).input_schema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
  expect(echo.readOnly).toBeFalsy(); // the server says readOnlyHint: true
  // one request for mcp__everything__echo, and a denied read for an argument naming a credential
  expect(echo.permissions!({ message: "hi" }, { cwd: "/w" })).toEqual([{ permission: "mcp__everything__echo", pattern: "*", always: ["*"] }]);
  const ssh = `${process.env.HOME || homedir()}/.ssh`;
  expect(echo.permissions!({ message: `${ssh}/id_rsa` }, { cwd: "/w" })).toContainEqual({ permission: "read", pattern: ssh, always: [] });
  expect((await call(tools, "mcp__everything__echo", { message: "hi" })).output).toBe("Echo: hi");
  const image = await call(tools, "mcp__everything__get-tiny-image");
  expect(image.images?.[0]?.mediaType).toBe("image/png");
  expect(image.images?.[0]?.base64.length).toBeGreaterThan(100);
}, 20_000);

test.concurrent("stdio servers get the tool environment plus their own env, and log stderr to a file", async () => {
  const toolEnv = childEnv({ PATH: process.env.PATH, OPENAI_API_KEY: "sk-abcdefghijklmnopqrstuvwxyz", GITHUB_TOKEN: "ghp_parent", PLAIN: "yes" });
  await using h = hub({ everything: { ...everything(), env: { GITHUB_TOKEN: "listed" } } }, { toolEnv });
  const env = JSON.parse((await call(await h.tools(), "mcp__everything__get-env")).output) as Record<string, string>;
  expect(env.PLAIN).toBe("yes");
  expect(env.GITHUB_TOKEN).toBe("listed");
  expect(env).not.toHaveProperty("OPENAI_API_KEY");
  await using r = hub({ rogue: rogue() });
  await r.tools();
  const log = join(r.logDir, "rogue.log");
  await until(() => existsSync(log) && readFileSync(log, "utf8").includes("rogue started in mode serve"), "the server's stderr in its log");
}, 20_000);

test.concurrent("a server's stderr is logged up to 5 MiB per start, then one line says the rest is not; the server works", async () => {
  await using h = hub({ rogue: rogue("chatty") });
  expect((await call(await h.tools(), "mcp__rogue__ok", { text: "x" })).output).toBe('ok {"text":"x"}');
  const log = join(h.logDir, "rogue.log");
  await until(() => existsSync(log) && readFileSync(log, "utf8").includes("--- rein: the rest"), "the cap's line in the log");
  const text = readFileSync(log, "utf8");
  const body = text.slice(text.indexOf("\n") + 1, text.indexOf("\n--- rein: the rest"));
  expect(body.length).toBe(5 * 1024 * 1024);
  expect(text.trimEnd().split("\n").at(-1)).toBe("--- rein: the rest of this start's stderr is not logged (5 MiB per start at most)");
}, 20_000);

test.concurrent("a command that does not exist, and one that exits at once, fail with why", async () => {
  await using h = hub({ ghost: { command: "no-such-mcp-server-xyz" }, quitter: rogue("exit") });
  expect(await h.tools()).toEqual([]);
  const [ghost, quitter] = h.servers;
  expect(ghost!.state).toBe("failed");
  expect(ghost!.lastError).toContain("could not be started");
  expect(quitter!.state).toBe("failed");
  expect(quitter!.lastError).toContain("exited before answering the handshake");
}, 20_000);

test.concurrent("a server that hangs at start or answers garbage fails after the startup timeout", async () => {
  await using h = hub({ sleeper: rogue("hang-start"), garbage: rogue("garbage") }, { startupTimeoutMs: 300 });
  await h.start();
  for (const server of h.servers) {
    expect(server.state).toBe("failed");
    expect(server.lastError).toContain("within 0.3 s");
  }
}, 20_000);

test.concurrent("the first turn waits for slow servers only up to the bound", async () => {
  await using h = hub({ sleeper: rogue("hang-start"), fast: rogue() }, { startupTimeoutMs: 60_000, waitMs: 1 });
  const first = await h.tools();
  expect(h.servers[0]!.state).toBe("connecting");
  await until(() => h.servers[1]!.state === "connected", "the fast server");
  expect(first.some((t) => t.name.startsWith("mcp__sleeper"))).toBe(false);
  expect((await h.tools()).map((t) => t.name)).toContain("mcp__fast__ok");
}, 20_000);

test.concurrent("a crash mid-call is an error result naming the server; the next call starts it again", async () => {
  await using h = hub({ rogue: rogue() });
  const tools = await h.tools();
  const crashed = await call(tools, "mcp__rogue__crash");
  expect(crashed.isError).toBe(true);
  expect(crashed.output).toBe('MCP server "rogue" failed calling crash: the server exited or closed the connection during the call');
  expect((await call(tools, "mcp__rogue__ok", { text: "again" })).output).toBe('ok {"text":"again"}');
}, 20_000);

test.concurrent("a call that hangs times out with the server's timeout", async () => {
  await using h = hub({ rogue: rogue("serve", { timeout: 200 }) });
  const result = await call(await h.tools(), "mcp__rogue__hang");
  expect(result.isError).toBe(true);
  expect(result.output).toContain('MCP server "rogue" failed calling hang: the call did not finish within 0.2 s');
  expect(h.servers[0]!.lastError).toContain("did not finish");
}, 20_000);

test.concurrent("results: images, embedded resources, structuredContent; isError is an error", async () => {
  await using h = hub({ rogue: rogue() });
  const tools = await h.tools();
  const kinds = await call(tools, "mcp__rogue__kinds");
  expect(kinds.images).toEqual([{ mediaType: "image/png", base64: Buffer.from("not really a png").toString("base64") }]);
  expect(kinds.output).toContain("[resource file:///notes.txt]\nthe notes");
  expect(kinds.output).toContain("[resource file:///blob.bin: 16 bytes of binary, not shown]");
  expect(kinds.output).toContain('"answer": 42');
  expect(await call(tools, "mcp__rogue__fail")).toEqual({ output: "no such issue", isError: true });
}, 20_000);

test.concurrent("a tool with an invalid schema is left out; list_changed adds tools before the next turn", async () => {
  await using h = hub({ rogue: rogue() });
  const tools = await h.tools();
  expect(tools.map((t) => t.name)).not.toContain("mcp__rogue__bad-schema");
  expect(h.toolsOf(h.servers[0]!).problems).toEqual([{ tool: "bad-schema", reason: 'its input schema is not a JSON Schema of type "object"' }]);
  // The notification comes with the call's result: the very next request offers the new tool.
  await call(tools, "mcp__rogue__change");
  expect((await h.tools()).map((t) => t.name)).toContain("mcp__rogue__added");
}, 20_000);

test.concurrent("tools.allow and tools.deny pick a server's tools", async () => {
  await using h = hub({ rogue: rogue("serve", { tools: { allow: ["o*", "f*"], deny: ["fail"] } }) });
  expect((await h.tools()).map((t) => t.name)).toEqual(["mcp__rogue__ok", "mcp_resources"]);
}, 20_000);

test.concurrent("server-memory keeps what one call stored for the next", async () => {
  const memory = join(import.meta.dir, "../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js");
  const file = join(mkdtempSync(join(tmpdir(), "rein-memory-")), "memory.jsonl");
  await using h = hub({ memory: { command: "node", args: [memory], env: { MEMORY_FILE_PATH: file } } });
  const tools = await h.tools();
  const created = await call(tools, "mcp__memory__create_entities", { entities: [{ name: "rein", entityType: "project", observations: ["speaks MCP"] }] });
  expect(created.isError).toBeUndefined();
  const graph = await call(tools, "mcp__memory__read_graph");
  expect(graph.output).toContain("speaks MCP");
}, 20_000);

test.concurrent("a cached tool list is offered at once next time; the server starts on its first call", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "rein-mcp-cache-"));
  {
    await using first = hub({ rogue: rogue() }, { cacheDir, lazy: true });
    expect((await first.tools()).map((t) => t.name)).toContain("mcp__rogue__ok");
  }
  // The same configuration: offered from the cache without waiting for anything, not started.
  await using second = hub({ rogue: rogue() }, { cacheDir, lazy: true, waitMs: 1 });
  const tools = await second.tools();
  expect(tools.map((t) => t.name)).toContain("mcp__rogue__ok");
  expect(second.servers[0]!.state).toBe("closed");
  expect((await call(tools, "mcp__rogue__ok", { text: "lazy" })).output).toBe('ok {"text":"lazy"}');
  expect(second.servers[0]!.state).toBe("connected");
  // Another configuration of the same name has no cache yet: it connects as usual.
  await using third = hub({ rogue: rogue("serve", { env: { X: "1" } }) }, { cacheDir, lazy: true });
  await third.tools();
  expect(third.servers[0]!.state).toBe("connected");
}, 20_000);

test.concurrent("over the budget, one search tool stands in for the MCP tools; what it finds is sent from then on", async () => {
  await using h = hub({ rogue: rogue(), everything: everything() }, { toolBudget: 500 });
  const first = await h.tools();
  expect(first.map((t) => t.name)).toEqual(["mcp_tool_search", "mcp_resources"]);
  expect(first[0]!.description).toContain("rogue (9 tools)");
  expect(first[0]!.permissions?.({}, { cwd: "/" })).toEqual([]);
  const found = await call(first, "mcp_tool_search", { query: "echo" });
  expect(found.output).toContain("- mcp__everything__echo: ");
  expect((await call(first, "mcp_tool_search", { query: "zzz-nothing" })).output).toContain('No MCP tool matches "zzz-nothing"');
  const next = await h.tools();
  expect(next.map((t) => t.name)).toEqual(["mcp_tool_search", "mcp_resources", "mcp__everything__echo"]);
  expect((await call(next, "mcp__everything__echo", { message: "found" })).output).toBe("Echo: found");
}, 20_000);

test.concurrent("a tool with an output schema: its structuredContent reaches the model (the client validates nothing with ajv)", async () => {
  await using h = hub({ everything: everything() });
  const result = await call(await h.tools(), "mcp__everything__get-structured-content", { location: "Chicago" });
  expect(result.isError).toBeUndefined();
  expect(result.output).toContain('"temperature"');
}, 20_000);

test.concurrent("two servers whose names clean to the same prefix: the first keeps the names, the other's tools are left out and say why", async () => {
  await using h = hub({ "r.x": rogue(), r_x: rogue() });
  const names = (await h.tools()).map((t) => t.name);
  expect(names.filter((n) => n === "mcp__r_x__ok")).toHaveLength(1);
  const { serverStatus } = await import("../../../src/mcp/status.ts");
  const second = serverStatus(h.servers[1]!, h);
  expect(second.tools.find((t) => t.name === "mcp__r_x__ok")?.offered).toBe(false);
  expect(second.problems).toContainEqual({ tool: "mcp__r_x__ok", reason: 'its name is taken by a tool of MCP server "r.x"' });
  expect(serverStatus(h.servers[0]!, h).tools.find((t) => t.name === "mcp__r_x__ok")?.offered).toBe(true);
}, 20_000);

test.concurrent("a server tool named like a built-in is offered under its own name; the built-in keeps its", async () => {
  await using h = hub({ rogue: rogue() });
  const tools = await h.tools();
  expect(tools.map((t) => t.name)).toContain("mcp__rogue__bash");
  expect(tools.map((t) => t.name)).not.toContain("bash");
  expect((await call(tools, "mcp__rogue__bash")).output).toBe("not the shell");
}, 20_000);

test.concurrent("a call answered with malformed JSON-RPC times out as an error result; the server still answers the next", async () => {
  await using h = hub({ rogue: rogue("serve", { timeout: 300 }) });
  const tools = await h.tools();
  const garbled = await call(tools, "mcp__rogue__garbage");
  expect(garbled.isError).toBe(true);
  expect(garbled.output).toContain('MCP server "rogue" failed calling garbage: the call did not finish within 0.3 s');
  expect((await call(tools, "mcp__rogue__ok", { text: "still" })).output).toBe('ok {"text":"still"}');
}, 20_000);

test.concurrent("an answer over the message limit ends the connection with that reason; the next call starts the server again", async () => {
  await using h = hub({ rogue: rogue() }, { maxMessageBytes: 1024 * 1024 });
  const tools = await h.tools();
  const huge = await call(tools, "mcp__rogue__huge");
  expect(huge).toEqual({ output: 'MCP server "rogue" failed calling huge: it sent a message larger than 1 MiB (the most rein reads as one line), so it was stopped', isError: true });
  expect(h.servers[0]!.lastError).toContain("larger than 1 MiB");
  expect((await call(tools, "mcp__rogue__ok", { text: "back" })).output).toBe('ok {"text":"back"}');
}, 20_000);
