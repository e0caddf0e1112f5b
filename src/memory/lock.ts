// A lock between processes writing one memory folder: a directory made with mkdir (atomic on every
// file system); one left behind by a process that died is taken over after STALE_MS.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

const STALE_MS = 10_000;
const WAIT_MS = 15_000;

export async function withLock<T>(dir: string, work: () => T | Promise<T>): Promise<T> {
  const lock = join(dir, ".lock");
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (stale(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - started > WAIT_MS) throw new Error(`another rein has held ${lock} for over ${WAIT_MS / 1000} s; remove it if no rein is running`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt * 2)));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function stale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_MS;
  } catch {
    return false;
  }
}
