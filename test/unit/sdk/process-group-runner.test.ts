// The one process-group runner (src/sdk/process-group.ts) that bash, background commands, the
// shared sandbox, hooks and the watchdog start their processes with: a group and session of its
// own, ended politely then by force, and killed when rein exits unless forgotten. Real processes.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { endGroup, signalGroup, spawnGroup } from "../../../src/sdk/process-group.ts";

const RUN = String(process.pid).padStart(7, "0");
const ROOT = join(import.meta.dir, "../../..");
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) signalGroup(pid, "SIGKILL");
});

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
    await Bun.sleep(10);
  }
}

/** pgid and sid of a process, from /proc/PID/stat (fields 5 and 6, after the command in parentheses). */
function groupOf(pid: number): { pgid: number; sid: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const [, , pgid, sid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pgid: Number(pgid), sid: Number(sid) };
}

/** Reads lines of a child's stdout until one holds `count` pids. */
async function pidsFrom(stream: ReadableStream<Uint8Array>, count: number): Promise<number[]> {
  const reader = stream.getReader();
  let text = "";
  for (;;) {
    const pids = text.split(/\s+/).filter(Boolean).map(Number);
    if (pids.length >= count && text.endsWith("\n")) {
      reader.releaseLock();
      return pids;
    }
    const { done, value } = await reader.read();
    if (done) throw new Error(`the child ended before it printed ${count} pids: ${text}`);
    text += new TextDecoder().decode(value);
  }
}

test("spawnGroup starts the command as the leader of its own group and session", async () => {
  const proc = spawnGroup(["sleep", `30.1${RUN}`], { stdout: "ignore" });
  started.push(proc.pid);
  expect(groupOf(proc.pid)).toEqual({ pgid: proc.pid, sid: proc.pid });
  expect(groupOf(process.pid).sid).not.toBe(proc.pid);
  signalGroup(proc.pid, "SIGKILL");
  await proc.exited;
  expect(proc.signalCode).toBe("SIGKILL");
});

test("endGroup: a leader that ends on SIGTERM goes, and what it left running in its group is killed", async () => {
  // The leftover ignores SIGTERM: only the SIGKILL after the leader's exit ends it (the grace is long).
  const proc = spawnGroup(["bash", "-c", `(trap '' TERM; exec sleep 30.2${RUN}) & echo $!; wait`], { stdout: "pipe" });
  started.push(proc.pid);
  const [child] = await pidsFrom(proc.stdout, 1);
  expect(groupOf(child!).pgid).toBe(proc.pid);
  endGroup(proc.pid, proc.exited, 60_000);
  await proc.exited;
  await until(() => !alive(child!), "the leftover sleep to be killed");
  expect(proc.signalCode).toBe("SIGTERM");
});

test("endGroup: a leader that ignores SIGTERM is killed after the grace", async () => {
  const proc = spawnGroup(["bash", "-c", `trap '' TERM; echo $$; sleep 30.3${RUN} & wait; sleep 30.3${RUN}`], { stdout: "pipe" });
  started.push(proc.pid);
  await pidsFrom(proc.stdout, 1);
  endGroup(proc.pid, proc.exited, 200);
  await proc.exited;
  expect(proc.signalCode).toBe("SIGKILL");
});

test("killAtExit: the groups registered die with the process that registered them, a forgotten one lives on", async () => {
  // A stand-in for rein: starts two groups, registers both, forgets one, prints their pids, exits.
  const script = `
import { killAtExit, spawnGroup } from "./src/sdk/process-group.ts";
const kept = spawnGroup(["sleep", "30.4${RUN}"], { stdout: "ignore" });
const forgotten = spawnGroup(["sleep", "30.5${RUN}"], { stdout: "ignore" });
kept.unref();
forgotten.unref();
killAtExit(kept.pid);
killAtExit(forgotten.pid)();
console.log(kept.pid, forgotten.pid);
process.exit(0);
`;
  const child = Bun.spawn(["bun", "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [kept, forgotten] = await pidsFrom(child.stdout, 2);
  started.push(kept!, forgotten!);
  expect(await child.exited).toBe(0);
  await until(() => !alive(kept!), "the registered group to be killed at exit");
  expect(alive(forgotten!)).toBe(true);
});
