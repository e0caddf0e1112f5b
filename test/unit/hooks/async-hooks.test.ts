// `async: true` command hooks run in the background: the call and the run never wait for them,
// they decide nothing, and what they say reaches the model beside the next tool result or prompt.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { HooksConfig } from "../../../src/config/hooks-schema.ts";
import { defineTool } from "../../../src/sdk.ts";
import { sentMessages, sentResults, useKit } from "../../support/session-kit.ts";
import { bashCall, hookedSession, say, script, TOOLS } from "./hook-kit.ts";

const kit = useKit();
const background = (event: keyof HooksConfig, matcher: string, command: string): HooksConfig => ({ [event]: [{ matcher, hooks: [{ type: "command", command, async: true }] }] });
const lint = `echo '{"hookSpecificOutput":{"additionalContext":"lint: 3 warnings"}}'`;

test("the run does not wait for an async hook; what it says comes beside the next prompt", async () => {
  const fifo = join(kit().dir.path, "release");
  Bun.spawnSync(["mkfifo", fifo]);
  const { session, log } = hookedSession(kit(), background("PostToolUse", "Bash", `read line < ${fifo}; ${lint}`));
  kit().fake.script(bashCall("t1", "echo hi"), say("done"));

  const result = await session.prompt("go");

  // The hook is still waiting on its pipe: the run ended without it.
  expect(result).toMatchObject({ status: "success", text: "done" });
  expect(log.of("hook_start")).toEqual([expect.objectContaining({ event: "PostToolUse", async: true })]);
  expect(log.of("hook_end")).toEqual([]);
  expect(String(sentResults(kit().fake.requests[1])[0]!.content)).not.toContain("lint");

  Bun.spawnSync(["sh", "-c", `echo go > ${fifo}`]);
  expect(await log.waitFor("hook_end")).toMatchObject({ async: true, decision: "context" });
  kit().fake.script(say("noted"));
  await session.prompt("next");
  expect(JSON.stringify(sentMessages(kit().fake.requests[2]).at(-1))).toContain('<hook-context event=\\"PostToolUse\\">\\nlint: 3 warnings');
});

test("an async PreToolUse hook cannot block: the call runs even when it exits 2", async () => {
  const marker = join(kit().dir.path, "ran");
  const { session, log } = hookedSession(kit(), background("PreToolUse", "Bash", `echo "no" >&2; exit 2`));
  kit().fake.script(bashCall("t1", `touch ${marker}`), say("ok"));

  await session.prompt("go");

  expect(existsSync(marker)).toBe(true);
  expect(await log.waitFor("hook_end")).toMatchObject({ event: "PreToolUse", async: true, decision: "none" });
});

test("what an async hook said while a later call ran comes beside that call's result", async () => {
  let log: ReturnType<typeof hookedSession>["log"] | undefined;
  // The second call ends only once the first call's background hook has ended, and the event loop has turned.
  const waits = defineTool({
    name: "waits",
    description: "Waits for the hook.",
    input: v.object({}),
    run: async () => {
      await log!.waitFor("hook_end");
      await new Promise((resolve) => setImmediate(resolve));
      return "waited";
    },
  });
  const hooked = hookedSession(kit(), background("PostToolUse", "Bash", lint), { tools: [...TOOLS, waits] });
  log = hooked.log;
  kit().fake.script(bashCall("t1", "echo hi"), { reply: [{ type: "tool_use", name: "waits", input: {}, id: "t2" }] }, say("ok"));

  await hooked.session.prompt("go");

  expect(String(sentResults(kit().fake.requests[1])[0]!.content)).not.toContain("lint");
  expect(String(sentResults(kit().fake.requests[2])[0]!.content)).toContain('<hook-context event="PostToolUse">\nlint: 3 warnings');
});
