// SubagentStart and SubagentStop, fired by a task call's child session: matched on the agent type,
// with Claude Code's payload (agent_id, agent_type, the parent's session_id, the child's transcript);
// a SubagentStop block keeps the child going as a Stop block keeps a session going.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import type { HooksConfig } from "../../../src/config/hooks-schema.ts";
import { Session } from "../../../src/session/session.ts";
import { withSubagents } from "../../../src/session/subagents.ts";
import { sentMessages, sentResults, useKit } from "../../support/session-kit.ts";
import { hookedOptions, say } from "./hook-kit.ts";

const kit = useKit();
const task = { reply: [{ type: "tool_use" as const, name: "task", input: { description: "look", prompt: "find the config", subagent_type: "explore" }, id: "toolu_task" }] };
const command = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command" as const, command }] }];

test("a task's child fires SubagentStart and SubagentStop (not SessionStart, UserPromptSubmit or Stop); a SubagentStop block keeps the child going", async () => {
  const dir = kit().dir.path;
  const [start, stops, parentLog] = [join(dir, "start.json"), join(dir, "stops.jsonl"), join(dir, "parent.log")];
  const hooks: HooksConfig = {
    SubagentStart: command(`cat > ${start}; echo '{"hookSpecificOutput":{"additionalContext":"the config lives under src/config"}}'`, "explore"),
    SubagentStop: command(`p=$(cat); echo "$p" >> ${stops}; case "$p" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"check the tests too"}';; esac`, "explore"),
    SessionStart: command(`printf 'start ' >> ${parentLog}`),
    UserPromptSubmit: command(`printf 'prompt ' >> ${parentLog}`),
    Stop: command(`printf 'stop ' >> ${parentLog}`),
  };
  const { options } = hookedOptions(kit(), hooks, { tools: [] });
  const session = Session.create(dir, withSubagents(options, { agents: builtinAgents(dir) }));
  kit().fake.script(task, say("In src/config/load.ts."), say("In src/config/load.ts; the tests are in test/config."), say("Found it."));

  const result = await session.prompt("where is the config read?");

  expect(result).toMatchObject({ status: "success", text: "Found it." });
  const [child] = kit().store.childSessions(session.id);
  expect(JSON.parse(readFileSync(start, "utf8"))).toMatchObject({ hook_event_name: "SubagentStart", session_id: session.id, agent_id: child!.id, agent_type: "explore" });
  // SubagentStart's context goes to the child, beside its prompt
  expect(JSON.stringify(sentMessages(kit().fake.requests[1])[0])).toContain("the config lives under src/config");
  const stopped = readFileSync(stops, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  expect(stopped.map((p) => [p.hook_event_name, p.agent_type, p.stop_hook_active])).toEqual([["SubagentStop", "explore", false], ["SubagentStop", "explore", true]]);
  expect(stopped[0]).toMatchObject({ agent_id: child!.id, last_assistant_message: "In src/config/load.ts." });
  expect(existsSync(stopped[0].agent_transcript_path)).toBe(true);
  expect(JSON.stringify(sentMessages(kit().fake.requests[2]).at(-1))).toContain("A SubagentStop hook configured by the user kept the run going: check the tests too");
  // the parent's own hooks fired once each, for the parent's prompt only
  expect(readFileSync(parentLog, "utf8")).toBe("start prompt stop ");
});

test("a SubagentStop matcher names the agent type: another agent's stop does not fire it", async () => {
  const dir = kit().dir.path;
  const fired = join(dir, "general-only.log");
  const { options } = hookedOptions(kit(), { SubagentStop: command(`printf 'fired ' >> ${fired}`, "general") }, { tools: [] });
  const session = Session.create(dir, withSubagents(options, { agents: builtinAgents(dir) }));
  kit().fake.script(task, say("In load.ts."), say("Found it."));

  await session.prompt("where?");

  expect(existsSync(fired)).toBe(false);
});

test("an agent hook runs the explore agent (read-only tools, no hooks of its own) on its prompt; ok:false blocks the call", async () => {
  const dir = kit().dir.path;
  const marker = join(dir, "deployed");
  const hooks: HooksConfig = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "agent", prompt: "Allow this only when the tests pass: $ARGUMENTS" }] }] };
  const { options } = hookedOptions(kit(), hooks);
  const session = Session.create(dir, withSubagents(options, { agents: builtinAgents(dir) }));
  kit().fake.script(
    { reply: [{ type: "tool_use", name: "bash", input: { command: `touch ${marker}` }, id: "t1" }] },
    { reply: [{ type: "tool_use", name: "bash", input: { command: "echo looked" }, id: "c1" }] },
    say('The tests fail. {"ok": false, "reason": "the tests fail: fix them first"}'),
    say("I will fix the tests."),
  );

  const result = await session.prompt("deploy");

  expect(result).toMatchObject({ status: "success", text: "I will fix the tests." });
  expect(existsSync(marker)).toBe(false);
  const asked = kit().fake.requests[1]!.body;
  expect(asked.tools.map((t: { name: string }) => t.name)).toEqual(["bash"]); // explore's tools of the session's (bash, write)
  expect(JSON.stringify(asked.messages[0])).toContain("Allow this only when the tests pass: {");
  expect(JSON.stringify(asked.messages[0])).toContain(`touch ${marker}`);
  expect(String(sentResults(kit().fake.requests[2])[0]!.content)).toContain("looked");
  const [child] = kit().store.childSessions(session.id);
  expect(child).toMatchObject({ agent: "explore" });
  const end = kit().store.events(session.id).find((e) => e.type === "hook_end");
  expect(end).toMatchObject({ event: "PreToolUse", handler: "agent: Allow this only when the tests pass: $ARGUMENTS", decision: "deny" });
  expect(child!.parent_tool_use_id).toBe((end as { id: string }).id);
  expect(String(sentResults(kit().fake.requests[3])[0]!.content)).toContain("blocked this call: the tests fail: fix them first");
});
