// The loop on its own, against a model double (no HTTP): what it does with the provider events of
// a turn, whatever provider would have sent them.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { runLoop } from "../../../src/agent/loop.ts";
import type { Message, ToolResultBlock } from "../../../src/agent/types.ts";
import { defineTool } from "../../../src/sdk.ts";
import { call, loopConfig, loopRun, modelDouble, replies, says } from "../../support/model-double.ts";

function recorder() {
  const runs: unknown[] = [];
  const tool = defineTool({ name: "look", description: "Looks", input: v.object({ path: v.string() }), run: (input) => (runs.push(input), `saw ${input.path}`) });
  return { tool, runs };
}
const prompt = (text: string): Message[] => [{ role: "user", content: [{ type: "text", text }] }];
const resultsSent = (messages: Message[]) => messages.flatMap((m) => m.content.filter((b): b is ToolResultBlock => b.type === "tool_result"));

test("a call whose input could not be read does not run, and the model is told why, not that it hit the output limit", async () => {
  const look = recorder();
  const double = modelDouble(replies([call("c1", "look", {})], { invalid_tool_inputs: [{ id: "c1", error: "not valid JSON: path=a.ts" }] }), says("retried"));

  const result = await runLoop(prompt("look"), loopConfig(), loopRun(double, [look.tool]), new AbortController().signal);

  expect(result).toMatchObject({ status: "success", text: "retried" });
  expect(look.runs).toEqual([]);
  const [sent] = resultsSent(double.requests[1]!.messages);
  expect(sent).toMatchObject({ tool_use_id: "c1", is_error: true });
  expect(sent!.content).toContain("could not be read (not valid JSON: path=a.ts)");
  expect(sent!.content).not.toContain("output token limit");
});

test("a call cut by the output limit does not run, and the model is told to send a smaller input", async () => {
  const look = recorder();
  const double = modelDouble(replies([call("c1", "look", {})], { stop_reason: "max_tokens", incomplete_tool_ids: ["c1"] }), says("smaller now"));

  await runLoop(prompt("look"), loopConfig(), loopRun(double, [look.tool]), new AbortController().signal);

  expect(look.runs).toEqual([]);
  expect(resultsSent(double.requests[1]!.messages)[0]!.content).toContain("hit the output token limit");
});

test("a retry drops the text streamed before it: the run's text and the stored reply are the retried one", async () => {
  const double = modelDouble([
    { type: "text_delta", text: "BROKEN" },
    { type: "retry", attempt: 1, delay_ms: 0, reason: "the response stream ended before the reply was complete" },
    ...says("whole answer"),
  ]);
  const io = loopRun(double, []);

  const result = await runLoop(prompt("hi"), loopConfig(), io, new AbortController().signal);

  expect(result.text).toBe("whole answer");
  expect(io.events.map((e) => e.type)).toEqual(["text_delta", "retry", "text_delta", "assistant"]);
  expect(JSON.stringify(io.committed)).not.toContain("BROKEN");
});

test("a provider failure ends the run as an error event and result, with the partial text kept as the reply", async () => {
  const double = modelDouble([{ type: "text_delta", text: "half" }, { type: "error", code: "server", message: "API error 503: an HTML page" }]);
  const io = loopRun(double, []);

  const result = await runLoop(prompt("hi"), loopConfig(), io, new AbortController().signal);

  expect(result).toMatchObject({ status: "error", error: "API error 503: an HTML page", text: "half" });
  expect(io.events.at(-1)).toEqual({ type: "error", message: "API error 503: an HTML page", code: "server" });
  expect(io.committed.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "half" }] });
});

test("two calls run and their results go back together, in order, in the next request", async () => {
  const look = recorder();
  const double = modelDouble(replies([call("c1", "look", { path: "a" }), call("c2", "look", { path: "b" })]), says("both"));

  await runLoop(prompt("look twice"), loopConfig(), loopRun(double, [look.tool]), new AbortController().signal);

  expect(look.runs).toEqual([{ path: "a" }, { path: "b" }]);
  const last = double.requests[1]!.messages.at(-1)!;
  expect(last.role).toBe("user");
  expect(resultsSent([last]).map((b) => [b.tool_use_id, b.content])).toEqual([["c1", "saw a"], ["c2", "saw b"]]);
  expect(double.left()).toBe(0);
});
