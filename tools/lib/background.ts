// Commands started in the background on purpose (bash with `background: true`): they outlive
// their call, their output goes to a file, and rein stops them when it exits, saying which. Every
// other process a tool starts ends with its call (process-group.ts).
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { CALL_MARKER, newCallMarker, signalCall, spawnGroup, type CallProcesses } from "../../src/sdk/process-group.ts";

export type BackgroundCommand = { call: CallProcesses; command: string; log: string; /** its exit code (null: a signal) once it ends */ exited: Promise<number | null> };

const running = new Map<number, BackgroundCommand>();
/** After SIGTERM, how long background commands may clean up before SIGKILL. */
const STOP_GRACE_MS = 1_000;

/** Starts `argv` detached with its output in `log`; it runs until it ends or rein stops it. */
export function startInBackground(argv: string[], opts: { cwd: string; env: Record<string, string>; log: string; command: string }): BackgroundCommand {
  mkdirSync(dirname(opts.log), { recursive: true });
  const fd = openSync(opts.log, "a", 0o600);
  const marker = newCallMarker();
  try {
    const proc = spawnGroup(argv, { cwd: opts.cwd, env: { ...opts.env, [CALL_MARKER]: marker }, stdin: "ignore", stdout: fd, stderr: fd });
    proc.unref(); // rein's exit is never held up by it
    const exited = proc.exited.then((code) => (proc.signalCode ? null : code), () => null);
    const entry = { call: { pgid: proc.pid, marker }, command: opts.command, log: opts.log, exited };
    void exited.then(() => running.delete(proc.pid));
    if (running.size === 0) process.once("exit", killAll);
    running.set(proc.pid, entry);
    return entry;
  } finally {
    closeSync(fd);
  }
}

/** A background command still running, by its process group (the team's task_stop and notifications). */
export function backgroundCommand(pgid: number): BackgroundCommand | undefined {
  return running.get(pgid);
}

/** Stops one background command (SIGTERM, then SIGKILL after the grace); false when it is not running. */
export function stopOneBackground(pgid: number): boolean {
  const entry = running.get(pgid);
  if (!entry || !signalCall(entry.call, "SIGTERM")) return false;
  setTimeout(() => signalCall(entry.call, "SIGKILL"), STOP_GRACE_MS).unref();
  return true;
}

/** Stops every background command still running (SIGTERM, then SIGKILL); the ones that were running. */
export async function stopBackground(): Promise<BackgroundCommand[]> {
  const live = [...running.values()].filter((entry) => signalCall(entry.call, "SIGTERM"));
  running.clear();
  if (live.length === 0) return [];
  const deadline = Date.now() + STOP_GRACE_MS;
  while (Date.now() < deadline && live.some((entry) => signalCall(entry.call, 0))) await Bun.sleep(25);
  for (const entry of live) signalCall(entry.call, "SIGKILL");
  return live;
}

/** At exit nothing can be awaited: whatever is left is killed at once. */
function killAll(): void {
  for (const entry of running.values()) signalCall(entry.call, "SIGKILL");
  running.clear();
}
