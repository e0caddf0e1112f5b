// The size of a resumed history from its stored text must agree with walking the messages.
import { expect, test } from "bun:test";
import { estimateTokens, requestTokens, storedTokens } from "../../../src/agent/context-size.ts";
import type { Message } from "../../../src/agent/types.ts";

const messages: Message[] = [
  { role: "user", content: [{ type: "text", text: "please look at src/parser.ts" }] },
  { role: "assistant", content: [{ type: "text", text: "Reading it." }, { type: "tool_use", id: "toolu_1", name: "read", input: { path: "src/parser.ts" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "1\texport function parse() {}\n" }] },
];

test("the estimate from stored lengths is within a few tokens of walking the messages, and never below it", () => {
  const stored = {
    roleLength: messages.reduce((n, m) => n + m.role.length, 0),
    contentLength: messages.reduce((n, m) => n + JSON.stringify(m.content).length, 0),
    count: messages.length,
  };
  const fromStored = storedTokens(stored);
  const walked = estimateTokens(messages);
  expect(fromStored).toBeGreaterThanOrEqual(walked);
  expect(fromStored - walked).toBeLessThanOrEqual(2 * messages.length);
});

test("a known estimate of the first messages is used with what came after it; a provider count wins over it", () => {
  const fixed = 1000;
  const next: Message = { role: "user", content: [{ type: "text", text: "and now?" }] };
  const all = [...messages, next];
  expect(requestTokens(all, fixed, undefined, { tokens: 500, messages: 3 })).toBe(fixed + 500 + estimateTokens([next]));
  expect(requestTokens(all, fixed, { tokens: 9000, messages: 3 }, { tokens: 500, messages: 3 })).toBe(9000 + estimateTokens([next]));
  // an estimate for more messages than there are (the history was compacted) is not used
  expect(requestTokens(messages.slice(0, 2), fixed, undefined, { tokens: 500, messages: 3 })).toBe(fixed + estimateTokens(messages.slice(0, 2)));
});
