// A SIGKILLed rein runs no code, so it cannot stop what its commands started: its watchdog does
// (src/sdk/watchdog.ts). Each command here carries digits unique to this test run, so a run in
// another checkout is never touched, and each test awaits, within a bound, that none is left.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bash, killLeftovers, pidsMatching, text, waitFor, world } from "./harness.ts";

const RUN = String(process.pid).padStart(7, "0");

test.concurrent("SIGKILL while a command runs: what it started is gone, setsid, nohup and double forks included", async () => {
  await using w = await world();
  const sleeps = [41, 42, 43, 44].map((n) => `sleep ${n}.5${RUN}`);
  // Anchored: the shell running the line has every sleep in its own command line too.
  const running = async () => (await Promise.all(sleeps.map((s) => pidsMatching(`^${s}$`)))).filter((pids) => pids.length > 0).length;
  const command = [
    `setsid sleep 41.5${RUN} >/dev/null 2>&1 &`,
    `nohup sleep 42.5${RUN} >/dev/null 2>&1 &`,
    `( (sleep 43.5${RUN} >/dev/null 2>&1 &) & );`,
    `sleep 44.5${RUN}`,
  ].join(" ");
  w.fake.script({ reply: [bash(command)] });
  const rein = w.start(["-p", "wait", "--allow", "bash", "--output-format", "stream-json"]);
  try {
    await rein.waitForEvent("tool_start");
    await waitFor(async () => (await running()) === 4, "the four sleeps to be running");
    rein.kill("SIGKILL");
    await rein.exited;
    await waitFor(async () => (await running()) === 0 && (await pidsMatching(`sleep 4[1-4].5${RUN}`)).length === 0, "no process of the command left", 5_000);
    await waitFor(async () => (await watchdogsOf(rein.pid)).length === 0, "the watchdog to exit", 5_000);
  } finally {
    await killLeftovers(`sleep 4[1-4].5${RUN}`);
  }
});

test.concurrent("SIGKILL with a command running in the background: the watchdog stops it too", async () => {
  await using w = await world();
  const server = `sleep 45.5${RUN}`;
  w.fake.script(
    { reply: [{ type: "tool_use", name: "bash", input: { command: `setsid ${server} >/dev/null 2>&1 & ${server}`, background: true } }] },
    { hang: true },
  );
  const rein = w.start(["-p", "start it", "--allow", "bash", "--output-format", "stream-json"]);
  try {
    await waitFor(() => w.fake.requests.length === 2, "the request after the background call");
    await waitFor(async () => (await pidsMatching(`^${server}$`)).length === 2, `${server} to be running twice`);
    rein.kill("SIGKILL");
    await rein.exited;
    await waitFor(async () => (await pidsMatching(server)).length === 0, `no ${server} left`, 5_000);
  } finally {
    await killLeftovers(server);
  }
});

test.concurrent("a run that ends normally leaves no watchdog behind, and a run without bash starts none", async () => {
  await using w = await world();
  // The command runs until the test has seen the watchdog, then the run ends on its own.
  w.fake.script({ reply: [bash("until [ -e go ]; do sleep 0.02; done")] }, { reply: [text("done")] });
  const withBash = w.start(["-p", "go", "--allow", "bash", "--output-format", "stream-json"]);
  await withBash.waitForEvent("tool_start");
  await waitFor(async () => (await watchdogsOf(withBash.pid)).length === 1, "one watchdog for the run");
  await Bun.write(join(w.cwd, "go"), "");
  expect((await withBash.exited).code).toBe(0);
  await waitFor(async () => (await watchdogsOf(withBash.pid)).length === 0, "the watchdog to exit with rein");

  w.fake.script({ hang: true });
  const noBash = w.start(["-p", "hi", "--output-format", "stream-json"]);
  await waitFor(() => w.fake.requests.length === 3, "the request of the run without bash");
  expect(await watchdogsOf(noBash.pid)).toEqual([]);
  noBash.kill("SIGKILL");
  await noBash.exited;
});

/** Watchdogs whose marker prefix names `reinPid` (`rein-watchdog <pid>-<random>` in their command line). */
async function watchdogsOf(reinPid: number): Promise<number[]> {
  return (await pidsMatching("rein-watchdog")).filter((pid) => watchdogOf(pid, reinPid));
}

function watchdogOf(pid: number, reinPid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").some((arg) => arg.startsWith(`${reinPid}-`));
  } catch {
    return false; // gone
  }
}
