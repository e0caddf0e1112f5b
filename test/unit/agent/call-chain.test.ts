// The loop's seams, against a model double: what the entries of a tool call's list (call-engine.ts)
// and the run's stop checks may do, and that the loop does it.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { runLoop, STOP_CONTINUE_LIMIT } from "../../../src/agent/loop.ts";
import { afterCall, beforeCall, type CallHandler } from "../../../src/agent/call-engine.ts";
import { check, permission, requests, run as runStep, validate } from "../../../src/agent/call-steps.ts";
import type { AfterToolCall, AuthorizeInput, BeforeToolCall, Message, StopCheck, ToolCallDone, ToolCallInfo, ToolResultBlock } from "../../../src/agent/types.ts";
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
/** The old slots, as entries of the list: the before function, then after and failure functions around the rest. */
type Seams = {
  beforeToolCall?: (call: ToolCallInfo, signal: AbortSignal) => Promise<BeforeToolCall | undefined>;
  afterToolCall?: (call: ToolCallDone, signal: AbortSignal) => Promise<AfterToolCall | undefined>;
  onToolError?: (call: ToolCallDone, signal: AbortSignal) => Promise<AfterToolCall | undefined>;
  beforeStop?: StopCheck;
  handlers?: CallHandler[];
};
const listOf = (seams: Seams): CallHandler[] =>
  seams.handlers ?? [
    validate,
    ...(seams.onToolError ? [afterCall(seams.onToolError, "failure")] : []),
    ...(seams.afterToolCall ? [afterCall(seams.afterToolCall)] : []),
    ...(seams.beforeToolCall ? [beforeCall(seams.beforeToolCall)] : []),
    requests,
    check,
    permission,
    runStep,
  ];
const run = (double: ReturnType<typeof modelDouble>, seams: Seams, extra: { authorize?: (c: AuthorizeInput) => Promise<{ allow: true }> } = {}) => {
  const look = recorder();
  const io = { ...loopRun(double, [look.tool]), handlers: listOf(seams), chain: { stopChecks: seams.beforeStop ? [seams.beforeStop] : [] }, ...extra };
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

test("a new interception is one more entry: it sees the call before and the result after, in list order", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" })]), says("ok"));
  const order: string[] = [];
  const entry = (name: string): CallHandler => async (c, next) => {
    order.push(`${name} before ${c.tool?.name ?? "?"}`);
    await next();
    order.push(`${name} after ${c.result?.output}`);
    c.notes.push(`${name} saw it`);
  };
  const { look, done } = run(double, { handlers: [validate, entry("outer"), entry("inner"), requests, check, permission, runStep] });
  await done;
  expect(look.runs).toEqual([{ path: "a" }]);
  expect(order).toEqual(["outer before look", "inner before look", "inner after saw a", "outer after saw a"]);
  expect(resultsSent(double.requests[1]!.messages)[0]!.content).toBe("saw a\n\ninner saw it\n\nouter saw it");
});

test("after-call entries outermost first: the inner one's output is what the outer one hears", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" })]), says("ok"));
  const heard: string[] = [];
  const outer = afterCall(async (c) => (heard.push(c.output), { output: `${c.output} +outer` }));
  const inner = afterCall(async (c) => (heard.push(c.output), { output: `${c.output} +inner` }));
  const { done } = run(double, { handlers: [validate, outer, inner, requests, check, permission, runStep] });
  await done;
  expect(heard).toEqual(["saw a", "saw a +inner"]);
  expect(resultsSent(double.requests[1]!.messages)[0]!.content).toBe("saw a +inner +outer");
});

test("a call that was never tried (unknown tool, a before-call block) is not told to after-call entries; a refused permission is", async () => {
  const double = modelDouble(replies([call("c1", "nosuch", {}), call("c2", "look", { path: "blocked" }), call("c3", "look", { path: "denied" })]), says("ok"));
  const told: string[] = [];
  const { look, done } = run(
    double,
    {
      onToolError: async (c) => (told.push(c.id), undefined),
      beforeToolCall: async (c) => ((c.input as { path: string }).path === "blocked" ? { block: "no" } : undefined),
    },
    { authorize: async () => ({ allow: false, message: "denied by a rule" }) as never },
  );
  await done;
  expect(look.runs).toEqual([]);
  expect(told).toEqual(["c3"]);
});

test("without a list the engine's own steps run the call", async () => {
  const double = modelDouble(replies([call("c1", "look", { path: "a" })]), says("ok"));
  const look = recorder();
  await runLoop(prompt("look"), loopConfig(), loopRun(double, [look.tool]), new AbortController().signal);
  expect(look.runs).toEqual([{ path: "a" }]);
  expect(resultsSent(double.requests[1]!.messages)[0]!.content).toBe("saw a");
});

test("stop checks are asked in turn: the first that continues wins, one that throws is passed over", async () => {
  const double = modelDouble(says("first"), says("second"));
  const asked: string[] = [];
  const checks: StopCheck[] = [
    async () => (asked.push("throws"), Promise.reject(new Error("boom"))),
    async (stop) => (asked.push("second"), stop.continued === 0 ? "once more" : undefined),
    async () => (asked.push("third"), undefined),
  ];
  const io = { ...loopRun(double, []), chain: { stopChecks: checks } };
  const result = await runLoop(prompt("go"), loopConfig(), io, new AbortController().signal);
  expect(result).toMatchObject({ status: "success", text: "second" });
  expect(asked).toEqual(["throws", "second", "throws", "second", "third"]);
});
