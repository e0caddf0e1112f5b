// Recall: the history tool reads the session's full stored conversation, including what the model
// no longer sees, through the real loop against the fake model.
import { beforeEach, expect, test } from "bun:test";
import history from "../../../tools/history.ts";
import { sentResults, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const call = (input: Record<string, unknown>) => ({ reply: [{ type: "tool_use" as const, name: "history", input }] });
const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });

test("the model finds an earlier message by text and reads messages by position", async () => {
  const { session } = kit.create({ tools: [history] });
  kit.fake.script(say("The secret word is PERIWINKLE."));
  await session.prompt("remember a word for me");
  kit.fake.script(call({ query: "periwinkle" }), call({ from: 0, to: 1 }), call({}), say("found it"));
  const result = await session.prompt("what was the word?");
  expect(result.status).toBe("success");
  const found = sentResults(kit.fake.requests[2])[0]!.content as string;
  expect(found).toBe("#1 assistant:\nThe secret word is PERIWINKLE.");
  const read = sentResults(kit.fake.requests[3])[0]!.content as string;
  expect(read).toBe("#0 user:\nremember a word for me\n\n#1 assistant:\nThe secret word is PERIWINKLE.");
  const overview = sentResults(kit.fake.requests[4])[0]!.content as string;
  expect(overview).toContain("The session has 8 messages (positions 0-7)");
});

test("a search that finds nothing says so", async () => {
  const { session } = kit.create({ tools: [history] });
  kit.fake.script(call({ query: "nowhere" }), say("no"));
  await session.prompt("look");
  expect(sentResults(kit.fake.requests[1])[0]!.content).toBe('No message contains "nowhere".');
});
