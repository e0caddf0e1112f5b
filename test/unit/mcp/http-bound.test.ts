// A remote MCP server's answers are bounded as a stdio server's lines are: a JSON answer or one
// event of an event stream past the bound fails the call with that reason, the connection is
// closed, and the next call connects again. A long stream of small events is not bounded as a whole.
import { expect, test } from "bun:test";
import { call, hub } from "./servers.ts";

const MiB = 1024 * 1024;
const big = "x".repeat(2 * MiB);
type Rpc = { jsonrpc: "2.0"; id?: number; method: string; params?: { name?: string; protocolVersion?: string } };

/** A streamable HTTP server on 127.0.0.1: JSON answers, or event streams for the tools that ask for one. */
function server(): { url: string; initializes: () => number } & AsyncDisposable {
  let initializes = 0;
  const answer = (id: number | undefined, result: unknown) => ({ jsonrpc: "2.0", id, result });
  const text = (t: string) => ({ content: [{ type: "text", text: t }] });
  const events = (parts: string[]) => new Response(parts.join(""), { headers: { "content-type": "text/event-stream" } });
  const served = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (request.method !== "POST") return new Response(null, { status: 405 });
      const rpc = (await request.json()) as Rpc;
      if (rpc.id === undefined) return new Response(null, { status: 202 });
      if (rpc.method === "initialize") {
        initializes++;
        return Response.json(answer(rpc.id, { protocolVersion: rpc.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "bounded", version: "1" } }));
      }
      if (rpc.method === "tools/list") {
        const tools = ["ok", "huge", "huge-event", "many-events"].map((name) => ({ name, description: name, inputSchema: { type: "object", properties: {} } }));
        return Response.json(answer(rpc.id, { tools }));
      }
      const name = rpc.params?.name;
      if (name === "huge") return Response.json(answer(rpc.id, text(big)));
      if (name === "huge-event") return events([`event: message\ndata: ${JSON.stringify(answer(rpc.id, text(big)))}\n\n`]);
      if (name === "many-events") {
        // 3 MiB in all, in events of 64 KiB each (progress notifications), then the answer
        const note = (i: number) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `${i} ${"y".repeat(64 * 1024)}` } })}\n\n`;
        return events([...Array.from({ length: 48 }, (_, i) => note(i)), `event: message\ndata: ${JSON.stringify(answer(rpc.id, text("many done")))}\n\n`]);
      }
      return Response.json(answer(rpc.id, text("ok")));
    },
  });
  return { url: `http://127.0.0.1:${served.port}/mcp`, initializes: () => initializes, [Symbol.asyncDispose]: () => served.stop(true) };
}

test.concurrent("an HTTP answer over the message limit fails the call with that reason; the next call connects again", async () => {
  await using s = server();
  await using h = hub({ remote: { type: "http", url: s.url } }, { maxMessageBytes: MiB });
  const tools = await h.tools();
  expect((await call(tools, "mcp__remote__ok")).output).toBe("ok");
  const huge = await call(tools, "mcp__remote__huge");
  expect(huge).toEqual({ output: 'MCP server "remote" failed calling huge: it sent a message larger than 1 MiB (the most rein reads as one message), so it was stopped', isError: true });
  expect(h.servers[0]!.lastError).toContain("larger than 1 MiB");
  expect((await call(tools, "mcp__remote__ok")).output).toBe("ok");
  expect(s.initializes()).toBe(2);
}, 20_000);

test.concurrent("one event of an event stream over the limit fails the same way; many small events past it in all are read", async () => {
  await using s = server();
  await using h = hub({ remote: { type: "http", url: s.url } }, { maxMessageBytes: MiB });
  const tools = await h.tools();
  expect((await call(tools, "mcp__remote__many-events")).output).toBe("many done");
  const huge = await call(tools, "mcp__remote__huge-event");
  expect(huge.isError).toBe(true);
  expect(huge.output).toBe('MCP server "remote" failed calling huge-event: it sent a message larger than 1 MiB (the most rein reads as one message), so it was stopped');
  expect((await call(tools, "mcp__remote__ok")).output).toBe("ok");
}, 20_000);

test.concurrent("under the default bound a 2 MiB answer is read whole", async () => {
  await using s = server();
  await using h = hub({ remote: { type: "http", url: s.url } });
  const tools = await h.tools();
  expect((await call(tools, "mcp__remote__huge")).output).toHaveLength(2 * MiB);
}, 20_000);
