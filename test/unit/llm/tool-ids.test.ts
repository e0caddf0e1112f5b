// Tool call ids on the wire: an id an API would refuse (too long, odd characters) is replaced by
// the same short id in the call and in its result; a repeated id in a stored session is made
// unique, the result that answers it renamed with it; a conversation that already fits is sent as it is.
import { expect, test } from "bun:test";
import { newToolId, wireToolId, withWireIds } from "../../../src/llm/tool-ids.ts";
import type { Message, ToolResultBlock, ToolUseBlock } from "../../../src/agent/types.ts";

const FITS = /^[A-Za-z0-9_-]{1,40}$/;

const call = (id: string, name = "bash"): ToolUseBlock => ({ type: "tool_use", id, name, input: { command: "ls" } });
const result = (id: string, content = "ok"): ToolResultBlock => ({ type: "tool_result", tool_use_id: id, content }) as ToolResultBlock;
const user = (...content: Message["content"]): Message => ({ role: "user", content });
const assistant = (...content: Message["content"]): Message => ({ role: "assistant", content });

const uses = (messages: Message[]) => messages.flatMap((m) => m.content.filter((b) => b.type === "tool_use").map((b) => (b as ToolUseBlock).id));
const answers = (messages: Message[]) => messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result").map((b) => (b as ToolResultBlock).tool_use_id));

test("an id that fits is kept; one too long or with other characters becomes a stable call_ id that fits", () => {
  expect(wireToolId("toolu_01ABC")).toBe("toolu_01ABC");
  expect(wireToolId("a".repeat(40))).toBe("a".repeat(40));
  for (const odd of ["a".repeat(41), "call:0", "fc_1.2", "id with space", ""]) {
    const wire = wireToolId(odd);
    expect(wire).toMatch(FITS);
    expect(wire).toStartWith("call_");
    expect(wireToolId(odd)).toBe(wire);
  }
  expect(wireToolId("call:0")).not.toBe(wireToolId("call:1"));
});

test("a conversation whose ids all fit and are distinct is the same array, sent as it is", () => {
  const messages = [user({ type: "text", text: "hi" }), assistant(call("toolu_1")), user(result("toolu_1")), assistant({ type: "text", text: "done" })];
  expect(withWireIds(messages)).toBe(messages);
  // asked again (every request resends the conversation): still the same array
  expect(withWireIds(messages)).toBe(messages);
});

test("an id from another provider is replaced in the call and its result alike, and the originals are not mutated", () => {
  const long = `functions.bash:${"x".repeat(50)}`;
  const messages = [assistant({ type: "text", text: "let me look" }, call(long)), user(result(long, "files"), { type: "text", text: "and then?" })];
  const sent = withWireIds(messages);
  expect(sent).not.toBe(messages);
  const [id] = uses(sent);
  expect(id).toMatch(FITS);
  expect(answers(sent)).toEqual([id!]);
  // other blocks pass through untouched
  expect(sent[0]!.content[0]).toEqual({ type: "text", text: "let me look" });
  expect(sent[1]!.content[1]).toEqual({ type: "text", text: "and then?" });
  expect((messages[0]!.content[1] as ToolUseBlock).id).toBe(long);
  expect((messages[1]!.content[0] as ToolResultBlock).tool_use_id).toBe(long);
});

test("a provider that reused call_0 in two replies: the second call and the result answering it get a new id, the first pair stays", () => {
  const messages = [
    assistant(call("call_0")),
    user(result("call_0", "first")),
    assistant(call("call_0"), call("call_1")),
    user(result("call_0", "second"), result("call_1", "third")),
  ];
  const sent = withWireIds(messages);
  const ids = uses(sent);
  expect(ids[0]).toBe("call_0");
  expect(ids[1]).not.toBe("call_0");
  expect(ids[1]).toMatch(FITS);
  expect(ids[2]).toBe("call_1");
  expect(new Set(ids).size).toBe(3);
  // each result still answers its own call
  const byAnswer = new Map(sent.flatMap((m) => m.content.filter((b) => b.type === "tool_result").map((b) => [(b as ToolResultBlock).content, (b as ToolResultBlock).tool_use_id] as const)));
  expect(byAnswer.get("first")).toBe("call_0");
  expect(byAnswer.get("second")).toBe(ids[1]!);
  expect(byAnswer.get("third")).toBe("call_1");
  // the messages that did not change are passed on as they were
  expect(sent[0]).toBe(messages[0]!);
  expect(sent[1]).toBe(messages[1]!);
});

test("a repeated id is renamed only in the message right after the reply; a later result with that id keeps the original pairing", () => {
  const messages = [assistant(call("dup")), user(result("dup", "a")), assistant(call("dup")), user(result("dup", "b")), assistant({ type: "text", text: "end" }), user(result("dup", "c"))];
  const sent = withWireIds(messages);
  expect(answers(sent)).toEqual(["dup", uses(sent)[1]!, "dup"]);
});

test("ids too long and repeated at once: made to fit, then made distinct", () => {
  const long = "z".repeat(64);
  const sent = withWireIds([assistant(call(long)), user(result(long)), assistant(call(long)), user(result(long))]);
  const ids = uses(sent);
  expect(ids.every((id) => FITS.test(id))).toBe(true);
  expect(ids[0]).not.toBe(ids[1]);
  expect(answers(sent)).toEqual(ids);
});

test("newToolId makes distinct ids that fit", () => {
  const ids = Array.from({ length: 50 }, newToolId);
  expect(new Set(ids).size).toBe(50);
  for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
});
