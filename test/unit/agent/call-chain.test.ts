// The loop's seams, against a model double: what the functions around a tool call and at the stop
// may do, and that the loop does it.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { runLoop, STOP_CONTINUE_LIMIT } from "../../../src/agent/loop.ts";
import type { AuthorizeInput, CallChain, Message, ToolCallDone, ToolResultBlock } from "../../../src/agent/types.ts";
import { defineTool } from "../../../src/sdk.ts";
import { call, loopConfig, loopRun, modelDouble, replies, says } from "../../support/model-double.ts";

function recorder() {
  const runs: unknown[] = [];
  const tool = defineTool({
    name: "look",
    description: "Looks",
    input: v.object({ path: v.string() }),
    run: (input) => (runs.push(input), input.path === "fail" ? { output: "no such file", isError: true } : `saw ${input.path}`),
  });
  return { tool, runs };
}
const prompt = (text: string): Message[] => [{ role: "user", content: [{ type: "text", text }] }];
const resultsSent = (messages: Message[]) => messages.flatMap((m) => m.content.filter((b): b is ToolResultBlock => b.type === "tool_result"));
const run = (double: ReturnType<typeof modelDouble>, chain: CallChain, extra: { authorize?: (c: AuthorizeInput) => Promise<{ allow: true }> } = {}) => {
  const look = recorder();
  const io = { ...loopRun(double, [look.tool]), chain, ...extra };
  return { look, io, done: runLoop(prompt("look"), loopConfig(), io, new AbortController().signal) };
};

test("a before-call block keeps the tool from running and gives the model the block's text as an error result", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" })]), says("ok"));
  const { look, done } = run(double, { beforeToolCall: async () => ({ block: "blocked by policy" }) });
  await done;
  expect(look.runs).toEqual([]);
  expect(resultsSent(double.requests[1]!.messages)[0]).toMatchObject({ is_error: true, content: "blocked by policy" });
});

test("a replaced input is what runs and what permissions see; an invalid replacement does not run", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" }), call("c2", "look", { path: "b" })]), says("ok"));
  const asked: unknown[] = [];
  const { look, done } = run(
    double,
    { beforeToolCall: async (c) => ({ input: c.id === "c1" ? { path: "replaced" } : { path: 42 } }) },
    { authorize: async (c) => (asked.push(c.input), { allow: true }) },
  );
  await done;
  expect(look.runs).toEqual([{ path: "replaced" }]);
  expect(asked).toEqual([{ path: "replaced" }]);
  const second = resultsSent(double.requests[1]!.messages)[1]!;
  expect(second.is_error).toBe(true);
  expect(second.content).toContain("A hook replaced this call's input with one that is not valid");
  expect(second.content).toContain("path:");
});

test("an ask from the chain reaches the permission check as a reason to confirm", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" })]), says("ok"));
  const reasons: (string | undefined)[] = [];
  const { done } = run(double, { beforeToolCall: async () => ({ ask: "the hook wants a person to look" }) }, {
    authorize: async (c) => (reasons.push(c.reason), { allow: true }),
  });
  await done;
  expect(reasons).toEqual(["the hook wants a person to look"]);
});

test("after a call the chain may replace the output and add context; a failure goes to the failure function", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" }), call("c2", "look", { path: "fail" })]), says("ok"));
  const heard: ToolCallDone[] = [];
  const { io, done } = run(double, {
    afterToolCall: async (c) => (heard.push(c), { output: `${c.output} (checked)`, context: "formatter ran" }),
    onToolError: async (c) => (heard.push(c), { context: "the failure was noted" }),
  });
  await done;
  expect(heard.map((c) => [c.id, c.isError, c.output])).toEqual([["c1", false, "saw a"], ["c2", true, "no such file"]]);
  const [first, second] = resultsSent(double.requests[1]!.messages);
  expect(first!.content).toBe("saw a (checked)\n\nformatter ran");
  expect(second!.content).toBe("no such file\n\nthe failure was noted");
  expect(io.events.find((e) => e.type === "tool_end" && e.id === "c1")).toMatchObject({ output: "saw a (checked)" });
});

test("a before-call function that throws fails closed: the call does not run", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" })]), says("ok"));
  const { look, done } = run(double, { beforeToolCall: async () => { throw new Error("boom"); } });
  await done;
  expect(look.runs).toEqual([]);
  expect(resultsSent(double.requests[1]!.messages)[0]!.content).toContain("The check before this call failed (boom)");
});

test("the stop check continues the run with its text, counting continuations, and stops at the limit", async () => {
  const turns = Array.from({ length: STOP_CONTINUE_LIMIT + 1 }, (_, i) => says(`reply ${i}`));
  const double = modelDouble(...turns);
  const seen: number[] = [];
  const { done } = run(double, { beforeStop: async (stop) => (seen.push(stop.continued), "keep going: the tests fail") });
  const result = await done;
  expect(result).toMatchObject({ status: "success", text: `reply ${STOP_CONTINUE_LIMIT}` });
  expect(seen).toEqual(Array.from({ length: STOP_CONTINUE_LIMIT }, (_, i) => i));
  const last = double.requests[1]!.messages.at(-1)!;
  expect(last).toEqual({ role: "user", content: [{ type: "text", text: "keep going: the tests fail" }] });
});

test("a stop check that answers nothing lets the run end", async () => {
  const double = modelDouble(says("done"));
  const { done } = run(double, { beforeStop: async () => undefined });
  expect(await done).toMatchObject({ status: "success", text: "done" });
  expect(double.requests).toHaveLength(1);
});
