// Signals a whole process group (a child spawned detached leads its own group, pgid = its pid), so
// what a command started in the background goes with it.

/** Sends `signal` to every process in the group; false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group is empty (EPERM cannot happen for our own children)
    return false;
  }
}
