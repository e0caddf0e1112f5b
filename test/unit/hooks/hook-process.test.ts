// A command hook's process lifetime: the hook is over when its process exits (what it left running
// is killed, so a `sleep &` holding stdout costs no wait), and a hook killed by a signal is said so.
import { expect, test } from "bun:test";
import { runCommand } from "../../../src/hooks/command.ts";
import { verdictOf } from "../../../src/hooks/outcome.ts";

const RUN = String(process.pid).padStart(7, "0");

function run(command: string) {
  return runCommand({ type: "command", command } as Parameters<typeof runCommand>[0], {
    payload: "{}",
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    // Far longer than the hook takes: before, the run waited for the leftover's stdout until this ended it.
    timeoutMs: 20_000,
    signal: new AbortController().signal,
  });
}

async function running(pattern: string): Promise<boolean> {
  const found = Bun.spawn(["pgrep", "-f", pattern], { stdout: "pipe" });
  return (await found.exited) === 0;
}

test("a hook that leaves `sleep &` holding its stdout ends when it exits, and the sleep is killed", async () => {
  const sleep = `sleep 777.${RUN}`;
  const raw = await run(`${sleep} & echo '{"decision": "approve"}'`);

  expect(raw).toMatchObject({ exitCode: 0, timedOut: false });
  expect(raw.stdout).toContain('"decision"');
  expect(await running(sleep)).toBe(false);
}, 30_000);

test("a hook killed by SIGKILL is reported with the signal's name, not as an interrupted run", async () => {
  const raw = await run("kill -KILL $$");

  expect(raw.signal).toBe("SIGKILL");
  expect(verdictOf("PreToolUse", raw, 20_000).error).toBe("killed by SIGKILL; it decided nothing");
}, 30_000);
