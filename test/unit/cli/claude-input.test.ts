import { expect, test } from "bun:test";
import { turnText } from "../../../src/cli/claude-input.ts";

test("a user line gives its text; anything else says what is wrong", () => {
  expect(turnText('{"type":"user","message":{"role":"user","content":"hi"}}')).toEqual({ text: "hi" });
  expect(turnText('{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}}')).toEqual({ text: "a\n\nb" });
  expect(turnText("{oops")).toEqual({ problem: "not JSON" });
  expect(turnText('{"type":"assistant","message":{"content":"x"}}')).toMatchObject({ problem: expect.stringContaining("not a user message") });
  expect(turnText('{"type":"user","message":{"content":"  "}}')).toEqual({ problem: "the message has no text" });
});
