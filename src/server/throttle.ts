// Wrong tokens slow down whoever sends them. After FREE_FAILURES wrong tokens from one client (its
// address), each of its next token checks waits its turn, one at a time, for a delay that doubles
// from BASE_MS up to MAX_MS, and only then is the token compared: 30 guesses sent at once are
// answered over minutes, and a right one among them is not answered sooner (no timing oracle).
// A right token clears the client's record; a record is forgotten FORGET_MS after its last failure.
export const FREE_FAILURES = 3;
export const BASE_MS = 500;
export const MAX_MS = 30_000;
/** Checks waiting per client beyond this are refused at once (429) instead of holding connections. */
export const MAX_WAITING = 16;
const FORGET_MS = 15 * 60_000;
const MAX_CLIENTS = 4096;

export type ThrottleClock = { now: () => number; sleep: (ms: number) => Promise<void> };
const REAL: ThrottleClock = { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

type Record = { failures: number; last: number; queue: Promise<unknown>; waiting: number };

/** "busy": too many checks of this client already wait; try again after `retryAfterS`. */
export type Checked = { ok: boolean } | { busy: true; retryAfterS: number };

export class TokenThrottle {
  private readonly clients = new Map<string, Record>();

  constructor(private readonly clock: ThrottleClock = REAL) {}

  /** Runs `matches` (the constant-time comparison) when the client's turn comes. */
  async check(client: string, matches: () => boolean): Promise<Checked> {
    const record = this.record(client);
    if (record.failures < FREE_FAILURES && record.waiting === 0) return { ok: this.settle(client, record, matches()) };
    if (record.waiting >= MAX_WAITING) return { busy: true, retryAfterS: Math.ceil(delayAfter(record.failures) / 1000) };
    record.waiting++;
    const turn = record.queue.then(async () => {
      await this.clock.sleep(delayAfter(record.failures));
      return this.settle(client, record, matches());
    });
    record.queue = turn.catch(() => {});
    try {
      return { ok: await turn };
    } finally {
      record.waiting--;
    }
  }

  private record(client: string): Record {
    const now = this.clock.now();
    const known = this.clients.get(client);
    if (known && (known.waiting > 0 || now - known.last < FORGET_MS)) return known;
    const fresh: Record = { failures: 0, last: now, queue: Promise.resolve(), waiting: 0 };
    this.clients.set(client, fresh);
    if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    return fresh;
  }

  private settle(client: string, record: Record, ok: boolean): boolean {
    if (ok) {
      record.failures = 0;
      if (record.waiting <= 1) this.clients.delete(client);
      return true;
    }
    record.failures++;
    record.last = this.clock.now();
    return false;
  }
}

/** The wait before the next check of a client with this many failures. */
export function delayAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_MS, BASE_MS * 2 ** (failures - FREE_FAILURES));
}
