// `rein --serve` as users run it: the compiled binary on a free port against the fake model. The
// server and print mode give the same events for the same conversation; the token and the address
// are locked down; SIGTERM leaves running sessions resumable.
import { expect, test } from "bun:test";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { sseReader } from "../unit/server/sse-client.ts";
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
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token ?? savedToken(rein.stderr)}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { rein, url, call };
}

function savedToken(stderr: string): string {
  const token = /generated a server token \(saved in .*\): (\S+)/.exec(stderr)?.[1];
  if (!token) throw new Error(`no generated token on stderr:\n${stderr}`);
  return token;
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
    if (rest.type === "result") return { ...rest, duration_ms: 0 };
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
  expect(w.fake.requests.map(messagesOf)).toEqual(printSent);
});

test.concurrent("--hostname 0.0.0.0 without a token is refused with exit 2", async () => {
  await using w = await world();
  const r = await w.run(["--serve", "--hostname", "0.0.0.0", "--port", "0"]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("refusing to listen on 0.0.0.0 without a configured token");
});

test.concurrent("a generated token is saved with mode 0600, printed once, and reused by the next start", async () => {
  await using w = await world();
  const first = await serve(w, { token: undefined });
  const token = savedToken(first.rein.stderr);
  const file = join(w.dataDir, "server-token");
  expect(first.rein.stderr.split(token)).toHaveLength(2);
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
