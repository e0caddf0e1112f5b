// Stops what rein's commands started when rein itself dies without running any code (SIGKILL, the
// OOM killer). One small shell per rein process, started with its first command, blocks on a read
// from a pipe only rein holds. When the pipe reads EOF, because rein exited or was killed however,
// it kills every process whose environment carries one of this rein process's call markers
// (process-group.ts), again until none is left, so forks made meanwhile are caught too, and exits.
// It has a session of its own (so neither the terminal's signals nor a call's group kill reach it),
// no terminal, no marker of its own, an empty environment but PATH, and `/` as its folder.
import { existsSync } from "node:fs";
import type { FileSink, Subprocess } from "bun";
import { CALL_MARKER, processMarker, spawnGroup } from "./process-group.ts";

// $1 is the marker prefix: this process's markers, `REIN_CALL=<prefix>-<call>`. grep -z reads each
// environment entry as a line; an unreadable one (another user's process, a zombie) is skipped.
// The bound stops a fork loop from keeping it alive forever.
const SCRIPT = `read -r _
n=0
while [ "$n" -lt 200 ]; do
  pids=$(grep -lsz "^${CALL_MARKER}=$1-" /proc/[0-9]*/environ | sed 's#^/proc/\\([0-9]*\\)/environ$#\\1#')
  [ -z "$pids" ] && exit 0
  kill -9 $pids 2>/dev/null
  n=$((n + 1))
done`;

type Watchdog = { proc: Subprocess<"pipe", "ignore", "ignore">; stdin: FileSink };
let watchdog: Watchdog | undefined;

/** Starts the watchdog once per rein process (a no-op after, and where /proc is missing). */
export function ensureWatchdog(): void {
  if (watchdog && watchdog.proc.exitCode === null && watchdog.proc.signalCode === null) return;
  if (!existsSync("/proc/self/environ")) return;
  try {
    // a session of its own: no terminal, and not in any group rein signals
    const proc = spawnGroup(["/bin/sh", "-c", SCRIPT, "rein-watchdog", processMarker()], { cwd: "/", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdin: "pipe", stdout: "ignore", stderr: "ignore" });
    proc.unref();
    proc.stdin.unref();
    watchdog = { proc, stdin: proc.stdin };
  } catch {
    // no /bin/sh: rein still stops its commands itself when it can run code
  }
}

/** The watchdog's pid, while it runs (for tests and `rein doctor`-like checks). */
export function watchdogPid(): number | undefined {
  return watchdog && watchdog.proc.exitCode === null ? watchdog.proc.pid : undefined;
}
