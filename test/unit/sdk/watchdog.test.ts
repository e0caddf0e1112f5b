// The watchdog (src/sdk/watchdog.ts) in a process of its own that is then SIGKILLed: it kills
// what carries that process's markers, and nothing else (a marker of another rein process lives on).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CALL_MARKER } from "../../../src/sdk/process-group.ts";

const RUN = String(process.pid).padStart(7, "0");
const ROOT = join(import.meta.dir, "../../..");

// A stand-in for rein: starts its watchdog, one sleep with its own marker and one with another
// process's, prints their pids, and waits to be killed.
const CHILD = `
import { ensureWatchdog, watchdogPid } from "./src/sdk/watchdog.ts";
import { CALL_MARKER, newCallMarker } from "./src/sdk/process-group.ts";
ensureWatchdog();
const start = (marker, seconds) => Bun.spawn(["sleep", seconds], { env: { PATH: process.env.PATH, [CALL_MARKER]: marker }, detached: true, stdout: "ignore" });
const own = start(newCallMarker(), "46.5${RUN}");
const foreign = start("1-0123456789ab-00", "47.5${RUN}");
own.unref();
foreign.unref();
console.log(JSON.stringify({ watchdog: watchdogPid(), own: own.pid, foreign: foreign.pid }));
setInterval(() => {}, 1000);
`;

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 5 s`);
    await Bun.sleep(10);
  }
}

test.skipIf(process.platform !== "linux")("a SIGKILLed process's watchdog kills what carries its markers, and only that", async () => {
  const child = Bun.spawn([process.execPath, "-e", CHILD], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let line = "";
  while (!line.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stand-in for rein ended early: ${line}`);
    line += new TextDecoder().decode(value);
  }
  const pids = JSON.parse(line) as { watchdog: number; own: number; foreign: number };
  try {
    expect([alive(pids.watchdog), alive(pids.own), alive(pids.foreign)]).toEqual([true, true, true]);
    expect(readFileSync(`/proc/${pids.watchdog}/environ`, "utf8")).not.toContain(CALL_MARKER);
    child.kill("SIGKILL");
    await child.exited;
    await until(() => !alive(pids.own), "the process with the dead one's marker to be killed");
    await until(() => !alive(pids.watchdog), "the watchdog to exit");
    expect(alive(pids.foreign)).toBe(true);
  } finally {
    for (const pid of [pids.own, pids.foreign]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
});
