import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import { startFakeAnthropic, type FakeServer } from "../fake/server.ts";

/** Retry limits small enough that a test of retries takes milliseconds. */
export const fastRetry = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

/**
 * One fake Anthropic server for the test file, handed to `use` once it listens: each test must
 * leave no scripted reply unused, and the server is reset between tests and closed at the end.
 */
export function fakeAnthropicPerFile(use: (fake: FakeServer) => void): void {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    use(fake);
  });
  afterEach(() => {
    expect(fake.pending()).toBe(0);
    fake.reset();
  });
  afterAll(() => fake.close());
}
