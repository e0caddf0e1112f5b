// Exit codes and messages when the provider, the command line or the turn limit says no.
import { expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { BINARY, bash, parseEvents, text, world, type World } from "./harness.ts";

test.concurrent("no API key: exit 2 and stderr says how to set ANTHROPIC_API_KEY", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi"], { env: { ANTHROPIC_API_KEY: undefined } });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("ANTHROPIC_API_KEY");
  expect(r.stderr).toContain("export ANTHROPIC_API_KEY=");
  expect(r.stdout).toBe("");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("401: exit 1, the key was refused, and it is not retried", async () => {
  await using w = await world();
  w.fake.script({ error: 401 }, { reply: [text("must not be reached")] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("the API key was refused");
  expect(r.stdout).toBe("");
  expect(w.fake.requests).toHaveLength(1);
});

test.concurrent("400: exit 1 and not retried", async () => {
  await using w = await world();
  w.fake.script({ error: 400, body: { type: "error", error: { type: "invalid_request_error", message: "messages: bad shape" } } });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("API error 400");
  expect(r.stderr).toContain("messages: bad shape");
  expect(w.fake.requests).toHaveLength(1);
});

test.concurrent("429 with retry-after 0, then success: exit 0 after 2 requests", async () => {
  await using w = await world();
  w.fake.script({ error: 429, retryAfter: 0 }, { reply: [text("after the wait")] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("after the wait\n");
  expect(r.stderr).toContain("retrying");
  expect(w.fake.requests).toHaveLength(2);
});

for (const status of [529, 500]) {
  test.concurrent(`${status} on every attempt: exit 1 after REIN_RETRY_MAX_ATTEMPTS requests, the last error on stderr`, async () => {
    await using w = await world();
    w.fake.script({ error: status }, { error: status }, { error: status }, { reply: [text("must not be reached")] });
    const r = await w.run(["-p", "hi"], { env: { REIN_RETRY_MAX_ATTEMPTS: "3" } });
    expect(r.code).toBe(1);
    expect(w.fake.requests).toHaveLength(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`API error ${status}`);
    expect(r.stderr).toContain("after 3 attempts");
  });
}

test.concurrent("a stream cut mid-reply is retried and only the good answer is printed", async () => {
  await using w = await world();
  w.fake.script({ cut: [text("BROKEN half of an answer that never ends")] }, { reply: [text("the good answer")] });
  const r = await w.run(["-p", "hi", "--output-format", "stream-json"]);
  expect(r.code).toBe(0);
  const events = parseEvents(r.stdout);
  expect(events.some((e) => e.type === "retry")).toBe(true);
  expect(events.at(-1)).toMatchObject({ type: "result", status: "success", text: "the good answer" });
  const assistants = events.filter((e) => e.type === "assistant");
  expect(assistants).toHaveLength(1);
  expect(JSON.stringify(assistants[0]!.content)).not.toContain("BROKEN");
  expect(w.fake.requests).toHaveLength(2);

  // and in text mode stdout is the good answer alone
  w.fake.script({ cut: [text("BROKEN again")] }, { reply: [text("good again")] });
  const plain = await w.run(["-p", "hi"]);
  expect(plain).toMatchObject({ code: 0, stdout: "good again\n" });
});

test.concurrent("a stream that goes silent is dropped after REIN_STREAM_IDLE_MS and retried", async () => {
  await using w = await world();
  w.fake.script({ hang: true }, { reply: [text("the second try answered")] });
  // The idle bound must leave the second attempt time to start answering on a loaded machine.
  const r = await w.run(["-p", "hi"], { env: { REIN_STREAM_IDLE_MS: "1500" } });
  expect(r).toMatchObject({ code: 0, stdout: "the second try answered\n" });
  expect(r.stderr).toContain("sent nothing");
  expect(w.fake.requests).toHaveLength(2);
});

test.concurrent("a malformed body, then a good reply: retried, exit 0", async () => {
  await using w = await world();
  w.fake.script({ malformed: true }, { reply: [text("recovered")] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("recovered\n");
  expect(w.fake.requests).toHaveLength(2);
});

test.concurrent("a malformed body on every attempt: exit 1 with a clear message, never 0 with empty output", async () => {
  await using w = await world();
  w.fake.script({ malformed: true }, { malformed: true }, { malformed: true });
  const r = await w.run(["-p", "hi"], { env: { REIN_RETRY_MAX_ATTEMPTS: "3" } });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/malformed|parse|JSON/i);
  expect(r.stderr).toContain("after 3 attempts");
  expect(r.stderr).not.toContain("internal error");
  expect(w.fake.requests).toHaveLength(3);
});

test.concurrent("an unknown flag: exit 2 with a one-line hint", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "--modle", "x"]);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("--modle");
  expect(r.stderr).toContain("did you mean --model");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("bad flag values: exit 2", async () => {
  await using w = await world();
  const turns = await w.run(["-p", "hi", "--max-turns", "abc"]);
  expect(turns.code).toBe(2);
  expect(turns.stderr).toContain("--max-turns");
  const format = await w.run(["-p", "hi", "--output-format", "xml"]);
  expect(format.code).toBe(2);
  expect(format.stderr).toContain("text, json, stream-json");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("--max-turns 1 with a model that keeps calling tools: exit 4", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo again")] }, { reply: [bash("echo again")] });
  const r = await w.run(["-p", "loop", "--max-turns", "1", "--output-format", "json"]);
  expect(r.code).toBe(4);
  expect(JSON.parse(r.stdout)).toMatchObject({ type: "result", status: "max_turns", turns: 1 });
  expect(w.fake.requests).toHaveLength(1);
});

test.concurrent("a failed run leaves stdout empty in text mode, even after text streamed", async () => {
  await using w = await world();
  w.fake.script({ cut: [text("BROKEN one")] }, { cut: [text("BROKEN two")] });
  const r = await w.run(["-p", "hi"], { env: { REIN_RETRY_MAX_ATTEMPTS: "2" } });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("after 2 attempts");
});

test.concurrent("json and stream-json end with a result line even when rein fails before a session exists", async () => {
  await using w = await world();
  for (const format of ["json", "stream-json"]) {
    const r = await w.run(["-p", "hi", "-r", "nosuch", "--output-format", format]);
    expect(r.code).toBe(2);
    const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(last).toMatchObject({ type: "result", status: "error", session_id: null, seq: 0 });
    expect(last.error).toContain('no session "nosuch"');
  }
  const plain = await w.run(["-p", "hi", "-r", "nosuch"]);
  expect(plain.stdout).toBe("");
});

test.concurrent("--max-cost 0.0001 with a turn that costs more: exit 4, no second turn, stderr says the budget was reached", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo again")], usage: { input_tokens: 100_000, output_tokens: 1000 } });
  const r = await w.run(["-p", "loop", "--max-cost", "0.0001"]);
  expect(r.code).toBe(4);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("the cost budget of $0.0001 was reached ($0.2100 spent)");
  expect(w.fake.requests).toHaveLength(1);
});

test.concurrent("the budget stops a stream-json run with a max_turns result that carries the cost; REIN_MAX_COST works too", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo again")], usage: { input_tokens: 100_000, output_tokens: 1000 } });
  const r = await w.runStream(["-p", "loop"], { env: { REIN_MAX_COST: "0.0001" } });
  expect(r.code).toBe(4);
  const assistant = r.events.find((e) => e.type === "assistant");
  expect(assistant).toMatchObject({ cost_usd: 0.21 });
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "max_turns", turns: 1, cost_usd: 0.21 });
});

test.concurrent("--max-cost abc: exit 2, before any request", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "--max-cost", "abc"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--max-cost expects a positive number (US dollars), got "abc"');
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("a 5 MB AGENTS.md: the run works with its first 32 KiB, stderr and rein doctor name the file", async () => {
  await using w = await world();
  const agents = join(w.cwd, "AGENTS.md");
  await Bun.write(agents, `KEEP THIS\n${"x".repeat(5 * 1024 * 1024)}\nNEVER SENT\n`);
  w.fake.script({ reply: [text("fine")] });
  const r = await w.run(["-p", "hi"]);
  expect(r).toMatchObject({ code: 0, stdout: "fine\n" });
  expect(r.stderr).toContain(`${agents} is 5.0 MiB: only its first 32 KiB go to the model`);
  const system = JSON.stringify(w.fake.requests[0]!.body.system);
  expect(system).toContain("KEEP THIS");
  expect(system).not.toContain("NEVER SENT");
  expect(system.length).toBeLessThan(60_000);
  const doctor = await w.run(["doctor"]);
  expect(doctor.stdout).toMatch(/instructions .*AGENTS\.md is 5\.0 MiB/);
});

test.concurrent("extra arguments and flags that do nothing in the mode are usage errors (exit 2) that change nothing", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("one")] });
  expect((await w.run(["-p", "hi"])).code).toBe(0);
  const [row] = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { id: string }[];
  const rm = await w.run(["sessions", "rm", row!.id, "other"]);
  expect(rm.code).toBe(2);
  expect(rm.stderr).toBe('rein: unexpected argument "other": rein sessions rm takes one argument (remove sessions one at a time)\n');
  expect(JSON.parse((await w.run(["sessions", "list", "--json"])).stdout)).toHaveLength(1);
  const format = await w.run(["sessions", "list", "--output-format", "json"]);
  expect(format.code).toBe(2);
  expect(format.stderr).toContain("--output-format does nothing with rein sessions list; it works with -p (print mode)");
  expect((await w.run(["doctor", "--port", "1"])).code).toBe(2);
  expect(w.fake.requests).toHaveLength(1);
});

// Faults of the machine, made for real: each is one line on stderr saying what to do, never a trace.
const oneLine = (stderr: string, expected: string) => {
  expect(stderr).not.toContain("internal error");
  expect(stderr).not.toMatch(/^\s+at /m);
  const line = stderr.split("\n").find((l) => l.includes(expected));
  expect(line).toBeDefined();
  return line!;
};

async function spawnIn(w: World, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(argv, { cwd: w.cwd, env: w.env(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** bubblewrap that can make binds here (it needs user namespaces), for a read-only or a tiny folder. */
const bwrapWorks = Bun.which("bwrap") !== null && Bun.spawnSync(["bwrap", "--dev-bind", "/", "/", "--", "true"]).exitCode === 0;

test.concurrent("a database locked by another process: exit 1 and one line naming the database", async () => {
  await using w = await world();
  expect((await w.run(["sessions", "list"])).code).toBe(0); // creates the database
  const db = join(w.dataDir, "rein.db");
  const locker = Bun.spawn(
    [process.execPath, "-e", `const { Database } = require("bun:sqlite"); const db = new Database(process.argv[1]); db.exec("BEGIN IMMEDIATE"); db.exec("DELETE FROM sessions"); console.log("locked"); for await (const _ of Bun.stdin.stream()) {} db.exec("ROLLBACK");`, db],
    { stdin: "pipe", stdout: "pipe", stderr: "inherit" },
  );
  try {
    const reader = locker.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("locked");
    const r = await w.run(["-p", "hi"], { timeoutMs: 25_000 });
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr, "is locked by another process")).toContain(db);
  } finally {
    locker.stdin.end();
    await locker.exited;
  }
}, 30_000); // rein waits out its 5 s busy timeout first

test.concurrent.skipIf(!bwrapWorks)("a read-only data folder: reading commands work, a run fails in one line that says read-only", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("stored")] });
  expect((await w.run(["-p", "remember this"])).code).toBe(0);
  const [row] = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { id: string }[];
  const ro = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", w.dataDir, w.dataDir, "--", BINARY];
  const list = await spawnIn(w, [...ro, "sessions", "list"]);
  expect(list).toMatchObject({ code: 0 });
  expect(list.stdout).toContain(row!.id);
  const exported = await spawnIn(w, [...ro, "sessions", "export", row!.id, "--format", "json"]);
  expect(exported.code).toBe(0);
  expect(JSON.parse(exported.stdout).messages.at(-1).content[0].text).toBe("stored");
  const doctor = await spawnIn(w, [...ro, "doctor"]);
  expect(doctor.stdout).toMatch(/FAIL database .*can only be read: its folder is not writable/);
  const run = await spawnIn(w, [...ro, "-p", "hi"]);
  expect(run.code).toBe(1);
  expect(oneLine(run.stderr, "the file system is read-only (EROFS")).toContain("set REIN_DATA_DIR to a writable folder");
});

test.concurrent.skipIf(!bwrapWorks)("a full disk at open: one line that says the disk is full, not just 'disk I/O error'", async () => {
  await using w = await world();
  const small = join(w.root, "small");
  await mkdir(small);
  const script = `REIN_DATA_DIR=${small} "$0" sessions list >/dev/null && head -c 4000000 /dev/zero > ${small}/fill 2>/dev/null; REIN_DATA_DIR=${small} exec "$0" -p hi`;
  const r = await spawnIn(w, ["bwrap", "--dev-bind", "/", "/", "--size", "1000000", "--tmpfs", small, "--", "sh", "-c", script, BINARY]);
  expect(r.code).toBe(1);
  expect(oneLine(r.stderr, "no space left on the device (ENOSPC")).toContain(`free some space (df ${small})`);
});

test.concurrent("stdout on /dev/full: exit 1 and one line on stderr", async () => {
  await using w = await world();
  const r = await spawnIn(w, ["sh", "-c", 'exec "$0" sessions list > /dev/full', BINARY]);
  expect(r.code).toBe(1);
  oneLine(r.stderr, "cannot write to stdout: no space left on the device (ENOSPC)");
  const streamed = await spawnIn(w, ["sh", "-c", 'exec "$0" -p hi --output-format stream-json > /dev/full', BINARY]);
  expect(streamed.code).toBe(1);
  oneLine(streamed.stderr, "cannot write to stdout");
  expect(w.fake.requests).toHaveLength(0); // the first event could not be written: the run stopped there
  // stderr only carries progress and warnings: a run goes on without them
  w.fake.script({ reply: [bash("echo hi")] }, { reply: [text("answered")] });
  const quiet = await spawnIn(w, ["sh", "-c", 'exec "$0" -p hi --allow bash 2> /dev/full', BINARY]);
  expect(quiet).toMatchObject({ code: 0, stdout: "answered\n" });
});

test.concurrent("rein --serve on a port in use: exit 1 and one line naming the port", async () => {
  await using w = await world();
  const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
  try {
    const r = await w.run(["--serve", "--port", String(holder.port)]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr, "is already in use")).toContain(`port ${holder.port} on 127.0.0.1 is already in use: stop what listens there, or choose another port with --port N`);
  } finally {
    holder.stop(true);
  }
});

test.concurrent.skipIf(!bwrapWorks)("a read-only HOME (as in CI): one line naming REIN_DATA_DIR, and the JSON result's error is that line", async () => {
  await using w = await world();
  const argv = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", w.home, w.home, "--", BINARY, "-p", "hi", "--output-format", "json"];
  const proc = Bun.spawn(argv, { cwd: w.cwd, env: w.env({ REIN_DATA_DIR: undefined }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(1);
  const line = oneLine(stderr, "the file system is read-only (EROFS");
  expect(line).toContain("set REIN_DATA_DIR to a writable folder");
  expect(JSON.parse(stdout)).toMatchObject({ type: "result", status: "error", error: line.replace(/^rein: /, "") });
});
