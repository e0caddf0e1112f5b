// MCP stdio servers that misbehave, through the compiled binary (issue 31, items 2 and 3): a 200 MB
// line with no newline fails the server without holding up the run or the next `-c`; a server behind
// `sh -c` that ignores EOF and SIGTERM, and what it forks (in its group and in a session of its own),
// end with rein: when the run ends, when rein is SIGKILLed, and when the server had not finished starting.
// Each test's sleeps carry digits unique to it, so nothing of another run is ever looked at or killed.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { killLeftovers, pidsMatching, ROOT, text, waitFor, world, type World } from "./harness.ts";

const ROGUE = join(ROOT, "test/unit/mcp/fixtures/rogue-server.ts");
const RUN = String(process.pid).padStart(7, "0");

async function configure(w: World, servers: Record<string, unknown>): Promise<void> {
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ mcpServers: servers }));
}

/** The rogue in `mode` behind `sh -c` that stays its parent (as an `npx` or `uvx` wrapper does), forking `sleep SECONDS`. */
const wrapped = (mode: string, seconds: string) => ({ command: "sh", args: ["-c", `${process.execPath} ${ROGUE} ${mode} ${seconds}; :`] });

/** The wrapper, the server and its two sleeps: every process whose command line names `seconds`. */
const processesOf = (seconds: string) => pidsMatching(seconds.replace(/\./g, "\\."));

test.concurrent("a server answering the handshake with a 200 MB line and no newline fails at the bound; the run and the next -c go on", async () => {
  await using w = await world();
  await configure(w, { big: { command: process.execPath, args: [ROGUE, "huge-init"] } });
  w.fake.script({ reply: [text("first")] }, { reply: [text("second")] });
  // A long first-turn wait: the run goes on because the server failed, not because the wait ran out.
  const env = { REIN_MCP_WAIT_MS: "25000", REIN_MCP_STARTUP_TIMEOUT_MS: "25000" };
  const first = await w.runStream(["-p", "go"], { env, timeoutMs: 40_000 });
  expect(first.code).toBe(0);
  const told = first.events.filter((e) => e.type === "mcp_server");
  expect(told).toEqual([expect.objectContaining({ name: "big", state: "failed", error: expect.stringContaining("larger than 128 MiB (the most rein reads as one line)") })]);
  expect(first.stderr).toContain('MCP server "big" failed: it sent a message larger than 128 MiB');
  const next = await w.runStream(["-c", "-p", "again"], { env, timeoutMs: 40_000 });
  expect(next.code).toBe(0);
  expect(next.events.find((e) => e.type === "result")).toMatchObject({ status: "success", text: "second" });
  expect(next.events.filter((e) => e.type === "mcp_server")).toEqual([expect.objectContaining({ name: "big", state: "failed" })]);
  expect(w.fake.requests).toHaveLength(2);
}, 90_000);

test.concurrent("a server whose line never ends holds the first turn for REIN_MCP_WAIT_MS at most", async () => {
  await using w = await world();
  await configure(w, { big: { command: process.execPath, args: [ROGUE, "huge-init"] } });
  w.fake.script({ reply: [text("done")] });
  const r = await w.runStream(["-p", "go"], { env: { REIN_MCP_WAIT_MS: "1", REIN_MCP_STARTUP_TIMEOUT_MS: "25000" }, timeoutMs: 40_000 });
  expect(r.code).toBe(0);
  expect(r.events.find((e) => e.type === "result")).toMatchObject({ status: "success", text: "done" });
  expect(r.events.filter((e) => e.type === "mcp_server").map((e) => e.name)).toEqual(["big"]);
}, 60_000);

test.concurrent("a server behind sh -c that ignores EOF and SIGTERM, and what it forked, end when the run ends", async () => {
  await using w = await world();
  const seconds = `771.1${RUN}`;
  await configure(w, { stubborn: wrapped("stubborn", seconds) });
  // The model answers once the wrapper, the server and both sleeps run.
  w.fake.script({ reply: [text("done")], waitFor: waitFor(async () => (await processesOf(seconds)).length === 4, "the server and its sleeps", 20_000) });
  try {
    const r = await w.run(["-p", "go"], { env: { REIN_MCP_WAIT_MS: "25000" }, timeoutMs: 40_000 });
    expect(r).toMatchObject({ code: 0, stdout: "done\n" });
    await waitFor(async () => (await processesOf(seconds)).length === 0, "no process of the server left", 5_000);
  } finally {
    await killLeftovers(seconds);
  }
}, 60_000);

test.concurrent("SIGKILL of rein: the watchdog ends the wrapped server and its forks", async () => {
  await using w = await world();
  const seconds = `772.2${RUN}`;
  await configure(w, { stubborn: wrapped("stubborn", seconds) });
  w.fake.script({ hang: true });
  const rein = w.start(["-p", "go", "--output-format", "stream-json"], { env: { REIN_MCP_WAIT_MS: "25000" }, timeoutMs: 40_000 });
  try {
    await waitFor(() => w.fake.requests.length === 1, "the first request (the server connected)", 30_000);
    await waitFor(async () => (await processesOf(seconds)).length === 4, "the server and its sleeps");
    rein.kill("SIGKILL");
    await rein.exited;
    await waitFor(async () => (await processesOf(seconds)).length === 0, "no process of the server left", 5_000);
  } finally {
    await killLeftovers(seconds);
  }
}, 60_000);

test.concurrent("a server still starting when rein -p exits is ended, with what it forked", async () => {
  await using w = await world();
  const seconds = `773.3${RUN}`;
  await configure(w, { starting: wrapped("stubborn-start", seconds) });
  w.fake.script({ reply: [text("done")], waitFor: waitFor(async () => (await processesOf(seconds)).length === 4, "the server and its sleeps", 20_000) });
  try {
    const r = await w.run(["-p", "go"], { env: { REIN_MCP_WAIT_MS: "100" }, timeoutMs: 40_000 });
    expect(r).toMatchObject({ code: 0, stdout: "done\n" });
    expect(r.stderr).toContain('MCP server "starting" is not ready');
    await waitFor(async () => (await processesOf(seconds)).length === 0, "no process of the server left", 5_000);
  } finally {
    await killLeftovers(seconds);
  }
}, 60_000);
