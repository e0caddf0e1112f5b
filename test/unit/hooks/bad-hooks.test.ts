// Hooks that misbehave decide nothing, lose nothing, and say what went wrong (hook_end's error).
import { expect, test } from "bun:test";
import { existsSync, readFileSync, watch } from "node:fs";
import { dirname, join } from "node:path";
import type { HooksConfig } from "../../../src/config/hooks-schema.ts";
import { sentResults, useKit } from "../../support/session-kit.ts";
import { bashCall, hookedSession, hooksOf, say, script } from "./hook-kit.ts";

const kit = useKit();
const resultText = (i: number) => String(sentResults(kit().fake.requests[i])[0]!.content);

/** Runs one bash call under the given hooks; returns the hook_end events and what the model read. */
async function oneCall(hooks: HooksConfig) {
  const { session, log } = hookedSession(kit(), hooks);
  kit().fake.script(bashCall("t1", "echo tool-ran"), say("ok"));
  const result = await session.prompt("go");
  return { result, ends: log.of("hook_end"), text: resultText(1) };
}

test("a hook that hangs times out, decides nothing, and the call runs", async () => {
  const { ends, text } = await oneCall(hooksOf(["PreToolUse", "bash", script(kit(), "sleep 30"), 0.3]));
  expect(ends[0]).toMatchObject({ decision: "error", error: "timed out after 0.3 s; it decided nothing" });
  expect(text).toContain("tool-ran");
});

test("a hook that ignores SIGTERM is killed with everything in its process group", async () => {
  const pidFile = join(kit().dir.path, "stubborn.pid");
  const { ends, text } = await oneCall(hooksOf(["PreToolUse", "bash", script(kit(), `trap "" TERM; echo $$ > ${pidFile}; sleep 30`), 0.2]));
  expect(ends[0]!.error).toContain("timed out");
  expect(text).toContain("tool-ran");
  expect(await gone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
});

test("a hook that prints 50 MB is read up to 10,000 characters and the run goes on", async () => {
  const { ends, text } = await oneCall(hooksOf(["PostToolUse", "bash", script(kit(), "head -c 50000000 /dev/zero | tr '\\0' a")]));
  expect(ends[0]).toMatchObject({ decision: "none" });
  expect(ends[0]!.output.length).toBeLessThanOrEqual(200);
  expect(text).toBe("tool-ran\n");
});

test("non-JSON stdout on a tool event is ignored", async () => {
  const { ends, text } = await oneCall(hooksOf(["PreToolUse", "bash", script(kit(), `echo '{not json'`)]));
  expect(ends[0]).toMatchObject({ decision: "none", output: "{not json" });
  expect(text).toContain("tool-ran");
});

test("JSON with a wrongly typed field is not used, and says which field", async () => {
  const { ends, text } = await oneCall(hooksOf(["PreToolUse", "bash", script(kit(), `echo '{"continue":"no","hookSpecificOutput":{"permissionDecision":"deny"}}'`)]));
  expect(ends[0]!.error).toContain('its JSON output was not used: "continue"');
  expect(text).toContain("tool-ran");
});

test("a missing script (exit 127) in a guard is a visible error that blocks: a guard never fails open", async () => {
  const { ends, text } = await oneCall(hooksOf(["PreToolUse", "bash", join(kit().dir.path, "no-such-hook.sh")]));
  expect(ends[0]!.error).toStartWith("command not found (exit 127)");
  expect(text).not.toContain("tool-ran");
  expect(text).toContain("the PreToolUse hook could not start (command not found (exit 127)");
});

test("a missing script (exit 127) in a hook that guards nothing is a visible error that does not block", async () => {
  const { ends, text } = await oneCall(hooksOf(["PostToolUse", "bash", join(kit().dir.path, "no-such-hook.sh")]));
  expect(ends[0]!.error).toStartWith("command not found (exit 127)");
  expect(text).toContain("tool-ran");
});

test("a hook that writes only to stderr and exits 1 is an error naming its first line", async () => {
  const { ends, text } = await oneCall(hooksOf(["PreToolUse", "bash", script(kit(), `echo "jq: not found" >&2; echo more >&2; exit 1`)]));
  expect(ends[0]!.error).toBe("exit 1: jq: not found");
  expect(text).toContain("tool-ran");
});

test("50 hooks on one call all run once, in parallel; one deny among them wins", async () => {
  const log = join(kit().dir.path, "fifty.log");
  const groups: [keyof HooksConfig, string, string][] = Array.from({ length: 50 }, (_, i) => ["PreToolUse", "bash", `echo ${i} >> ${log}`]);
  const deny = script(kit(), `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"one said no"}}'`);
  const { ends, text } = await oneCall(hooksOf(...groups, ["PreToolUse", "bash", deny]));
  expect(ends).toHaveLength(51);
  expect(readFileSync(log, "utf8").trim().split("\n").sort()).toEqual(Array.from({ length: 50 }, (_, i) => String(i)).sort());
  expect(text).toContain("one said no");
  expect(text).not.toContain("tool-ran");
});

test("an identical handler defined twice runs once", async () => {
  const log = join(kit().dir.path, "twice.log");
  const { ends } = await oneCall(hooksOf(["PreToolUse", "bash", `echo x >> ${log}`], ["PreToolUse", "bash", `echo x >> ${log}`]));
  expect(ends).toHaveLength(1);
  expect(readFileSync(log, "utf8")).toBe("x\n");
});

test("an interrupt while a hook runs stops the hook and the run; the tool does not run", async () => {
  const marker = join(kit().dir.path, "after-abort");
  const pidFile = join(kit().dir.path, "hook.pid");
  // exec form, and the shell execs sleep: the pid written is the process rein started and waits for
  const hooks = { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command" as const, command: "sh", args: ["-c", `echo $$ > ${pidFile}; exec sleep 30`] }] }] };
  const { session, log } = hookedSession(kit(), hooks);
  kit().fake.script(bashCall("t1", `touch ${marker}`));
  const running = session.prompt("go");
  await log.waitFor("hook_start");
  await waitForFile(pidFile);
  session.abort();
  const result = await running;
  expect(result.status).toBe("interrupted");
  expect(existsSync(marker)).toBe(false);
  expect(log.of("hook_end")[0]!.error).toBe("stopped: the run was interrupted");
  expect(await gone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
});

test("hook processes never get the provider keys", async () => {
  const seen = join(kit().dir.path, "env.txt");
  const saved = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = "sk-ant-must-not-leak";
  try {
    await oneCall(hooksOf(["PreToolUse", "bash", `env > ${seen}`]));
  } finally {
    if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = saved;
  }
  const env = readFileSync(seen, "utf8");
  expect(env).toContain(`REIN_PROJECT_DIR=${kit().dir.path}`);
  expect(env).not.toContain("sk-ant-must-not-leak");
});

/** Resolves once `path` exists (the script writes its pid as its first act). */
function waitForFile(path: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), () => {
      if (existsSync(path) && readFileSync(path, "utf8").trim()) (watcher.close(), resolve());
    });
    if (existsSync(path) && readFileSync(path, "utf8").trim()) (watcher.close(), resolve());
  });
}

/** Running, not a zombie (a killed script's process may wait on an init that does not reap it). */
/**
 * Whether the process is gone within two seconds: the group was sent SIGKILL, but on a loaded
 * machine a killed process can still be listed for a moment after it closed its pipes.
 */
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 2000 && alive(pid); waited += 10) await Bun.sleep(10);
  return !alive(pid);
}

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
