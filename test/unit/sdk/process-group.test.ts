// Nothing a bash command starts outlives the call, also what left its process group (setsid, a
// daemon that double-forks): found by the per-call environment marker, with a real bash.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import bash from "../../../tools/bash.ts";
import { stopBackground } from "../../../tools/lib/background.ts";
import { CALL_MARKER, markedProcesses } from "../../../src/sdk/process-group.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome } from "../../support/tool-context.ts";

/** Digits that make this run's sleep commands its own: a test run in another checkout kills only its own. */
const RUN = String(process.pid).padStart(7, "0");

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-process-group-");
});
afterAll(() => dir.remove());

/** Live processes whose command line holds `pattern` (a killed zombie has none). */
function running(pattern: string): number[] {
  const pgrep = Bun.spawnSync(["pgrep", "-f", pattern]);
  return pgrep.stdout.toString().split("\n").filter(Boolean).map(Number);
}

function killAll(pattern: string): void {
  for (const pid of running(pattern)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

for (const [what, command, pattern] of [
  ["setsid", `setsid sleep 41.1${RUN} >/dev/null 2>&1 & echo started`, `sleep 41.1${RUN}`],
  ["setsid holding the output pipe", `setsid sleep 41.4${RUN} & echo started`, `sleep 41.4${RUN}`],
  ["a double-forked daemon", `setsid bash -c 'sleep 41.2${RUN} & disown' & sleep 0.2${RUN}; echo started`, `sleep 41.2${RUN}`],
  ["nohup in a new session", `setsid nohup sleep 41.3${RUN} >/dev/null 2>&1 & echo started`, `sleep 41.3${RUN}`],
] as const) {
  test(`${what}: the process is stopped when the call ends, and the result says so`, async () => {
    try {
      const result = toolOutcome(await bash.run({ command }, toolContext(dir.path)));
      expect(result.output).toContain("started");
      expect(result.output).toContain("[background processes still running when the command ended were stopped]");
      expect(running(pattern)).toEqual([]);
    } finally {
      killAll(pattern);
    }
  });
}

test("markedProcesses finds exactly the processes whose environment holds the marker", () => {
  const proc = join(dir.path, "proc");
  const put = (pid: string, env: string[]) => {
    mkdirSync(join(proc, pid), { recursive: true });
    writeFileSync(join(proc, pid, "environ"), env.map((e) => `${e}\0`).join(""));
  };
  put("101", ["PATH=/bin", `${CALL_MARKER}=abc`]);
  put("102", [`${CALL_MARKER}=abc`, "HOME=/root"]);
  put("103", [`${CALL_MARKER}=abcd`]);
  put("104", [`X${CALL_MARKER}=abc`]);
  put("105", [`NOTE=${CALL_MARKER}=abc`]);
  mkdirSync(join(proc, "self"), { recursive: true });
  expect(markedProcesses("abc", proc).sort()).toEqual([101, 102]);
});

test("background: true returns at once, the command outlives the call with its output in a file, and stopBackground ends it", async () => {
  const pattern = `sleep 41.6${RUN}`;
  try {
    const result = toolOutcome(await bash.run({ command: `echo up; ${pattern}`, background: true }, toolContext(dir.path, { toolUseId: "toolu_bg" })));
    const [, pgid, log] = /process group (\d+); its output goes to (\S+) /.exec(result.output) ?? [];
    expect(pgid).toBeDefined();
    expect(running(pattern).length).toBeGreaterThan(0);
    await waitUntil(() => readFileSync(log!, "utf8") === "up\n");
    const stopped = await stopBackground();
    expect(stopped.map((s) => s.command)).toEqual([`echo up; ${pattern}`]);
    expect(running(pattern)).toEqual([]);
    expect(await stopBackground()).toEqual([]);
  } finally {
    killAll(pattern);
  }
});

/** Polls a file the command writes: nothing announces the write. */
async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await Bun.sleep(10);
  expect(check()).toBe(true);
}

test("markedProcesses with a pid cursor tries only the pids allocated since, unless the counter went round", () => {
  const proc = join(dir.path, "proc-cursor");
  const put = (pid: number) => {
    mkdirSync(join(proc, String(pid)), { recursive: true });
    writeFileSync(join(proc, String(pid), "environ"), `${CALL_MARKER}=m\0`);
  };
  mkdirSync(join(proc, "sys", "kernel"), { recursive: true });
  writeFileSync(join(proc, "sys", "kernel", "pid_max"), "4194304\n");
  for (const pid of [90, 205, 210]) put(pid);
  writeFileSync(join(proc, "loadavg"), "0.10 0.20 0.30 1/100 210\n");
  expect(markedProcesses("m", proc, { lastPid: 200, at: 0 }, 10)).toEqual([205, 210]); // 90 is older than the call
  writeFileSync(join(proc, "loadavg"), "0.10 0.20 0.30 1/100 150\n"); // wrapped: every pid is tried
  expect(markedProcesses("m", proc, { lastPid: 200, at: 0 }, 10).sort()).toEqual([205, 210, 90].sort());
  writeFileSync(join(proc, "loadavg"), "0.10 0.20 0.30 1/100 210\n");
  expect(markedProcesses("m", proc, { lastPid: 200, at: 0 }, 3_600_000).sort()).toEqual([205, 210, 90].sort()); // long enough to go round
});
