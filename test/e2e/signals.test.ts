// Interrupts and crashes: SIGINT keeps the partial reply and exits 130; after a kill -9 the next
// run repairs the session so the provider still gets a valid conversation; tools never outlive rein.
import { expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { alternates, bash, blocksOf, killLeftovers, messagesOf, parseEvents, pidsMatching, resultText, text, toolResultsOf, waitFor, world } from "./harness.ts";

/** Digits that make this run's sleep commands its own: a test run in another checkout kills only its own. */
const RUN = String(process.pid).padStart(7, "0");

test.concurrent("SIGINT mid-reply: exit 130, the partial text is kept as interrupted, and -c goes on from it", async () => {
  await using w = await world();
  w.fake.script({ hang: true, afterText: "partial answer" });

  const rein = w.start(["-p", "tell me a story", "--output-format", "stream-json"]);
  await rein.waitForEvent("text_delta");
  rein.kill("SIGINT");
  const r = await rein.exited;

  expect(r.code).toBe(130);
  const events = parseEvents(r.stdout);
  expect(events.at(-1)).toMatchObject({ type: "result", status: "interrupted" });
  const id = events[0]!.session_id;

  const exported = await w.run(["sessions", "export", id, "--format", "json"]);
  expect(exported.code).toBe(0);
  const { messages } = JSON.parse(exported.stdout);
  const partial = messages.find((m: { role: string }) => m.role === "assistant");
  expect(partial).toMatchObject({ status: "interrupted", content: [{ type: "text", text: "partial answer" }] });

  w.fake.script({ reply: [text("going on")] });
  const next = await w.run(["-c", "-p", "go on"]);
  expect(next).toMatchObject({ code: 0, stdout: "going on\n" });
  const sent = messagesOf(w.fake.requests.at(-1));
  expect(alternates(sent)).toBe(true);
  expect(sent.map((m) => blocksOf(m)[0]?.text)).toEqual(["tell me a story", "partial answer", "go on"]);
});

test.concurrent("SIGINT during a long retry wait: exit 130 at once, not after the wait", async () => {
  await using w = await world();
  w.fake.script({ error: 429, retryAfter: 30 }, { reply: [text("must not be reached")] });

  const rein = w.start(["-p", "hi", "--output-format", "stream-json"]);
  await rein.waitForEvent("retry");
  const interruptedAt = Date.now();
  rein.kill("SIGINT");
  const r = await rein.exited;

  expect(r.code).toBe(130);
  expect(Date.now() - interruptedAt).toBeLessThan(5_000);
  expect(parseEvents(r.stdout).at(-1)).toMatchObject({ type: "result", status: "interrupted" });
  expect(w.fake.requests).toHaveLength(1);
});

test.concurrent("SIGKILL mid-reply: -c repairs the session and sends the partial text as an assistant message", async () => {
  await using w = await world();
  w.fake.script({ hang: true, afterText: "half of it" });

  const rein = w.start(["-p", "explain", "--output-format", "stream-json"]);
  await rein.waitForEvent("text_delta");
  rein.kill("SIGKILL");
  await rein.exited;

  w.fake.script({ reply: [text("resumed")] });
  const next = await w.run(["-c", "-p", "continue"]);
  expect(next).toMatchObject({ code: 0, stdout: "resumed\n" });
  const sent = messagesOf(w.fake.requests.at(-1));
  expect(alternates(sent)).toBe(true);
  expect(sent[1]).toMatchObject({ role: "assistant", content: [{ type: "text", text: "half of it" }] });
  expect(blocksOf(sent.at(-1))[0]?.text).toBe("continue");
});

test.concurrent("SIGKILL while a tool runs: -c sends an interrupted error result for that tool call", async () => {
  await using w = await world();
  const command = `sleep 30.25${RUN}`;
  w.fake.script({ reply: [bash(command, "toolu_sleepy")] });

  const rein = w.start(["-p", "wait", "--allow", "bash(sleep *)", "--output-format", "stream-json"]);
  try {
    await rein.waitForEvent("tool_start");
    await waitFor(async () => (await pidsMatching(command)).length > 0, `${command} to be running`);
    rein.kill("SIGKILL");
    await rein.exited;

    w.fake.script({ reply: [text("it was interrupted")] });
    const next = await w.run(["-c", "-p", "continue"]);
    expect(next).toMatchObject({ code: 0, stdout: "it was interrupted\n" });
    const results = toolResultsOf(w.fake.requests.at(-1));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool_use_id: "toolu_sleepy", is_error: true });
    expect(resultText(results[0])).toMatch(/interrupted/i);
    const sent = messagesOf(w.fake.requests.at(-1));
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
  } finally {
    // rein had no chance to stop its tool; its watchdog does (watchdog.test.ts): this only cleans up should it fail.
    await killLeftovers(command);
  }
});

test.concurrent("SIGINT while a tool runs: exit 130 and the tool's process is gone", async () => {
  await using w = await world();
  const command = `sleep 31.5${RUN}`;
  w.fake.script({ reply: [bash(command)] });

  const rein = w.start(["-p", "wait", "--allow", "bash(sleep *)", "--output-format", "stream-json"]);
  try {
    await rein.waitForEvent("tool_start");
    await waitFor(async () => (await pidsMatching(command)).length > 0, `${command} to be running`);
    rein.kill("SIGINT");
    const r = await rein.exited;

    expect(r.code).toBe(130);
    const events = parseEvents(r.stdout);
    expect(events.find((e) => e.type === "tool_end")).toMatchObject({ is_error: true });
    expect(events.at(-1)).toMatchObject({ type: "result", status: "interrupted" });
    // The kill is sent before rein exits; give the kernel a moment to reap the child.
    await waitFor(async () => (await pidsMatching(command)).length === 0, `no ${command} left`, 2_000);
  } finally {
    await killLeftovers(command);
  }
});

test.concurrent("SIGTERM mid-reply: exit 143, nothing half-written on stdout in text mode", async () => {
  await using w = await world();
  w.fake.script({ hang: true, afterText: "half of an answer" });
  const rein = w.start(["-p", "tell me a story"]);
  await waitFor(() => w.fake.requests.length === 1, "the request to reach the fake");
  rein.kill("SIGTERM");
  const r = await rein.exited;
  expect(r.code).toBe(143);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("interrupted");
});

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  test.concurrent(`${signal} while a tool runs: exit ${code}, a closing result event, and the command is gone`, async () => {
    await using w = await world();
    const command = `sleep 32.${code}`;
    w.fake.script({ reply: [bash(command)] });
    const rein = w.start(["-p", "wait", "--allow", "bash(sleep *)", "--output-format", "stream-json"]);
    try {
      await rein.waitForEvent("tool_start");
      await waitFor(async () => (await pidsMatching(command)).length > 0, `${command} to be running`);
      rein.kill(signal);
      const r = await rein.exited;
      expect(r.code).toBe(code);
      expect(parseEvents(r.stdout).at(-1)).toMatchObject({ type: "result", status: "interrupted" });
      await waitFor(async () => (await pidsMatching(command)).length === 0, `no ${command} left`, 2_000);
    } finally {
      await killLeftovers(command);
    }
  });
}

test.concurrent("an empty model reply: exit 1, a message on stderr, an error result", async () => {
  await using w = await world();
  w.fake.script({ reply: [] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("the model sent an empty reply");
  w.fake.script({ reply: [] });
  const streamed = await w.runStream(["-p", "hi"]);
  expect(streamed.code).toBe(1);
  expect(streamed.events.at(-1)).toMatchObject({ type: "result", status: "error" });
});

const SPIN = "while (true) {}\nexport default {};\n";
const GOOD = `import * as v from "valibot";
import { defineTool } from "rein/tool";

export default defineTool({ name: "good", description: "A tool that loads.", input: v.object({}), run: () => "ok" });
`;

test.concurrent("a tool file whose import never finishes is reported and skipped: tools list and a run go on", async () => {
  await using w = await world();
  const tools = join(w.configDir, "tools");
  await mkdir(tools, { recursive: true });
  await Bun.write(join(tools, "spin.ts"), SPIN);
  await Bun.write(join(tools, "good.ts"), GOOD);
  const env = { REIN_TOOL_IMPORT_TIMEOUT_MS: "1000" };
  const list = await w.run(["tools", "list"], { env });
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(/^good +user/m);
  expect(list.stdout).toContain(`${join(tools, "spin.ts")}: importing it did not finish within 1 s, so it was not loaded`);
  w.fake.script({ reply: [text("still works")] });
  const run = await w.run(["-p", "hi"], { env });
  expect(run).toMatchObject({ code: 0, stdout: "still works\n" });
  expect(run.stderr).toContain("spin.ts: importing it did not finish");
  expect((w.fake.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).toContain("good");
});

test.concurrent("SIGINT while a tool file's import hangs: rein stops at once (exit 130, a result event)", async () => {
  await using w = await world();
  const tools = join(w.configDir, "tools");
  await mkdir(tools, { recursive: true });
  await Bun.write(join(tools, "spin.ts"), SPIN);
  const rein = w.start(["-p", "hi", "--output-format", "stream-json"], { env: { REIN_TOOL_IMPORT_TIMEOUT_MS: "600000" } });
  await rein.waitForEvent("user");
  rein.kill("SIGINT");
  const r = await rein.exited;
  expect(r.code).toBe(130);
  expect(parseEvents(r.stdout).at(-1)).toMatchObject({ type: "result", status: "interrupted" });
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("SIGHUP while a command runs that started a process with setsid: both are gone when rein exits", async () => {
  await using w = await world();
  const escaped = `sleep 34.25${RUN}`;
  const command = `setsid ${escaped} >/dev/null 2>&1 & sleep 35.25${RUN}`;
  w.fake.script({ reply: [bash(command)] });
  const rein = w.start(["-p", "wait", "--permission-mode", "auto", "--output-format", "stream-json"]);
  try {
    await rein.waitForEvent("tool_start");
    await waitFor(async () => (await pidsMatching(escaped)).length > 0, `${escaped} to be running`);
    rein.kill("SIGHUP");
    const r = await rein.exited;
    expect(r.code).toBe(129);
    expect(parseEvents(r.stdout).at(-1)).toMatchObject({ type: "result", status: "interrupted" });
    await waitFor(async () => (await pidsMatching(escaped)).length === 0, `no ${escaped} left`, 2_000);
  } finally {
    await killLeftovers(escaped);
    await killLeftovers(`sleep 35.25${RUN}`);
  }
});

test.concurrent("SIGTERM before the session exists (waiting for the prompt on stdin): exit 143 and an interrupted result", async () => {
  await using w = await world();
  // A warning printed once the signal handlers are in place tells the test when to signal.
  await Bun.write(join(w.cwd, "AGENTS.md"), "x".repeat(40_000));
  const rein = w.start(["-p", "-", "--output-format", "stream-json"], { stdin: "pipe-open" });
  await rein.waitForStderr((s) => s.includes("AGENTS.md is"), "the instructions warning");
  rein.kill("SIGTERM");
  const r = await rein.exited;
  expect(r.code).toBe(143);
  expect(parseEvents(r.stdout)).toEqual([expect.objectContaining({ type: "result", status: "interrupted", session_id: null, seq: 0 })]);
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("a command the model starts in the background outlives its call, and rein stops it at exit, saying so", async () => {
  await using w = await world();
  const server = `sleep 36.5${RUN}`;
  w.fake.script(
    { reply: [{ type: "tool_use", name: "bash", input: { command: server, background: true } }] },
    { reply: [bash("pgrep -f 'sleep 36[.]5' >/dev/null && echo still-running")] },
    { reply: [text("done")] },
  );
  try {
    const r = await w.run(["-p", "start it", "--allow", "bash"]);
    expect(r).toMatchObject({ code: 0, stdout: "done\n" });
    expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toContain("[started in the background as process group");
    expect(resultText(toolResultsOf(w.fake.requests[2]).at(-1))).toContain("still-running");
    expect(r.stderr).toContain(`stopped a command left running in the background: ${server}`);
    await waitFor(async () => (await pidsMatching(server)).length === 0, `no ${server} left`, 2_000);
  } finally {
    await killLeftovers(server);
  }
});
