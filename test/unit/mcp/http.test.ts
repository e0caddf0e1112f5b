// server-everything over HTTP on 127.0.0.1: streamable HTTP, and its legacy HTTP+SSE transport
// reached through the fallback from type "http" and directly with type "sse".
import { expect, test } from "bun:test";
import { call, EVERYTHING, hub } from "./servers.ts";

async function serve(transport: "streamableHttp" | "sse"): Promise<{ port: number } & AsyncDisposable> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  const child = Bun.spawn(["node", EVERYTHING, transport], { env: { ...process.env, PORT: String(port) }, stderr: "pipe", stdout: "ignore" });
  const reader = child.stderr.getReader();
  let seen = "";
  while (!/port \d+/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server-everything ${transport} exited: ${seen}`);
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { port, [Symbol.asyncDispose]: async () => void (child.kill(), await child.exited) };
}

test.concurrent("streamable HTTP: tools listed and called", async () => {
  await using server = await serve("streamableHttp");
  await using h = hub({ remote: { type: "http", url: `http://127.0.0.1:${server.port}/mcp`, headers: { "X-Test": "1" } } });
  const tools = await h.tools();
  expect(h.servers[0]!.state).toBe("connected");
  expect((await call(tools, "mcp__remote__echo", { message: "over http" })).output).toBe("Echo: over http");
}, 20_000);

test.concurrent("an HTTP+SSE server is reached by falling back from http, and directly as sse", async () => {
  await using server = await serve("sse");
  const url = `http://127.0.0.1:${server.port}/sse`;
  await using h = hub({ fallback: { type: "http", url }, direct: { type: "sse", url } });
  const tools = await h.tools();
  expect(h.servers.map((s) => [s.state, s.lastError])).toEqual([["connected", undefined], ["connected", undefined]]);
  expect((await call(tools, "mcp__fallback__echo", { message: "a" })).output).toBe("Echo: a");
  expect((await call(tools, "mcp__direct__echo", { message: "b" })).output).toBe("Echo: b");
}, 20_000);

test.concurrent("a URL where nothing listens fails with the reason", async () => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  await using h = hub({ nobody: { type: "http", url: `http://127.0.0.1:${port}/mcp` } });
  expect(await h.tools()).toEqual([]);
  expect(h.servers[0]!.state).toBe("failed");
  expect(h.servers[0]!.lastError).toMatch(/connect|refused|ECONNREFUSED|Unable/i);
}, 20_000);
