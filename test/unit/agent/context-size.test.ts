import { expect, test } from "bun:test";
import { estimateTokens, requestTokens, usableWindow } from "../../../src/agent/context-size.ts";
import type { Message } from "../../../src/agent/types.ts";

const says = (role: Message["role"], text: string): Message => ({ role, content: [{ type: "text", text }] });

test("the usable window is the context window less the reserved output, less 5%", () => {
  expect(usableWindow(200_000, 32_000)).toBe(158_000);
  expect(usableWindow(40_000, 4096)).toBe(33_904);
});

test("a request's size is the last count plus an estimate of what came since, or all of it estimated", () => {
  const messages = [says("user", "a".repeat(400)), says("assistant", "b".repeat(400)), says("user", "c".repeat(400))];
  expect(requestTokens(messages, 50, undefined)).toBe(50 + estimateTokens(messages));
  expect(requestTokens(messages, 50, { tokens: 1000, messages: 1 })).toBe(1000 + estimateTokens(messages.slice(1)));
  // A count from before a compaction (more messages than there are now) is not trusted.
  expect(requestTokens(messages.slice(0, 1), 50, { tokens: 1000, messages: 3 })).toBe(50 + estimateTokens(messages.slice(0, 1)));
});
