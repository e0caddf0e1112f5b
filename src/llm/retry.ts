// Retry policy: which failures are retried and how long to wait. Pure; the clock and the random
// source are parameters so tests can pin them.
import type { ProviderErrorCode } from "../agent/types.ts";

export type RetryPolicy = {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * The longest a turn waits without hearing anything from the provider, over all its attempts and
   * the pauses between them: no retry starts that would end past it.
   */
  maxWaitMs: number;
};

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxWaitMs: 180_000 };

const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set(["rate_limited", "overloaded", "server", "connection"]);

export function isRetryable(code: ProviderErrorCode): boolean {
  return RETRYABLE.has(code);
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1). A server's retry-after wins when it
 * is given (capped at the policy's maximum); otherwise exponential backoff with full jitter over
 * the upper half of the window, so two clients never retry in lockstep.
 */
export function retryDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(retryAfterMs, policy.maxDelayMs);
  }
  const ceiling = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** `retry-after` (seconds or an HTTP date) or `retry-after-ms`, in milliseconds. */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers.get("retry-after");
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
