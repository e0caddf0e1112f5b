import { expect, test } from "bun:test";
import type { Message } from "../../../src/agent/types.ts";
import { withCacheBreakpoints } from "../../../src/llm/cache-breakpoints.ts";
import { withoutCacheMarks } from "../../support/session-kit.ts";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const tools = [
  { name: "a", description: "A", input_schema: { type: "object" } },
  { name: "b", description: "B", input_schema: { type: "object" } },
];

const marks = (value: unknown): number => JSON.stringify(value).split('"cache_control"').length - 1;

test("the tools, the system prompt and the last two user turns are marked; at most 4 marks; nothing is mutated", () => {
  const messages = [user("one"), assistant("two"), user("three"), assistant("four"), user("five")];
  const before = JSON.stringify(messages);
  const request = withCacheBreakpoints({ system: "sys", tools, messages });
  expect(JSON.stringify(messages)).toBe(before);
  expect(request.system).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
  expect(request.tools[1]).toMatchObject({ name: "b", cache_control: { type: "ephemeral" } });
  expect(request.tools[0]).not.toHaveProperty("cache_control");
  expect(request.messages.map((m) => marks(m))).toEqual([0, 0, 1, 0, 1]);
  expect(marks(request)).toBe(4);
  expect(withoutCacheMarks(request.messages)).toEqual(messages);
});

test("turn after turn the previous request's last mark is marked again, so the new request reads the old prefix from cache", () => {
  const turn1 = [user("task"), assistant("call"), user("result 1")];
  const turn2 = [...turn1, assistant("call again"), user("result 2")];
  const first = withCacheBreakpoints({ system: "sys", tools, messages: turn1 });
  const second = withCacheBreakpoints({ system: "sys", tools, messages: turn2 });
  expect(marks(first.messages[2])).toBe(1);
  expect(marks(second.messages[2])).toBe(1);
  expect(marks(second.messages[4])).toBe(1);
  // The content before that mark is the same, byte for byte, in both requests.
  expect(JSON.stringify(withoutCacheMarks(second.messages.slice(0, 3)))).toBe(JSON.stringify(withoutCacheMarks(first.messages)));
  expect(JSON.stringify(second.system)).toBe(JSON.stringify(first.system));
  expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
});
