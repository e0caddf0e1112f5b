// The one process-group runner of rein: tools (bash, background commands, the shared read-only
// sandbox), hooks' commands and language servers start their processes and stop what those started
// through it. A child spawned detached leads its own process group (pgid = its pid) in a session of
// its own (no terminal), so signalling the group reaches what it started in the background. A process that left
// the group (`setsid`, a daemon that double-forks and is re-parented to init) is found by a marker
// instead: every process of a call carries REIN_CALL=<id> in its environment, inherited through
// every fork, and on Linux /proc tells which processes carry it (prctl, which would make rein a
// subreaper, is not reachable from Bun). A process that clears its environment escapes the marker.
import { readdirSync, readFileSync } from "node:fs";
import type { SpawnOptions, Subprocess } from "bun";
import { randomHex } from "./digest.ts";

export const CALL_MARKER = "REIN_CALL";

/** What a command's processes are known by: its group, its marker's value, and the pids allocated before it started. */
export type CallProcesses = { pgid: number; marker: string; since?: PidCursor };

/**
 * The last pid the kernel handed out, and when. Pids are allocated in increasing order (wrapping
 * at pid_max), so what a call starts later has a larger pid: the marker search can skip reading
 * the environment of every older process on the machine, which costs milliseconds on a busy one.
 */
export type PidCursor = { lastPid: number; at: number };

/** Forks per second no machine reaches: within pid_max / this seconds the pids cannot have gone round once. */
const MAX_FORK_RATE = 200_000;
/** Beyond this many pids since the cursor, a walk of /proc is cheaper than trying each. */
const MAX_PROBED = 512;

let marker: string | undefined;
/**
 * What every marker of this rein process starts with (the watchdog finds them by it, watchdog.ts).
 * Made at the first call, not at start: the first random bytes cost a one-shot that starts no
 * command a millisecond or more.
 */
export function processMarker(): string {
  return (marker ??= `${process.pid}-${randomHex(6)}`);
}

/** A fresh marker value for one call; put it in the command's environment as CALL_MARKER. */
export function newCallMarker(): string {
  return `${processMarker()}-${randomHex(8)}`;
}

/** Where the pid counter stands now (undefined where /proc/loadavg is missing or unreadable). */
export function pidCursor(proc = "/proc", now = Date.now()): PidCursor | undefined {
  const lastPid = lastAllocatedPid(proc);
  return lastPid === undefined ? undefined : { lastPid, at: now };
}

/** Sends `signal` (0: none, only asks) to the call's group and to every process carrying its marker; false when none was left. */
export function signalCall(call: CallProcesses, signal: NodeJS.Signals | 0): boolean {
  const group = signalGroup(call.pgid, signal);
  return signalMarked(call.marker, signal, call.since) || group;
}

/** Sends `signal` to every process carrying `marker` (started after `since`, when given); false when none was left. */
export function signalMarked(marker: string, signal: NodeJS.Signals | 0, since?: PidCursor): boolean {
  let marked = false;
  for (const pid of markedProcesses(marker, "/proc", since)) {
    try {
      process.kill(pid, signal);
      marked = true;
    } catch {
      // exited meanwhile
    }
  }
  return marked;
}

/**
 * SIGKILLs what is left of the call and waits (up to `waitMs`) until none of it runs any more, so
 * nothing the call started is alive once it returns; false when nothing was left. A killed process
 * has no environment any more, even as a zombie nobody reaped yet.
 */
export async function killCall(call: CallProcesses, waitMs = 1_000): Promise<boolean> {
  if (!signalCall(call, "SIGKILL")) return false;
  const deadline = Date.now() + waitMs;
  while (markedProcesses(call.marker, "/proc", call.since).length > 0 && Date.now() < deadline) await Bun.sleep(5);
  return true;
}

/** Sends `signal` to every process in the group; false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group is empty (EPERM cannot happen for our own children)
    return false;
  }
}

/** Starts `argv` in a process group and session of its own: no terminal, and one group to end with everything it starts. */
export function spawnGroup<const In extends SpawnOptions.Writable = "ignore", const Out extends SpawnOptions.Readable = "pipe", const Err extends SpawnOptions.Readable = "inherit">(
  argv: string[],
  options: Omit<SpawnOptions.SpawnOptions<In, Out, Err>, "detached">,
): Subprocess<In, Out, Err> {
  return Bun.spawn(argv, { ...options, detached: true });
}

/**
 * Ends a group: SIGTERM now, SIGKILL after `graceMs` unless its leader exited first; once the
 * leader exits, what it left running in its group is killed.
 */
export function endGroup(pgid: number, exited: Promise<unknown>, graceMs: number): void {
  signalGroup(pgid, "SIGTERM");
  const kill = setTimeout(() => signalGroup(pgid, "SIGKILL"), graceMs);
  void exited.then(() => {
    clearTimeout(kill);
    signalGroup(pgid, "SIGKILL");
  });
}

/** Groups SIGKILLed when rein exits (a second signal's exit included); nothing registered outlives rein. */
const killedAtExit = new Set<number>();
let exitListener = false;

/** Kills the group `pgid` when rein exits, unless the returned function forgets it first. */
export function killAtExit(pgid: number): () => void {
  if (!exitListener) {
    exitListener = true;
    process.once("exit", () => {
      for (const group of killedAtExit) signalGroup(group, "SIGKILL");
    });
  }
  killedAtExit.add(pgid);
  return () => void killedAtExit.delete(pgid);
}

/**
 * Pids of live processes whose environment holds CALL_MARKER=marker (none where /proc is missing).
 * With `since`, only the pids allocated after it are tried, unless the counter may have gone round.
 */
export function markedProcesses(marker: string, proc = "/proc", since?: PidCursor, now = Date.now()): number[] {
  const candidates = (since && pidsSince(since, proc, now)) ?? allPids(proc);
  const needle = Buffer.from(`${CALL_MARKER}=${marker}\0`);
  const pids: number[] = [];
  for (const pid of candidates) {
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`${proc}/${pid}/environ`);
    } catch {
      continue; // another user's process, or gone
    }
    const at = environ.indexOf(needle);
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) pids.push(pid);
  }
  return pids;
}

/** The pids after the cursor up to the counter now; undefined when they may have wrapped or are too many to try one by one. */
function pidsSince(since: PidCursor, proc: string, now: number): number[] | undefined {
  const last = lastAllocatedPid(proc);
  if (last === undefined || last < since.lastPid) return undefined;
  if ((now - since.at) / 1000 >= pidMax(proc) / MAX_FORK_RATE) return undefined;
  if (last - since.lastPid > MAX_PROBED) return undefined;
  return Array.from({ length: last - since.lastPid }, (_, i) => since.lastPid + 1 + i);
}

function allPids(proc: string): number[] {
  try {
    return readdirSync(proc).filter((entry) => /^\d+$/.test(entry)).map(Number);
  } catch {
    return [];
  }
}

/** The last field of /proc/loadavg's fourth column group: the most recently allocated pid. */
function lastAllocatedPid(proc: string): number | undefined {
  try {
    const last = Number(readFileSync(`${proc}/loadavg`, "utf8").trim().split(/\s+/)[4]);
    return Number.isInteger(last) && last > 0 ? last : undefined;
  } catch {
    return undefined;
  }
}

let knownPidMax: number | undefined;
function pidMax(proc: string): number {
  if (proc === "/proc" && knownPidMax !== undefined) return knownPidMax;
  let max = 32_768; // the kernel's default, and the smallest a system has in practice
  try {
    const read = Number(readFileSync(`${proc}/sys/kernel/pid_max`, "utf8").trim());
    if (Number.isInteger(read) && read > 0) max = read;
  } catch {
    // the default
  }
  if (proc === "/proc") knownPidMax = max;
  return max;
}
