// Stops what a command started. A child spawned detached leads its own process group (pgid = its
// pid), so signalling the group reaches what it started in the background. A process that left
// the group (`setsid`, a daemon that double-forks and is re-parented to init) is found by a marker
// instead: every process of a call carries REIN_CALL=<id> in its environment, inherited through
// every fork, and on Linux /proc tells which processes carry it (prctl, which would make rein a
// subreaper, is not reachable from Bun). A process that clears its environment escapes the marker.
import { readdirSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

export const CALL_MARKER = "REIN_CALL";

/** What a command's processes are known by: its group, and its marker's value. */
export type CallProcesses = { pgid: number; marker: string };

/** A fresh marker value for one call; put it in the command's environment as CALL_MARKER. */
export function newCallMarker(): string {
  return `${process.pid}-${randomBytes(8).toString("hex")}`;
}

/** Sends `signal` (0: none, only asks) to the call's group and to every process carrying its marker; false when none was left. */
export function signalCall(call: CallProcesses, signal: NodeJS.Signals | 0): boolean {
  const group = signalGroup(call.pgid, signal);
  let marked = false;
  for (const pid of markedProcesses(call.marker)) {
    try {
      process.kill(pid, signal);
      marked = true;
    } catch {
      // exited meanwhile
    }
  }
  return group || marked;
}

/**
 * SIGKILLs what is left of the call and waits (up to `waitMs`) until none of it runs any more, so
 * nothing the call started is alive once it returns; false when nothing was left. A killed process
 * has no environment any more, even as a zombie nobody reaped yet.
 */
export async function killCall(call: CallProcesses, waitMs = 1_000): Promise<boolean> {
  if (!signalCall(call, "SIGKILL")) return false;
  const deadline = Date.now() + waitMs;
  while (markedProcesses(call.marker).length > 0 && Date.now() < deadline) await Bun.sleep(5);
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

/** Pids of live processes whose environment holds CALL_MARKER=marker (none where /proc is missing). */
export function markedProcesses(marker: string, proc = "/proc"): number[] {
  let entries: string[];
  try {
    entries = readdirSync(proc);
  } catch {
    return [];
  }
  const needle = Buffer.from(`${CALL_MARKER}=${marker}\0`);
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`${proc}/${entry}/environ`);
    } catch {
      continue; // another user's process, or gone
    }
    const at = environ.indexOf(needle);
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) pids.push(Number(entry));
  }
  return pids;
}
