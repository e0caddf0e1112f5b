// The routes the server shares with the command line, driven over HTTP on the compiled binary:
// checkpoints (list, diff, restore), undo and redo, fork, agents and models; and HEAD's head on the
// wire. Every answer is checked against the OpenAPI document, every event against its Event schema.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { checkedSse } from "../unit/server/server-kit.ts";
import { checkResponse } from "../unit/server/spec-check.ts";
import { bash, text, type ReinEvent, type World, world } from "./harness.ts";

const TOKEN = "e2e-routes-token-of-32-chars-ok!";

type Server = { url: string; port: number; call: (method: string, path: string, body?: unknown) => Promise<Response> };

async function serve(w: World, env: Record<string, string> = {}): Promise<Server> {
  const rein = w.start(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: TOKEN, ...env } });
  await rein.waitForStdout((out) => out.includes("\n"), "the server's URL on stdout");
  const url = rein.stdout.split("\n")[0]!;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    await checkResponse(method, path, res);
    return res;
  };
  return { url, port: Number(new URL(url).port), call };
}

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const body = (await res.json()) as T;
  expect({ status: res.status, body }).toMatchObject({ status, body: expect.anything() });
  return body;
}

test.concurrent("checkpoints list, diff and restore, redo and undo over HTTP, as rein checkpoints and rein undo do", async () => {
  await using w = await world();
  await writeFile(w.path("a.txt"), "before\n");
  w.fake.script({ reply: [bash("echo after > a.txt && echo new > new.txt")] }, { reply: [text("changed")] });
  const server = await serve(w);
  const { id } = await json<{ id: string }>(await server.call("POST", "/sessions", { permission_mode: "auto" }), 201);
  expect(await json(await server.call("POST", `/sessions/${id}/prompt?wait=1`, { text: "change the files" }), 200)).toMatchObject({ status: "success" });

  const { checkpoints } = await json<{ checkpoints: { n: number; changed: unknown[] }[] }>(await server.call("GET", `/sessions/${id}/checkpoints`), 200);
  expect(checkpoints.map((c) => c.n)).toEqual([1]);
  expect(checkpoints[0]!.changed).toEqual(expect.arrayContaining([{ status: "modified", path: "a.txt" }, { status: "added", path: "new.txt" }]));
  const diff = await json<{ n: number; patch: string }>(await server.call("GET", `/sessions/${id}/checkpoints/1/diff`), 200);
  expect(diff.n).toBe(1);
  expect(diff.patch).toContain("-before\n+after");
  expect(((await json<{ error: { message: string } }>(await server.call("GET", `/sessions/${id}/checkpoints/9/diff`), 404)).error.message)).toContain("has no checkpoint 9");
  expect(((await json<{ error: { code: string } }>(await server.call("GET", `/sessions/${id}/checkpoints/one/diff`), 400)).error.code)).toBe("bad_request");

  const restored = await json<{ type: string; files: string[] }>(await server.call("POST", `/sessions/${id}/checkpoints/1/restore`, {}), 200);
  expect(restored.type).toBe("done");
  expect(restored.files.sort()).toEqual(["a.txt", "new.txt"]);
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("before\n");
  expect(existsSync(w.path("new.txt"))).toBe(false);
  expect(await json(await server.call("POST", `/sessions/${id}/checkpoints/1/restore`, {}), 409)).toMatchObject({ type: "nothing" });

  expect(await json(await server.call("POST", `/sessions/${id}/redo`, {}), 200)).toMatchObject({ type: "done" });
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("after\n");
  expect(await json(await server.call("POST", `/sessions/${id}/undo`, { part: "code" }), 200)).toMatchObject({ type: "done" });
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("before\n");

  // the stream sends the checkpoint and each undo, and each validates against the spec's Event schema
  const sse = checkedSse(await server.call("GET", `/sessions/${id}/events`));
  let undos = 0;
  const events = (await sse.until((e) => e.event === "undo" && ++undos === 3)).map((e) => e.data as ReinEvent);
  await sse.close();
  expect(events.filter((e) => e.type === "checkpoint" || e.type === "undo").map((e) => (e.type === "undo" ? `undo redo=${e.redo}` : e.type))).toEqual([
    "checkpoint",
    "undo redo=false",
    "undo redo=true",
    "undo redo=false",
  ]);
});

test.concurrent("an undo and a redo reach a stream already open at once, not at its next heartbeat (here an hour away)", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo new > new.txt")] }, { reply: [text("changed")] });
  const server = await serve(w, { REIN_SSE_HEARTBEAT_MS: "3600000" });
  const { id } = await json<{ id: string }>(await server.call("POST", "/sessions", { permission_mode: "auto" }), 201);
  expect(await json(await server.call("POST", `/sessions/${id}/prompt?wait=1`, { text: "make a file" }), 200)).toMatchObject({ status: "success" });
  const sse = checkedSse(await server.call("GET", `/sessions/${id}/events`));
  await sse.until((e) => e.event === "result");
  expect(await json(await server.call("POST", `/sessions/${id}/undo`, {}), 200)).toMatchObject({ type: "done" });
  await sse.until((e) => e.event === "undo" && (e.data as { redo: boolean }).redo === false);
  expect(await json(await server.call("POST", `/sessions/${id}/redo`, {}), 200)).toMatchObject({ type: "done" });
  await sse.until((e) => e.event === "undo" && (e.data as { redo: boolean }).redo === true);
  await sse.close();
  expect(await readFile(w.path("new.txt"), "utf8")).toBe("new\n");
});

test.concurrent("fork, agents and models over HTTP, as rein sessions fork, /agents and rein models list them", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo hi", "toolu_1")] }, { reply: [text("done")] });
  const server = await serve(w);
  const { id } = await json<{ id: string }>(await server.call("POST", "/sessions", { allow: ["bash(echo *)"] }), 201);
  await json(await server.call("POST", `/sessions/${id}/prompt?wait=1`, { text: "say hi" }), 200);

  const whole = await json<{ id: string; from: string; messages: number; requested: number }>(await server.call("POST", `/sessions/${id}/fork`, {}), 201);
  expect(whole).toMatchObject({ from: id, messages: 4, requested: 4 });
  expect(whole.id).not.toBe(id);
  // two messages would end on a tool call without its result: the fork is cut back to one
  const cut = await json<{ id: string; messages: number; requested: number }>(await server.call("POST", `/sessions/${id}/fork`, { at: 2 }), 201);
  expect(cut).toMatchObject({ messages: 1, requested: 2 });
  const forked = await json<{ messages: unknown[]; session: { cwd: string } }>(await server.call("GET", `/sessions/${cut.id}`), 200);
  expect(forked.messages).toHaveLength(1);
  expect(((await json<{ error: { message: string } }>(await server.call("POST", `/sessions/${id}/fork`, { at: -1 }), 400)).error.message)).toContain("at");
  await json(await server.call("POST", "/sessions/s_nope/fork", {}), 404);

  const { agents } = await json<{ agents: { name: string; mode: string; default: boolean }[] }>(await server.call("GET", "/agents"), 200);
  expect(agents.find((a) => a.name === "build")).toMatchObject({ mode: "primary", default: true });
  expect(agents.find((a) => a.name === "plan")).toMatchObject({ default: false });
  expect(((await json<{ error: { message: string } }>(await server.call("GET", "/agents?cwd=/no/such/folder"), 400)).error.message)).toContain('"cwd"');

  const models = await json<{ model: string; providers: { name: string; key: string; models: { name: string }[] }[] }>(await server.call("GET", `/models?cwd=${encodeURIComponent(w.path())}`), 200);
  expect(typeof models.model).toBe("string");
  const anthropic = models.providers.find((p) => p.name === "anthropic");
  expect(anthropic?.key).toBe("set");
  expect(anthropic?.models.length).toBeGreaterThan(0);
  expect(JSON.stringify(models)).not.toContain(w.env().ANTHROPIC_API_KEY ?? "no key in the env");

  // HEAD on the wire: GET's Content-Length for a body, none for the chunked stream (RFC 9110)
  const list = await fetch(`${server.url}/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const bytes = (await list.arrayBuffer()).byteLength;
  const head = await rawHead(server.port, "/sessions");
  expect(head).toMatch(/^HTTP\/1\.1 200/);
  expect(head.toLowerCase()).toContain(`content-length: ${bytes}\r\n`);
  const streamHead = (await rawHead(server.port, `/sessions/${id}/events`)).toLowerCase();
  expect(streamHead).toContain("content-type: text/event-stream");
  expect(streamHead).not.toContain("content-length");
});

/** The head a HEAD gets, read off the socket (fetch hides Content-Length rules). */
function rawHead(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`),
    );
    socket.on("data", (chunk) => {
      answer += chunk;
      if (answer.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(answer.slice(0, answer.indexOf("\r\n\r\n") + 2));
      }
    });
    socket.on("error", reject);
  });
}

test.concurrent("a subagent's events reach its parent's live stream, marked with the task call and without an id; its parent's events keep theirs", async () => {
  await using w = await world();
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_find", input: { description: "find", prompt: "find main", subagent_type: "explore" } }] },
    { reply: [text("main is in src/main.ts")] },
    { reply: [text("The child found it.")] },
  );
  const server = await serve(w);
  const { id } = await json<{ id: string }>(await server.call("POST", "/sessions", {}), 201);
  const res = await fetch(`${server.url}/sessions/${id}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = "";
  await json(await server.call("POST", `/sessions/${id}/prompt`, { text: "where is main?" }), 202);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    raw += decoder.decode(value, { stream: true });
    // the parent's own result (a child's result carries parent_tool_use_id)
    if (raw.split("\n\n").some((frame) => frame.includes('"type":"result"') && !frame.includes("parent_tool_use_id"))) break;
  }
  await reader.cancel();
  const frames = raw.split("\n\n").filter((f) => f.includes("data: "));
  const child = frames.filter((f) => f.includes('"parent_tool_use_id":"toolu_find"'));
  expect(child.some((f) => f.includes("main is in src/main.ts"))).toBe(true);
  expect(child.every((f) => !/^id: /m.test(f))).toBe(true);
  const own = frames.filter((f) => !f.includes("parent_tool_use_id"));
  expect(own.every((f) => /^id: \d+$/m.test(f))).toBe(true);
  // the child's events come between the task call's start and its end
  const at = (check: (f: string) => boolean) => frames.findIndex(check);
  const start = at((f) => f.includes("event: tool_start") && f.includes("toolu_find"));
  const end = at((f) => f.includes("event: tool_end") && f.includes('"id":"toolu_find"') && !f.includes("parent_tool_use_id"));
  const firstChild = at((f) => f.includes('"parent_tool_use_id":"toolu_find"'));
  expect(start).toBeGreaterThanOrEqual(0);
  expect(firstChild).toBeGreaterThan(start);
  expect(end).toBeGreaterThan(firstChild);
});
