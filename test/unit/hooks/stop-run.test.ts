// `continue: false` from any hook stops the whole run (status `stopped`, the reason as `error`),
// not only the step it was about; the next prompt runs as usual.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { useKit } from "../../support/session-kit.ts";
import { bashCall, hookedSession, hooksOf, say, script } from "./hook-kit.ts";

const kit = useKit();
const halt = (reason: string) => `echo '{"continue":false,"stopReason":"${reason}"}'`;

test("a PostToolUse hook's continue:false ends the run after that call: no further model turn, no further call", async () => {
  const second = join(kit().dir.path, "second");
  const hook = script(kit(), `grep -q first && ${halt("the build is red")}; exit 0`);
  const { session } = hookedSession(kit(), hooksOf(["PostToolUse", "Bash", hook]));
  kit().fake.script(
    { reply: [{ type: "tool_use", name: "bash", input: { command: "echo first" }, id: "t1" }, { type: "tool_use", name: "bash", input: { command: `touch ${second}` }, id: "t2" }] },
  );

  const result = await session.prompt("go");

  expect(result).toMatchObject({ status: "stopped", error: "stopped by a PostToolUse hook: the build is red" });
  expect(kit().fake.requests).toHaveLength(1);
  expect(existsSync(second)).toBe(false);

  // The next prompt is a new run: the stop is not remembered, and the conversation is valid (the calls have results).
  kit().fake.script(say("back"));
  expect(await session.prompt("again")).toMatchObject({ status: "success", text: "back" });
});

test("a PreToolUse hook's continue:false blocks the call and ends the run", async () => {
  const marker = join(kit().dir.path, "ran");
  const hook = script(kit(), halt("deploys need a person"));
  const { session, log } = hookedSession(kit(), hooksOf(["PreToolUse", "Bash", hook]));
  kit().fake.script(bashCall("t1", `touch ${marker}`));

  const result = await session.prompt("deploy");

  expect(result).toMatchObject({ status: "stopped", error: "stopped by a PreToolUse hook: deploys need a person" });
  expect(existsSync(marker)).toBe(false);
  expect(kit().fake.requests).toHaveLength(1);
  expect(log.of("tool_end")[0]!.output).toContain("stopped the run at this call: deploys need a person");
});

test("a UserPromptSubmit or SessionStart hook's continue:false stops the run before anything is sent", async () => {
  for (const event of ["UserPromptSubmit", "SessionStart"] as const) {
    kit().fake.reset();
    const { session } = hookedSession(kit(), hooksOf([event, undefined, script(kit(), halt("not today"))]));
    const result = await session.prompt("hello");
    expect(result).toMatchObject({ status: "stopped", error: `stopped by a ${event} hook: not today` });
    expect(kit().fake.requests).toHaveLength(0);
  }
});

test("a Stop hook's continue:false ends the run as stopped, beating another Stop hook's block", async () => {
  const { session } = hookedSession(kit(), hooksOf(["Stop", undefined, script(kit(), halt("enough for today"))], ["Stop", undefined, script(kit(), `echo '{"decision":"block","reason":"keep going"}'`)]));
  kit().fake.script(say("done"));

  const result = await session.prompt("go");

  expect(result).toMatchObject({ status: "stopped", text: "done", error: "stopped by a Stop hook: enough for today" });
  expect(kit().fake.requests).toHaveLength(1);
});
