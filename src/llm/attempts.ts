// One turn's attempts, the same for every provider: an attempt streams until it finishes or
// fails; a failure is retried as the policy says, each attempt is dropped when the provider goes
// silent for the idle timeout, and the whole turn waits at most `maxWaitMs` without hearing from
// the provider (attempts and the pauses between them together), so nothing waits for ever.
import type { ProviderErrorCode, ProviderEvent } from "../agent/types.ts";
import { isRetryable, retryDelayMs, type RetryPolicy } from "./retry.ts";

export type Failure = { code: ProviderErrorCode; message: string; status?: number; retryAfterMs?: number };

export type AttemptIO = {
  signal: AbortSignal;
  /** the provider sent something that is not yet reply (a keep-alive, a comment, message_start): rearms the idle timeout */
  alive: () => void;
  /** the reply grew (text, a tool call's input, reasoning): rearms it and restarts the wait */
  progress: () => void;
  /** this attempt's idle timeout, for a client that wants its own */
  idleMs: number;
};

/** Streams one attempt; returns the failure that ended it, or undefined once `done` was yielded. */
export type Attempt = (io: AttemptIO) => AsyncGenerator<ProviderEvent, Failure | undefined>;

export type RetryOptions = {
  policy: RetryPolicy;
  idleTimeoutMs: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
};

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export async function* withRetries(attempt: Attempt, signal: AbortSignal, options: RetryOptions): AsyncGenerator<ProviderEvent> {
  const { policy } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const clock = { now, lastProgress: now(), maxWaitMs: policy.maxWaitMs };
  const waited = () => now() - clock.lastProgress;
  for (let n = 1; ; n++) {
    const failure = yield* watched(attempt, signal, options.idleTimeoutMs, clock);
    if (!failure) return;
    if (signal.aborted) return yield aborted();
    const delay = retryDelayMs(n, policy, failure.retryAfterMs);
    const outOfTime = waited() + delay >= policy.maxWaitMs;
    if (!isRetryable(failure.code) || n >= policy.maxAttempts || outOfTime) {
      const tries = n > 1 ? ` (after ${n} attempts${outOfTime ? `, ${seconds(waited())} without an answer` : ""})` : "";
      const hint = failure.code === "connection" && outOfTime ? WAIT_HINT : "";
      return yield { type: "error", code: failure.code, ...(failure.status ? { status: failure.status } : {}), message: failure.message + tries + hint };
    }
    yield { type: "retry", attempt: n, delay_ms: delay, reason: failure.message };
    await sleep(delay, signal);
    if (signal.aborted) return yield aborted();
  }
}

const WAIT_HINT = "; REIN_STREAM_IDLE_MS and REIN_RETRY_MAX_WAIT_MS set how long rein waits";

type Clock = { now: () => number; lastProgress: number; maxWaitMs: number };

/**
 * One attempt under a watchdog: it fires after `idleMs` without a byte, and in any case once the
 * turn has waited `maxWaitMs` for its reply to grow (a server sending only keep-alives).
 */
async function* watched(attempt: Attempt, signal: AbortSignal, idleMs: number, clock: Clock): AsyncGenerator<ProviderEvent, Failure | undefined> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) controller.abort();
  let fired: Failure | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastByte = clock.now();
  const arm = () => {
    clearTimeout(timer);
    const sinceProgress = clock.now() - clock.lastProgress;
    const budget = clock.maxWaitMs - sinceProgress;
    const ms = Math.max(1, Math.min(idleMs, budget));
    timer = setTimeout(() => {
      const quiet = clock.now() - lastByte;
      fired = { code: "connection", message: ms === idleMs || quiet >= ms ? `the API sent nothing for ${ms / 1000}s` : `the API sent no reply for ${seconds(clock.now() - clock.lastProgress)}` };
      controller.abort();
    }, ms);
  };
  const alive = () => {
    lastByte = clock.now();
    arm();
  };
  const progress = () => {
    clock.lastProgress = clock.now();
    alive();
  };
  arm();
  try {
    const events = attempt({ signal: controller.signal, alive, progress, idleMs });
    while (true) {
      const next = await events.next();
      if (next.done) return fired && next.value ? fired : next.value;
      if (next.value.type === "done") clearTimeout(timer);
      else progress();
      yield next.value;
    }
  } catch (error) {
    if (fired) return fired;
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

function aborted(): ProviderEvent {
  return { type: "error", code: "aborted", message: "aborted" };
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
