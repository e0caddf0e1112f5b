// `rein --serve` as users run it: the compiled binary on a free port against the fake model. The
// server and print mode give the same events for the same conversation; the token and the address
// are locked down; SIGTERM leaves running sessions resumable.
import { expect, test } from "bun:test";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { sseReader } from "../unit/server/sse-client.ts";
import { checkResponse } from "../unit/server/spec-check.ts";
import { alternates, bash, blocksOf, messagesOf, text, type ReinEvent, type Running, type World, world } from "./harness.ts";

const TOKEN = "e2e-server-token-of-32-chars-ok!";

type Server = { rein: Running; url: string; call: (method: string, path: string, body?: unknown) => Promise<Response> };

/** Starts the server and reads its URL from the first stdout line. */
async function serve(w: World, opts: { token?: string | undefined } = {}): Promise<Server> {
  const token = "token" in opts ? opts.token : TOKEN;
  const rein = w.start(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: token } });
  await rein.waitForStdout((out) => out.includes("\n"), "the server's URL on stdout");
  // stderr is its own pipe: its lines written before the URL may be read after it
  await rein.waitForStderr((err) => err.includes("serving on"), "the server's stderr");
  const url = rein.stdout.split("\n")[0]!;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  // Every answer is checked against the OpenAPI document the binary serves.
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token ?? savedToken(rein.stderr)}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await checkResponse(method, path, res);
    return res;
  };
  return { rein, url, call };
}

/** A generated token, from the file stderr names (stderr is a pipe here, so the token itself is not on it). */
function savedToken(stderr: string): string {
  const file = /generated a server token: it is in (\S+) \(readable by you only\)/.exec(stderr)?.[1];
  if (!file) throw new Error(`no generated token's file on stderr:\n${stderr}`);
  return readFileSync(file, "utf8").trim();
}

async function newSession(server: Server, body: unknown = {}): Promise<string> {
  const res = await server.call("POST", "/sessions", body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** What must be equal between two runs of one conversation: ids, seqs and durations removed. */
function normalized(events: readonly ReinEvent[]): unknown[] {
  return events.map(({ seq: _seq, session_id: _sid, ...rest }) => {
    if (rest.type === "session") return { ...rest, id: "ID" };
    if (rest.type === "result") return { ...rest, duration_ms: 0, duration_api_ms: 0 };
    return rest;
  });
}

test.concurrent("one conversation gives the same events through print mode and through the server", async () => {
  await using w = await world();
  const conversation = () =>
    w.fake.script({ reply: [text("Let me run it."), bash("echo hi", "toolu_echo")] }, { reply: [text("It printed hi.")] });

  conversation();
  const print = await w.runStream(["-p", "run echo hi", "--allow", "bash(echo *)"]);
  expect(print.code).toBe(0);
  const printSent = w.fake.requests.map(messagesOf);
  w.fake.reset();

  conversation();
  const server = await serve(w);
  const id = await newSession(server, { allow: ["bash(echo *)"] });
  const res = await server.call("POST", `/sessions/${id}/prompt?wait=1`, { text: "run echo hi" });
  expect(res.status).toBe(200);
  const result = (await res.json()) as ReinEvent;
  const sse = sseReader(await server.call("GET", `/sessions/${id}/events`));
  const served = (await sse.until((e) => e.event === "result")).map((e) => e.data as ReinEvent);
  await sse.close();

  expect(served.at(-1)).toEqual(result);
  expect(served.map((e) => e.type)).toEqual(print.events.map((e) => e.type));
  expect(served.map((e) => e.type)).toContain("tool_end");
  expect(served.find((e) => e.type === "tool_end")).toMatchObject({ is_error: false, output: expect.stringContaining("hi") });
  expect(result).toMatchObject({ status: "success", text: "It printed hi." });
  expect(normalized(served)).toEqual(normalized(print.events));
  // both name the agent they run as, build when none was chosen
  expect(served[0]).toMatchObject({ type: "session", agent: "build" });
  expect(w.fake.requests.map(messagesOf)).toEqual(printSent);
});

test.concurrent("--hostname 0.0.0.0 without a token is refused with exit 2", async () => {
  await using w = await world();
  const r = await w.run(["--serve", "--hostname", "0.0.0.0", "--port", "0"]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("refusing to listen on 0.0.0.0 without a configured token");
});

test.concurrent("a generated token is saved with mode 0600, named by its file on a stderr that is no terminal, and reused by the next start", async () => {
  await using w = await world();
  const first = await serve(w, { token: undefined });
  const token = savedToken(first.rein.stderr);
  const file = join(w.dataDir, "server-token");
  expect(first.rein.stderr).toContain(`generated a server token: it is in ${file} (readable by you only)`);
  expect(first.rein.stderr).not.toContain(token); // a service's log keeps no token
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect((await Bun.file(file).text()).trim()).toBe(token);
  expect((await first.call("GET", "/sessions")).status).toBe(200);
  first.rein.kill("SIGTERM");
  expect((await first.rein.exited).code).toBe(0);

  const second = await serve(w, { token: undefined });
  expect(second.rein.stderr).not.toContain(token);
  expect(second.rein.stderr).not.toContain("generated");
  const authorized = await fetch(`${second.url}/sessions`, { headers: { authorization: `Bearer ${token}` } });
  expect(authorized.status).toBe(200);
  expect((await fetch(`${second.url}/sessions`)).status).toBe(401);
  second.rein.kill("SIGTERM");
  expect((await second.rein.exited).code).toBe(0);
});

test.concurrent("SIGTERM during a hanging prompt: exit 0 within seconds, the session resumable with -r", async () => {
  await using w = await world();
  w.fake.script({ hang: true, afterText: "half an answer" });
  const server = await serve(w);
  const id = await newSession(server);
  const sse = sseReader(await server.call("GET", `/sessions/${id}/events`));
  expect((await server.call("POST", `/sessions/${id}/prompt`, { text: "tell me" })).status).toBe(202);
  await sse.until((e) => e.event === "text_delta");

  const stoppedAt = Date.now();
  server.rein.kill("SIGTERM");
  expect((await server.rein.exited).code).toBe(0);
  expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  await sse.close();

  const exported = await w.run(["sessions", "export", id, "--format", "json"]);
  expect(exported.code).toBe(0);
  const { messages, events } = JSON.parse(exported.stdout) as { messages: { role: string; status: string; content: unknown }[]; events: ReinEvent[] };
  expect(events.at(-1)).toMatchObject({ type: "result", status: "interrupted", text: "half an answer" });
  expect(messages.at(-1)).toMatchObject({ role: "assistant", status: "interrupted", content: [{ type: "text", text: "half an answer" }] });

  w.fake.script({ reply: [text("going on")] });
  const next = await w.run(["-r", id, "-p", "go on"]);
  expect(next).toMatchObject({ code: 0, stdout: "going on\n" });
  const sent = messagesOf(w.fake.requests.at(-1));
  expect(alternates(sent)).toBe(true);
  expect(sent.map((m) => blocksOf(m)[0]?.text)).toEqual(["tell me", "half an answer", "go on"]);
});

test.concurrent("a bad REIN_SSE_HEARTBEAT_MS or a token of spaces stops the server at start with exit 2", async () => {
  await using w = await world();
  for (const value of ["abc", "0", "1.5"]) {
    const r = await w.run(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: TOKEN, REIN_SSE_HEARTBEAT_MS: value } });
    expect({ value, code: r.code, stdout: r.stdout }).toEqual({ value, code: 2, stdout: "" });
    expect(r.stderr).toContain(`REIN_SSE_HEARTBEAT_MS: expected whole milliseconds from 100 to 3600000, got "${value}"`);
  }
  const blank = await w.run(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: " ".repeat(16) } });
  expect(blank.code).toBe(2);
  expect(blank.stderr).toContain("REIN_SERVER_TOKEN: expected a token of at least 16 visible characters");
});

test.concurrent("a session whose project config became invalid answers one JSON error on every route, the stream included", async () => {
  await using w = await world();
  const other = join(w.root, "other");
  await mkdir(join(other, ".git"), { recursive: true });
  const first = await serve(w);
  const id = await newSession(first, { cwd: other });
  first.rein.kill("SIGTERM");
  expect((await first.rein.exited).code).toBe(0);
  await mkdir(join(other, ".rein"), { recursive: true });
  await writeFile(join(other, ".rein", "config.json"), '{"maxTurns": "many"}');

  const server = await serve(w);
  for (const [method, path, body] of [
    ["GET", `/sessions/${id}`],
    ["GET", `/sessions/${id}/events`],
    ["POST", `/sessions/${id}/prompt`, { text: "hi" }],
    ["POST", `/sessions/${id}/permissions/ask_1`, { reply: "once" }],
  ] as const) {
    const res = await server.call(method, path, body);
    expect({ path, method, status: res.status, type: res.headers.get("content-type") }).toEqual({ path, method, status: 409, type: "application/json" });
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("session_unavailable");
    expect(error.message).toContain(`session ${id} cannot be opened: config error`);
    expect(error.message).toContain("maxTurns");
  }
  // It can still be deleted, and stderr holds no stack trace.
  expect((await server.call("DELETE", `/sessions/${id}`)).status).toBe(200);
  expect(server.rein.stderr).not.toMatch(/\n\s+at /);
  server.rein.kill("SIGTERM");
  expect((await server.rein.exited).code).toBe(0);
});

test.concurrent("errors are worded for the API: a missing cwd is named as the field cwd", async () => {
  await using w = await world();
  const server = await serve(w);
  const res = await server.call("POST", "/sessions", { cwd: "/no/such/dir" });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: { code: "bad_request", message: '"cwd": no such directory: /no/such/dir' } });
  server.rein.kill("SIGTERM");
  expect((await server.rein.exited).code).toBe(0);
});

test.concurrent("bound to 0.0.0.0 with a token, only the machine's own addresses and server.hosts are answered", async () => {
  await using w = await world();
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ server: { hosts: ["rein.test"] } }));
  const rein = w.start(["--serve", "--hostname", "0.0.0.0", "--port", "0"], { env: { REIN_SERVER_TOKEN: TOKEN } });
  await rein.waitForStdout((out) => out.includes("\n"), "the server's URL on stdout");
  const port = new URL(rein.stdout.split("\n")[0]!).port;
  const asHost = (host: string) => rawGet(Number(port), "/health", host);
  expect(await asHost(`127.0.0.1:${port}`)).toContain("HTTP/1.1 200");
  expect(await asHost(`rein.test:${port}`)).toContain("HTTP/1.1 200");
  const refused = await asHost(`attacker.example:${port}`);
  expect(refused).toContain("HTTP/1.1 403");
  expect(refused).toContain('"code":"forbidden_host"');
  rein.kill("SIGTERM");
  expect((await rein.exited).code).toBe(0);
});

/** A GET with a Host of our choosing (fetch does not let one set it), over a raw socket to 127.0.0.1. */
function rawGet(port: number, path: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

test.concurrent("an always answer with scope user is saved to the user config, as the terminal's always (for me) is", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Making it."), bash("touch made-by-always", "toolu_touch")] }, { reply: [text("Done.")] });
  const server = await serve(w);
  const id = await newSession(server);
  const sse = sseReader(await server.call("GET", `/sessions/${id}/events`));
  expect((await server.call("POST", `/sessions/${id}/prompt`, { text: "make the file" })).status).toBe(202);
  const [ask] = (await sse.until((e) => e.event === "permission_ask")).slice(-1);
  const asked = ask!.data as ReinEvent & { id: string; requests: { permission: string; always: string[] }[] };
  expect(asked.requests.map((r) => r.always)).toEqual([["touch *"], [w.path("made-by-always")]]);

  const detail = (await (await server.call("GET", `/sessions/${id}`)).json()) as { trusted: boolean };
  expect(detail.trusted).toBe(false);
  const refused = await server.call("POST", `/sessions/${id}/permissions/${asked.id}`, { reply: "always", scope: "project" });
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("not a trusted workspace");

  const res = await server.call("POST", `/sessions/${id}/permissions/${asked.id}`, { reply: "always", scope: "user" });
  const file = join(w.configDir, "config.json");
  expect(await res.json()).toEqual({ ok: true, saved_to: file });
  await sse.until((e) => e.event === "result");
  await sse.close();
  // touch writes a file, so the ask also holds an edit of that path: always saves both, as in the terminal
  expect(JSON.parse(await Bun.file(file).text())).toEqual({ permissions: { allow: ["bash(touch *)", `edit(${w.path("made-by-always")})`] } });
  server.rein.kill("SIGTERM");
  expect((await server.rein.exited).code).toBe(0);
});

test.concurrent("a session that print mode is running in another process answers a prompt with 409 busy", async () => {
  await using w = await world();
  const server = await serve(w);
  const id = await newSession(server);
  w.fake.script({ hang: true, afterText: "working on it" });
  const print = w.start(["-r", id, "-p", "go on", "--output-format", "stream-json"]);
  await print.waitForEvent("text_delta");
  const res = await server.call("POST", `/sessions/${id}/prompt`, { text: "me too" });
  expect(res.status).toBe(409);
  const { error } = (await res.json()) as { error: { code: string; message: string } };
  expect(error).toEqual({ code: "busy", message: expect.stringContaining("in use by another rein process") });
  print.kill("SIGTERM");
  await print.exited;
  server.rein.kill("SIGTERM");
  expect((await server.rein.exited).code).toBe(0);
});

test.concurrent("a prompt whose text starts with a command runs the command's expansion through the server", async () => {
  await using w = await world();
  await mkdir(join(w.cwd, ".claude/commands"), { recursive: true });
  await writeFile(join(w.cwd, ".claude/commands/review.md"), "Review $1 for bugs.\n");
  w.fake.script({ reply: [text("Reviewed.")] });
  const server = await serve(w);
  const id = await newSession(server);
  const res = await server.call("POST", `/sessions/${id}/prompt?wait=1`, { text: "/review src/app.ts" });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ type: "result", status: "success", text: "Reviewed." });
  const sent = blocksOf(messagesOf(w.fake.requests[0]).at(-1));
  expect(sent[0]).toMatchObject({ type: "text", text: "Review src/app.ts for bugs.\n" });
});
