// One process drives a session at a time: a run holds the session's lease (a row in the store with
// the holder's pid and host and an expiry it renews). A holder that crashed cannot keep it: a lease
// whose pid is gone (on this host) or whose expiry has passed is taken over.
import type { Database } from "bun:sqlite";
import { hostname } from "node:os";

export type LeaseRow = { session_id: string; holder: string; pid: number; host: string; acquired_at: number; expires_at: number };

export type LeaseOptions = {
  /** how long a second run waits for the lease before it is refused (ms) */
  waitMs: number;
  /** how long a lease lives without being renewed; it is renewed every third of that */
  ttlMs: number;
  now?: () => number;
  /** called when a renewal finds the lease taken over */
  onLost?: () => void;
  /** called once, with the holder's row, when the lease is taken and the wait begins */
  onWait?: (holder: LeaseRow) => void;
};

export const LEASE_WAIT_MS = 10_000;
export const LEASE_TTL_MS = 30_000;

export type Lease = {
  /** false once another process took the lease over (this one stalled past its expiry) */
  held: () => boolean;
  release: () => void;
};

let leases = 0;
/** `token` tells this process from an earlier one that had the same pid (pid 1 in a container, say). */
const me = { pid: process.pid, host: hostname(), token: `${process.pid}.${Math.random().toString(36).slice(2, 10)}` };

/** Takes the lease now if it is free; the row of the live holder otherwise. */
export function tryLease(db: Database, sessionId: string, holder: string, now: number, ttlMs: number): LeaseRow | undefined {
  return db.transaction((): LeaseRow | undefined => {
    const current = db.query(`SELECT * FROM leases WHERE session_id = ?`).get(sessionId) as LeaseRow | null;
    // A holder renews its lease for one term at a time: an expiry beyond that (another host's
    // clock, a bad row) is cut to one term from now, so it lapses unless its holder renews it.
    const term = Math.max(ttlMs, LEASE_TTL_MS);
    if (current && current.host !== me.host && current.expires_at > now + term) {
      current.expires_at = now + term;
      db.query(`UPDATE leases SET expires_at = ? WHERE session_id = ? AND holder = ?`).run(current.expires_at, sessionId, current.holder);
    }
    if (current && current.holder !== holder && alive(current, now)) return current;
    db.query(
      `INSERT OR REPLACE INTO leases (session_id, holder, pid, host, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(sessionId, holder, me.pid, me.host, now, now + ttlMs);
    return undefined;
  }).immediate();
}

/**
 * Takes the lease, waiting up to `waitMs` for the holder to finish; the holder's row when it did
 * not (or the wait was aborted). A taken lease renews itself until released.
 */
export async function acquireLease(db: Database, sessionId: string, options: LeaseOptions, signal: AbortSignal): Promise<Lease | LeaseRow> {
  const now = options.now ?? Date.now;
  const holder = `${me.token}-${++leases}`;
  const deadline = now() + options.waitMs;
  let pause = 25;
  let told = false;
  for (;;) {
    const other = tryLease(db, sessionId, holder, now(), options.ttlMs);
    if (!other) return renewing(db, sessionId, holder, options);
    if (signal.aborted || now() >= deadline) return other;
    if (!told) options.onWait?.(other);
    told = true;
    await delay(Math.min(pause, Math.max(1, deadline - now())), signal);
    pause = Math.min(pause * 2, 250);
  }
}

/** Whether a live process holds session `sessionId`'s lease now (a worker mid-run). */
export function leaseHeld(db: Database, sessionId: string, now = Date.now()): boolean {
  const current = db.query(`SELECT * FROM leases WHERE session_id = ?`).get(sessionId) as LeaseRow | null;
  return current !== null && alive(current, now);
}

/** Runs `fn` under the lease when it is free now (no waiting); false, without running it, when it is held. */
export function ifFree(db: Database, sessionId: string, fn: () => void, now = Date.now()): boolean {
  const holder = `${me.token}-${++leases}-open`;
  if (tryLease(db, sessionId, holder, now, LEASE_TTL_MS)) return false;
  try {
    fn();
  } finally {
    db.query(`DELETE FROM leases WHERE session_id = ? AND holder = ?`).run(sessionId, holder);
  }
  return true;
}

/**
 * Runs `fn` under the lease, held as `kind` (an undo, say), when it is free now. A lease another
 * `kind` holds (a second undo at once) is waited for, up to LEASE_WAIT_MS, so the two run one
 * after the other; any other holder (a run) is returned at once, without running `fn`.
 */
export async function whileFree<T>(db: Database, sessionId: string, kind: string, fn: () => Promise<T>): Promise<{ done: T } | { holder: LeaseRow }> {
  const holder = `${me.token}-${++leases}-${kind}`;
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
    const other = tryLease(db, sessionId, holder, Date.now(), LEASE_TTL_MS);
    if (!other) break;
    if (!other.holder.endsWith(`-${kind}`) || Date.now() >= deadline) return { holder: other };
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  try {
    return { done: await fn() };
  } finally {
    db.query(`DELETE FROM leases WHERE session_id = ? AND holder = ?`).run(sessionId, holder);
  }
}

/** Whose lease stands in the way of this process, said for a person. */
export function busyText(sessionId: string, row: LeaseRow, waitedMs: number): string {
  const waited = waitedMs > 0 ? `; waited ${seconds(waitedMs)} for it` : "";
  return `session ${sessionId} is in use by ${holderText(row)}${waited}. Try again when that run has finished, or start a new session (without -c or -r)`;
}

/** What a run says as it starts waiting for the holder. */
export function waitText(sessionId: string, row: LeaseRow, waitMs: number): string {
  return `session ${sessionId} is in use by ${holderText(row)}: waiting up to ${seconds(waitMs)} for it to finish`;
}

function holderText(row: LeaseRow): string {
  const where = row.host === me.host ? `pid ${row.pid}` : `pid ${row.pid} on ${row.host}`;
  return `another rein (${where}, since ${new Date(row.acquired_at).toISOString().slice(11, 19)} UTC)`;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function renewing(db: Database, sessionId: string, holder: string, options: LeaseOptions): Lease {
  const now = options.now ?? Date.now;
  let held = true;
  const renew = () => {
    try {
      held = db.query(`UPDATE leases SET expires_at = ? WHERE session_id = ? AND holder = ?`).run(now() + options.ttlMs, sessionId, holder).changes > 0;
    } catch {
      // a busy or failing store: the lease stands until its expiry, and the run's own writes report the failure
    }
    if (held) return;
    clearInterval(timer);
    options.onLost?.();
  };
  const timer = setInterval(renew, Math.max(10, Math.floor(options.ttlMs / 3)));
  timer.unref?.();
  return {
    held: () => held,
    release: () => {
      clearInterval(timer);
      if (!held) return;
      held = false;
      try {
        db.query(`DELETE FROM leases WHERE session_id = ? AND holder = ?`).run(sessionId, holder);
      } catch {
        // left to expire
      }
    },
  };
}

/** A holder counts until its expiry; on this host, only while its process lives. */
function alive(row: LeaseRow, now: number): boolean {
  if (row.expires_at <= now) return false;
  if (row.host !== me.host) return true;
  if (row.pid === me.pid) return row.holder.startsWith(`${me.token}-`);
  try {
    process.kill(row.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** The lease a session takes for each of its runs, with the wait and life its options give. */
export class RunLease {
  private lease: Lease | undefined;

  constructor(
    private readonly db: Database,
    private readonly sessionId: string,
    private readonly options: Partial<Pick<LeaseOptions, "waitMs" | "ttlMs" | "now">> = {},
  ) {}

  /** Takes the lease (if not held already); why the run cannot go on when it stays taken ("" when aborted while waiting). */
  async take(signal: AbortSignal, onLost: () => void, onWait?: (line: string) => void): Promise<string | undefined> {
    if (this.lease?.held()) return undefined;
    const now = this.options.now ?? Date.now;
    const since = now();
    const waitMs = this.options.waitMs ?? LEASE_WAIT_MS;
    const told = onWait && ((row: LeaseRow) => onWait(waitText(this.sessionId, row, waitMs)));
    const got = await acquireLease(this.db, this.sessionId, { waitMs, ttlMs: this.options.ttlMs ?? LEASE_TTL_MS, now, onLost, ...(told ? { onWait: told } : {}) }, signal);
    if (!("release" in got)) return signal.aborted ? "" : busyText(this.sessionId, got, now() - since);
    this.lease = got;
    return undefined;
  }

  release(): void {
    this.lease?.release();
    this.lease = undefined;
  }

  /** Why the run must stop: another process took the lease over while this one stalled. */
  lost(): string | undefined {
    if (!this.lease || this.lease.held()) return undefined;
    return `another process took over session ${this.sessionId} while this run was stalled; the run was stopped (its work so far is stored)`;
  }
}
