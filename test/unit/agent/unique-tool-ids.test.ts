// Tool call ids are unique across a conversation whatever the provider sent: a reply that reuses an
// earlier call's id is stored under a new one, and a stored session that repeats one is sent valid.
import { beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import type { Message, ToolResultBlock, ToolUseBlock } from "../../../src/agent/types.ts";
import { withWireIds } from "../../../src/llm/tool-ids.ts";
import { defineTool } from "../../../src/sdk.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const look = defineTool({ name: "look", description: "Looks", input: v.object({ n: v.number() }), permissions: () => [], run: ({ n }) => `seen ${n}` });
const call = (n: number) => ({ reply: [{ type: "tool_use" as const, id: "call_0", name: "look", input: { n } }] });

/** The tool_use ids of a request's messages, and the ids its tool results answer, in order. */
function ids(messages: Message[]): { uses: string[]; results: string[] } {
  const blocks = messages.flatMap((m) => m.content);
  return {
    uses: blocks.filter((b): b is ToolUseBlock => b.type === "tool_use").map((b) => b.id),
    results: blocks.filter((b): b is ToolResultBlock => b.type === "tool_result").map((b) => b.tool_use_id),
  };
}

test("a provider that names every call call_0: the second is stored and sent under a new id, its result paired with it", async () => {
  const { session } = kit.create({ tools: [look] });
  kit.fake.script(call(1), call(2), { reply: [{ type: "text", text: "Done." }] });

  expect(await session.prompt("look twice")).toMatchObject({ status: "success" });

  const sent = ids(kit.fake.requests[2]!.body.messages);
  expect(new Set(sent.uses).size).toBe(2);
  expect(sent.uses[0]).toBe("call_0");
  expect(sent.results).toEqual(sent.uses);
  const stored = ids(kit.store.conversation(session.id));
  expect(stored).toEqual(sent);
  expect(JSON.stringify(kit.fake.requests[2]!.body.messages)).toContain("seen 2");
});

test("a stored conversation that repeats an id is sent with distinct ids, each result answering its own call", () => {
  const use = (n: number): Message => ({ role: "assistant", content: [{ type: "tool_use", id: "call_0", name: "look", input: { n } }] });
  const result = (n: number): Message => ({ role: "user", content: [{ type: "tool_result", tool_use_id: "call_0", content: `seen ${n}` }] });
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "go" }] }, use(1), result(1), use(2), result(2)];

  const sent = withWireIds(messages);

  const { uses, results } = ids(sent);
  expect(new Set(uses).size).toBe(2);
  expect(results).toEqual(uses);
  expect(uses.every((id) => /^[A-Za-z0-9_-]{1,40}$/.test(id))).toBe(true);
  expect(withWireIds(sent)).toBe(sent);
});
