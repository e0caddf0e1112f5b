// MCP servers through the compiled binary: a real server from npm over stdio, its tool called by
// the model and its result sent back; a rule naming the server; a server that does not start.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, resultText, text, toolResultsOf, world, type World } from "./harness.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

async function configure(w: World, config: Record<string, unknown>): Promise<void> {
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify(config));
}

const everything = { command: "node", args: [EVERYTHING, "stdio"] };
// The first turn waits for servers this long at most; a loaded machine can take seconds to start node.
const WAIT = { env: { REIN_MCP_WAIT_MS: "25000" } };

test.concurrent("a print-mode run calls a stdio server's tool allowed by a server rule", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { everything }, permissions: { allow: ["mcp__everything"] } });
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "hi there" })] }, { reply: [text("done")] });
  const r = await w.run(["-p", "echo"], WAIT);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  const tools = (w.fake.requests[0]!.body as { tools: { name: string; input_schema: { properties?: object } }[] }).tools;
  const echo = tools.find((t) => t.name === "mcp__everything__echo");
  expect(echo?.input_schema.properties).toHaveProperty("message");
  const result = toolResultsOf(w.fake.requests[1])[0];
  expect(result?.is_error).toBeUndefined();
  expect(resultText(result)).toBe("Echo: hi there");
}, 30_000);

test.concurrent("without a rule an MCP call is asked for, and print mode refuses it", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { everything } });
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "x" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "echo"], WAIT);
  const result = toolResultsOf(w.fake.requests[1])[0];
  expect(result?.is_error).toBe(true);
  expect(resultText(result)).not.toContain("Echo: x");
  expect(resultText(result)).toContain("--allow 'mcp__everything__echo'");
  expect(r.stderr).toContain("refused mcp__everything__echo");
}, 30_000);

test.concurrent("a server whose command does not exist is an error result naming it; the run goes on", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { ghost: { command: "no-such-mcp-server-here" }, everything }, permissions: { allow: ["mcp__*"] } });
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "still" })] }, { reply: [text("done")] });
  const r = await w.run(["-p", "go"], WAIT);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  const names = (w.fake.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
  expect(names.some((n) => n.startsWith("mcp__ghost__"))).toBe(false);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toBe("Echo: still");
}, 30_000);

test.concurrent("rein mcp list shows each server's source, transport, state, tools and error; get shows one", async () => {
  await using w = await world();
  await configure(w, {
    mcpServers: { everything, ghost: { command: "no-such-mcp-server-here" }, typeless: { url: "http://127.0.0.1:1/mcp" }, socket: { type: "ws", url: "ws://x" }, unset: { command: "srv", args: ["${REIN_TEST_UNSET_DIR}"] } },
  });
  await Bun.write(join(w.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: "./from-the-repo" } } }));
  const r = await w.run(["mcp", "list", "--json"]);
  expect(r.code).toBe(0);
  const servers = (JSON.parse(r.stdout) as { servers: { name: string; state: string; error: string | null; source: string; transport: string | null; tools: unknown[] }[] }).servers;
  const by = Object.fromEntries(servers.map((s) => [s.name, s]));
  expect(by.everything).toMatchObject({ state: "connected", transport: "stdio", source: join(w.configDir, "config.json"), error: null });
  expect(by.everything!.tools.length).toBeGreaterThan(5);
  expect(by.ghost).toMatchObject({ state: "failed" });
  expect(by.ghost!.error).toContain("could not be started");
  expect(by.typeless!.error).toContain("url but no type");
  expect(by.socket!.error).toContain('unknown transport "ws"');
  expect(by.unset!.error).toContain("${REIN_TEST_UNSET_DIR} in its args is not set");
  expect(by.repo).toMatchObject({ state: "failed", source: join(w.cwd, ".mcp.json") });
  expect(by.repo!.error).toContain("not trusted");
  const get = await w.run(["mcp", "get", "everything"]);
  expect(get.stdout).toContain("state: connected");
  expect(get.stdout).toContain("  mcp__everything__echo\n");
  expect(await w.run(["mcp", "get", "nobody"])).toMatchObject({ code: 1 });
}, 30_000);

test.concurrent("rein doctor: a .mcp.json that is not JSON fails on one line naming the file and the error; a bad entry names its server; nothing configured says nothing", async () => {
  await using w = await world();
  const mcpLines = (stdout: string) => stdout.split("\n").filter((line) => / mcp {10}/.test(line));
  expect(mcpLines((await w.run(["doctor"])).stdout)).toEqual([]);
  const file = join(w.cwd, ".mcp.json");
  await Bun.write(file, '{"mcpServers": {"repo": {"command": "./srv",}}');
  const broken = await w.run(["doctor", "--trust"]);
  expect(broken.code).toBe(1);
  expect(mcpLines(broken.stdout)).toEqual([expect.stringMatching(new RegExp(`^FAIL mcp +${file}: not valid JSON \\(.+\\); its MCP servers are not used$`))]);
  expect(broken.stderr).not.toContain(" at ");

  await Bun.write(file, JSON.stringify({ mcpServers: { repo: { command: "./srv" }, typeless: { url: "http://127.0.0.1:1/mcp" } } }));
  const untrusted = mcpLines((await w.run(["doctor"])).stdout);
  expect(untrusted).toEqual([
    `ok   mcp           note: server "repo" (${file}): the workspace is not trusted, so its servers do not start (run rein --trust once here)`,
    expect.stringMatching(new RegExp(`^FAIL mcp +server "typeless" \\(${file}\\): the entry has a url but no type`)),
  ]);
  const trusted = mcpLines((await w.run(["doctor", "--trust"])).stdout);
  expect(trusted[0]).toBe("ok   mcp           1 server configured (repo); rein mcp list starts them and lists their tools");
  expect(trusted).toHaveLength(2);
}, 30_000);

test.concurrent("rein permissions explain --tool explains an MCP tool's call against server rules", async () => {
  await using w = await world();
  await configure(w, { permissions: { allow: ["mcp__github"], deny: ["mcp__github__delete_repo"] } });
  const allowed = await w.run(["permissions", "explain", "--tool", "mcp__github__create_issue"]);
  expect(allowed.stdout).toContain("allow mcp__github__create_issue(*): rule allow mcp__github from");
  const denied = await w.run(["permissions", "explain", "--json", "--tool", "mcp__github__delete_repo"]);
  expect(JSON.parse(denied.stdout)).toMatchObject({ decision: "deny" });
  const other = await w.run(["permissions", "explain", "--tool", "mcp__gitlab__x"]);
  expect(other.stdout.split("\n")[0]).toBe("ask: mcp__gitlab__x");
}, 30_000);

test.concurrent("a rule for a configured server's tool does not warn as unknown; one for no server does", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { slow: { command: "no-such-mcp-server-here" } }, permissions: { allow: ["mcp__slow__read", "mcp__absent__x"] } });
  w.fake.script({ reply: [text("ok")] });
  const r = await w.run(["-p", "hi"], WAIT);
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain('"mcp__slow__read"');
  expect(r.stderr).toContain('"mcp__absent__x" is none of rein\'s permissions');
}, 30_000);

test.concurrent("rein mcp add writes rein's config (user or project), remove takes it out; bad input changes nothing", async () => {
  await using w = await world();
  await configure(w, { model: "claude-sonnet-5-5" });
  expect(await w.run(["mcp", "add", "everything", "--", "node", EVERYTHING, "stdio"])).toMatchObject({ code: 0 });
  expect(await w.run(["mcp", "add", "docs", "--scope", "project", "--url", "http://127.0.0.1:9/mcp"])).toMatchObject({ code: 0 });
  const user = JSON.parse(await Bun.file(join(w.configDir, "config.json")).text());
  expect(user).toEqual({ model: "claude-sonnet-5-5", mcpServers: { everything: { command: "node", args: [EVERYTHING, "stdio"] } } });
  expect(JSON.parse(await Bun.file(w.path(".rein", "config.json")).text())).toEqual({ mcpServers: { docs: { type: "http", url: "http://127.0.0.1:9/mcp" } } });
  const bad = await w.run(["mcp", "add", "x", "--url", "ftp://nope"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('MCP server "x": url: expected an http(s) URL');
  expect(await w.run(["mcp", "remove", "everything"])).toMatchObject({ code: 0 });
  expect(JSON.parse(await Bun.file(join(w.configDir, "config.json")).text())).toEqual({ model: "claude-sonnet-5-5", mcpServers: {} });
  expect((await w.run(["mcp", "remove", "everything"])).code).toBe(1);
}, 30_000);

test.concurrent("print mode: a server's prompt as /mcp__SERVER__PROMPT, and @SERVER:URI attaching a resource", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { everything } });
  w.fake.script({ reply: [text("simple")] }, { reply: [text("read it")] });
  expect(await w.run(["-p", "/mcp__everything__simple-prompt"], WAIT)).toMatchObject({ code: 0, stdout: "simple\n" });
  expect(JSON.stringify(w.fake.requests[0]!.body)).toContain("This is a simple prompt without arguments.");
  const uri = "demo://resource/static/document/architecture.md";
  expect(await w.run(["-p", `summarise @everything:${uri}`], WAIT)).toMatchObject({ code: 0, stdout: "read it\n" });
  expect(JSON.stringify(w.fake.requests[1]!.body)).toContain(`<resource server=\\"everything\\" uri=\\"${uri}\\">`);
  // A usage error, as an unknown /command is: exit 2, nothing sent.
  const unknown = await w.run(["-p", "/mcp__everything__nope"], WAIT);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("unknown command /mcp__everything__nope: MCP server \"everything\" has the prompts /mcp__everything__simple-prompt");
  const missing = await w.run(["-p", "/mcp__everything__args-prompt"], WAIT);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toBe("rein: /mcp__everything__args-prompt: it needs city (city [state])\n");
  expect(w.fake.requests).toHaveLength(2);
}, 30_000);

test.concurrent("a user tool file named mcp__SERVER__TOOL is used instead of the server's tool: a warning names both, rein mcp get says which", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { everything }, permissions: { allow: ["mcp__everything"] } });
  const file = join(w.configDir, "tools", "echo.ts");
  await Bun.write(
    file,
    `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({ name: "mcp__everything__echo", description: "My own echo.", input: v.object({ message: v.string() }), permissions: () => [], run: ({ message }) => "mine: " + message });
`,
  );
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "hi" })] }, { reply: [text("done")] });
  const r = await w.run(["-p", "echo"], WAIT);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  const echoes = (w.fake.requests[0]!.body as { tools: { name: string; description: string }[] }).tools.filter((t) => t.name === "mcp__everything__echo");
  expect(echoes.map((t) => t.description)).toEqual(["My own echo."]);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toBe("mine: hi");
  expect(r.stderr).toContain(`MCP server "everything"'s tool mcp__everything__echo is left out: the tool file ${file} has that name and is used instead`);
  expect(r.stderr.match(/is left out: the tool file/g)).toHaveLength(1);
  const get = await w.run(["mcp", "get", "everything"]);
  expect(get.stdout).toContain(`  mcp__everything__echo  not offered\n`);
  expect(get.stdout).toContain(`  mcp__everything__echo: left out: its name is taken by the tool file ${file}, which is used instead`);
}, 30_000);

const ROGUE = join(ROOT, "test/unit/mcp/fixtures/rogue-server.ts");
const rogue = (mode: string) => ({ command: process.execPath, args: [ROGUE, mode] });

test.concurrent("each MCP server that fails at start gets one warning line on stderr and one mcp_server event", async () => {
  await using w = await world();
  const http = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => new Response("no", { status: new URL(req.url).pathname === "/down" ? 500 : 401 }) });
  try {
    const servers = {
      ghost: { command: "no-such-mcp-server-here" },
      quits: rogue("exit"),
      garbled: rogue("garbage"),
      stuck: rogue("hang-start"),
      down: { type: "http", url: `http://127.0.0.1:${http.port}/down` },
      locked: { type: "http", url: `http://127.0.0.1:${http.port}/locked` },
    };
    await configure(w, { mcpServers: servers });
    w.fake.script({ reply: [use("bash", { command: "echo one" })] }, { reply: [text("done")] });
    const r = await w.runStream(["-p", "go", "--allow", "bash"], { env: { REIN_MCP_WAIT_MS: "15000", REIN_MCP_STARTUP_TIMEOUT_MS: "2000" }, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    const told = r.events.filter((e) => e.type === "mcp_server");
    expect(told.map((e) => e.name).sort()).toEqual(Object.keys(servers).sort());
    for (const e of told) expect(e.error).toBeTruthy();
    expect(told.find((e) => e.name === "locked")?.state).toBe("needs login");
    expect(told.find((e) => e.name === "ghost")?.state).toBe("failed");
    expect(told.find((e) => e.name === "down")?.error).toContain("HTTP 500");
    // Told before the first request, once: the second turn adds nothing.
    const first = r.events.findIndex((e) => e.type === "assistant");
    expect(r.events.findLastIndex((e) => e.type === "mcp_server")).toBeLessThan(first);
    const lines = r.stderr.split("\n").filter((l) => l.includes("MCP server"));
    for (const name of Object.keys(servers)) expect(lines.filter((l) => l.includes(`MCP server "${name}" failed: `))).toHaveLength(1);
    expect(lines).toHaveLength(Object.keys(servers).length);
    for (const l of lines) expect(l).not.toContain("\n");
  } finally {
    await http.stop(true);
  }
}, 40_000);

test.concurrent("a server still starting when the first request goes out is told as not ready, in text mode too", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { slow: rogue("hang-start") } });
  w.fake.script({ reply: [text("done")] });
  const r = await w.run(["-p", "go"], { env: { REIN_MCP_WAIT_MS: "200" } });
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  expect(r.stderr.split("\n").filter((l) => l.includes('MCP server "slow" is not ready: it had not answered within 0.2 s'))).toHaveLength(1);
}, 30_000);
