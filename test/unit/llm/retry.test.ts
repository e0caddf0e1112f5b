import { describe, expect, test } from "bun:test";
import { isRetryable, parseRetryAfter, retryDelayMs, type RetryPolicy } from "../../../src/llm/retry.ts";

const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxWaitMs: 180_000 };
const top = () => 0.999_999;
const bottom = () => 0;

describe("retryDelayMs", () => {
  test("the window doubles with each attempt", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy, undefined, top))).toEqual([1000, 2000, 4000, 8000]);
  });

  test("jitter stays in the upper half of the window", () => {
    expect(retryDelayMs(3, policy, undefined, bottom)).toBe(2000);
    expect(retryDelayMs(3, policy, undefined, () => 0.5)).toBe(3000);
    expect(retryDelayMs(3, policy, undefined, top)).toBe(4000);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(3, policy);
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(4000);
    }
  });

  test("the window is capped at maxDelayMs", () => {
    expect(retryDelayMs(10, policy, undefined, top)).toBe(30_000);
    expect(retryDelayMs(50, policy, undefined, bottom)).toBe(15_000);
  });

  test("a server's retry-after wins over backoff, whatever the attempt", () => {
    expect(retryDelayMs(1, policy, 2000, top)).toBe(2000);
    expect(retryDelayMs(4, policy, 0, top)).toBe(0);
  });

  test("retry-after is capped at maxDelayMs", () => {
    expect(retryDelayMs(1, policy, 600_000, bottom)).toBe(30_000);
  });

  test("an unusable retry-after falls back to backoff", () => {
    expect(retryDelayMs(2, policy, Number.NaN, top)).toBe(2000);
    expect(retryDelayMs(2, policy, -5, top)).toBe(2000);
    expect(retryDelayMs(2, policy, Number.POSITIVE_INFINITY, top)).toBe(2000);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");

  test("seconds", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(parseRetryAfter(new Headers({ "retry-after": " 7 " }), now)).toBe(7000);
  });

  test("retry-after-ms is taken as milliseconds and preferred over retry-after", () => {
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
  });

  test("an HTTP date is the time left until then", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 21 Oct 2015 07:28:05 GMT" }), now)).toBe(5000);
  });

  test("a date in the past means retry now", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 21 Oct 2015 07:27:00 GMT" }), now)).toBe(0);
  });

  test("absent or unreadable headers give nothing", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "abc" }), now)).toBeUndefined();
  });
});

describe("isRetryable", () => {
  test("transient failures are retried", () => {
    for (const code of ["rate_limited", "overloaded", "server", "connection"] as const) expect(isRetryable(code)).toBe(true);
  });

  test("failures a retry cannot fix are not", () => {
    for (const code of ["auth", "bad_request", "aborted", "unknown"] as const) expect(isRetryable(code)).toBe(false);
  });
});
