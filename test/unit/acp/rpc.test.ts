// rein's JSON-RPC over newline-delimited JSON: a line split across chunks, a line that is not JSON,
// an unknown method, a failing handler, rein's own request answered, and the close that ends it.
import { expect, test } from "bun:test";
import { CODES, rpcConnection, RpcError } from "../../../src/acp/rpc.ts";

function wire() {
  const stream = new TransformStream<Uint8Array, Uint8Array>();
  const writer = stream.writable.getWriter();
  const sent: Record<string, any>[] = [];
  const waiters: (() => void)[] = [];
  // The lines of one tick come in one write.
  const write = (lines: string) => {
    expect(lines.endsWith("\n")).toBe(true);
    for (const line of lines.slice(0, -1).split("\n")) sent.push(JSON.parse(line));
    waiters.splice(0).forEach((w) => w());
  };
  const next = (count: number) => new Promise<void>((resolve) => (sent.length >= count ? resolve() : waiters.push(() => sent.length >= count && resolve())));
  const push = (text: string) => writer.write(new TextEncoder().encode(text));
  return { input: stream.readable, write, sent, next, push, close: () => writer.close() };
}

test("requests are answered by their handlers, errors carry their codes, and bad lines get parse errors", async () => {
  const w = wire();
  const cancelled: unknown[] = [];
  const { closed } = rpcConnection(w.input, w.write, {
    requests: {
      echo: (params) => params,
      fail: () => {
        throw new RpcError(CODES.notFound, "Resource not found", { sessionId: "x" });
      },
      crash: () => {
        throw new Error("boom");
      },
    },
    notifications: { "session/cancel": (params) => void cancelled.push(params) },
  });
  await w.push('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":');
  await w.push('1}}\n{not json\n{"jsonrpc":"2.0","id":2,"method":"nope"}\n');
  await w.push('{"jsonrpc":"2.0","id":3,"method":"fail"}\n{"jsonrpc":"2.0","id":4,"method":"crash"}\n{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}\n');
  await w.next(5);
  // Requests are answered as their handlers finish, not necessarily in order.
  expect(w.sent).toHaveLength(5);
  expect(w.sent).toEqual(expect.arrayContaining([
    { jsonrpc: "2.0", id: 1, result: { a: 1 } },
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not JSON" } },
    { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found: nope" } },
    { jsonrpc: "2.0", id: 3, error: { code: -32002, message: "Resource not found", data: { sessionId: "x" } } },
    { jsonrpc: "2.0", id: 4, error: { code: -32603, message: "boom" } },
  ]));
  expect(cancelled).toEqual([{ sessionId: "s" }]);
  await w.close();
  await closed;
});

test("rein's requests resolve with the client's result or reject with its error; closing rejects what is still waiting", async () => {
  const w = wire();
  const { peer, closed } = rpcConnection(w.input, w.write, { requests: {}, notifications: {} });
  const asked = peer.request("fs/read_text_file", { path: "/a" });
  const refused = peer.request("fs/read_text_file", { path: "/b" });
  const forgotten = peer.request("session/request_permission", {});
  await w.next(3);
  expect(w.sent.map((m) => [m.id, m.method])).toEqual([[0, "fs/read_text_file"], [1, "fs/read_text_file"], [2, "session/request_permission"]]);
  await w.push('{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"no buffer"}}\n{"jsonrpc":"2.0","id":0,"result":{"content":"text"}}\n');
  expect(await asked).toEqual({ content: "text" });
  expect(await refused.catch((e: RpcError) => [e.code, e.message])).toEqual([-32002, "no buffer"]);
  await w.close();
  await closed;
  expect(await forgotten.catch((e: Error) => e.message)).toBe("the client has closed the connection");
  peer.notify("session/update", {});
  expect(w.sent).toHaveLength(3);
});
