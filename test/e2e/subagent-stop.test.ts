// `continue: false` from a hook inside a subagent stops the whole run, as docs/hooks.md says: the
// parent starts no further model turn and ends `stopped` (exit 5), not success.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bash, parseEvents, text, world } from "./harness.ts";

test.concurrent("a PreToolUse hook's continue:false in a child: the child stops, and so does the parent (exit 5)", async () => {
  await using w = await world();
  const stop = `echo '{"continue": false, "stopReason": "enough for today"}'`;
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: stop }] }] } }));
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_task", input: { description: "list", prompt: "list files", subagent_type: "general" } }] },
    { reply: [bash("ls")] },
    { reply: [text("the parent must not get another turn")] },
  );

  const r = await w.run(["-p", "delegate", "--allow", "bash", "--output-format", "stream-json"]);

  const events = parseEvents(r.stdout);
  const child = events.find((e) => e.type === "result" && e.parent_tool_use_id === "toolu_task");
  expect(child).toMatchObject({ status: "stopped" });
  expect(events.at(-1)).toMatchObject({ type: "result", status: "stopped" });
  expect(String(events.at(-1)!.error)).toContain("enough for today");
  expect(r.code).toBe(5);
  expect(w.fake.requests).toHaveLength(2);
}, 60_000);

test.concurrent("the same from Claude Code's files: the child and the parent end as Claude Code ends a stopped run (success, hook_stop), no further turn", async () => {
  await using w = await world();
  const stop = `echo '{"continue": false, "stopReason": "enough for today"}'`;
  await mkdir(join(w.home, ".claude"), { recursive: true });
  await writeFile(join(w.home, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: stop }] }] } }));
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_task", input: { description: "list", prompt: "list files", subagent_type: "general" } }] },
    { reply: [bash("ls")] },
    { reply: [text("the parent must not get another turn")] },
  );

  const r = await w.run(["-p", "delegate", "--allow", "bash", "--output-format", "stream-json"]);

  const events = parseEvents(r.stdout);
  const child = events.find((e) => e.type === "result" && e.parent_tool_use_id === "toolu_task");
  expect(child).toMatchObject({ status: "success", hook_stop: { event: "PreToolUse", reason: "enough for today" } });
  expect(events.at(-1)).toMatchObject({ type: "result", status: "success", hook_stop: { event: "PreToolUse", reason: "enough for today" } });
  expect(r.code).toBe(0);
  expect(w.fake.requests).toHaveLength(2);
}, 60_000);
