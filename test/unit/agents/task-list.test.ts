// Teams and their shared task list through real sessions on the fake model and a real store:
// team_create with members, task_create/task_update/task_list shared by the lead and a member, an
// owner told of its task, TaskCreated/TaskCompleted/TeammateIdle hooks (Claude Code's fields; exit 2
// rolls back, refuses, keeps working), team_delete refused while a member runs.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import type { AgentDefinition } from "../../../src/agents/types.ts";
import type { HooksConfig } from "../../../src/config/hooks-schema.ts";
import { Session } from "../../../src/session/session.ts";
import { withSubagents } from "../../../src/session/subagents.ts";
import { members, tasks, teamByName, teamOfLead } from "../../../src/session/task-list.ts";
import type { FakeStep } from "../../fake/types.ts";
import { hookedOptions } from "../hooks/hook-kit.ts";
import { useKit } from "../../support/session-kit.ts";

const kit = useKit();
const worker: AgentDefinition = { name: "worker", description: "does one part", prompt: "WORKER AGENT", rules: [], mode: "subagent", source: "built-in", project: false };
const isWorker = (body: { system?: unknown }) => JSON.stringify(body.system ?? "").includes("WORKER AGENT");
const call = (name: string, input: unknown, id?: string): FakeStep => ({ reply: [{ type: "tool_use", name, input, ...(id ? { id } : {}) }] });
const say = (text: string): FakeStep => ({ reply: [{ type: "text", text }] });
const results = (body: any): string[] => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === "tool_result").map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text).join("")));
const lastResult = (body: any) => results(body).at(-1) ?? "";

function lead(hooks: HooksConfig = {}) {
  const { options } = hookedOptions(kit(), hooks, { tools: [] });
  const session = Session.create(kit().dir.path, withSubagents(options, { agents: [...builtinAgents(kit().dir.path), worker] }));
  return session;
}

test("the lead makes a team with a member; both share one task list; the owner is told of its task; the list is stored", async () => {
  const session = lead();
  session.waitsForWorkers = true;
  const seen: string[] = [];
  const step = (respond: (body: any) => FakeStep): FakeStep => ({ respond });
  kit().fake.script(
    call("task_create", { subject: "write the parser", description: "parse the config file" }),
    call("task_create", { subject: "test the parser" }),
    call("task_update", { task_id: "2", add_blocked_by: ["1"] }),
    call("team_create", { name: "parsers", members: [{ name: "ana", prompt: "wait for a task", subagent_type: "worker" }] }),
    // from here the lead and ana ask in turn; each step routes by whose request it is
    ...Array.from({ length: 8 }, () =>
      step((body) => {
        seen.push(`${isWorker(body) ? "ana" : "lead"}: ${lastResult(body).split("\n")[0]}`);
        if (isWorker(body)) {
          const sent = JSON.stringify(body.messages);
          if (sent.includes("Task #1 was assigned to you") && !sent.includes("Updated task #1 status")) return call("task_update", { task_id: "1", status: "completed" });
          if (lastResult(body).startsWith("Updated task #1 status")) return call("task_list", {});
          return say(lastResult(body).includes("#1 [completed]") ? "done with #1; #2 is free" : "waiting");
        }
        const sent = JSON.stringify(body.messages);
        if (!sent.includes("Updated task #1 owner")) return call("task_update", { task_id: "1", owner: "ana" });
        if (sent.includes("<task-notification>") && sent.split("<task-notification>").length > 2) return say("all done");
        return say("ana has it");
      }),
    ),
  );

  const result = await session.prompt("plan and hand out the parser work");

  expect(result.status).toBe("success");
  const team = teamByName(kit().store.db, "parsers")!;
  expect(team.lead_id).toBe(session.id);
  const [child] = kit().store.childSessions(session.id);
  expect(members(kit().store.db, team)).toEqual([expect.objectContaining({ name: "ana", session_id: child!.id, agent: "worker" })]);
  const stored = tasks(kit().store.db, team);
  expect(stored.map((t) => [t.id, t.subject, t.status, t.owner ?? null, t.blockedBy])).toEqual([
    ["1", "write the parser", "completed", "ana", []],
    ["2", "test the parser", "pending", null, ["1"]],
  ]);
  expect(stored[0]!.blocks).toEqual(["2"]);
  // the member's task_list shows the shared list: #2 no longer blocked once #1 is completed
  const listed = kit().fake.requests.map((r) => r.body).filter(isWorker).map(lastResult).find((t) => t.startsWith('Team "parsers":'));
  expect(listed).toBe("Team \"parsers\":\n#1 [completed] write the parser (ana)\n    parse the config file\n#2 [pending] test the parser");
  expect(seen).toContain("ana: Updated task #1 status");
  // How many turns the lead takes depends on when the two notifications reach it: the rest of the script is dropped.
  kit().fake.reset();
});

test("TaskCreated and TaskCompleted hooks get Claude Code's fields; exit 2 takes the task back or refuses its completion", async () => {
  const dir = kit().dir.path;
  const created = join(dir, "created.jsonl");
  const completed = join(dir, "completed.jsonl");
  const hooks: HooksConfig = {
    TaskCreated: [{ hooks: [{ type: "command", command: `p=$(cat); echo "$p" >> ${created}; case "$p" in *secret*) echo 'no secret tasks' >&2; exit 2;; esac` }] }],
    TaskCompleted: [{ hooks: [{ type: "command", command: `p=$(cat); echo "$p" >> ${completed}; [ -f ${dir}/tests-pass ] || { echo 'the tests do not pass yet' >&2; exit 2; }` }] }],
  };
  const session = lead(hooks);
  kit().fake.script(
    call("task_create", { subject: "fix the bug", description: "the off-by-one" }),
    call("task_create", { subject: "leak the secret" }),
    call("task_update", { task_id: "1", status: "completed" }),
    call("task_list", {}),
    say("blocked by the hook"),
  );

  await session.prompt("track it");

  const bodies = kit().fake.requests.map((r) => r.body);
  expect(lastResult(bodies[1])).toBe("Task #1 created: fix the bug");
  expect(lastResult(bodies[2])).toBe("A TaskCreated hook configured by the user refused the task, so it was not created: no secret tasks");
  expect(lastResult(bodies[3])).toBe("A TaskCompleted hook configured by the user refused to mark task #1 completed: the tests do not pass yet");
  expect(lastResult(bodies[4])).toBe("#1 [pending] fix the bug\n    the off-by-one");
  const payloads = readFileSync(created, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(payloads[0]).toMatchObject({ hook_event_name: "TaskCreated", session_id: session.id, task_id: "1", task_subject: "fix the bug", task_description: "the off-by-one", team_name: session.id });
  expect(payloads[0].teammate_name).toBeUndefined();
  expect(JSON.parse(readFileSync(completed, "utf8"))).toMatchObject({ hook_event_name: "TaskCompleted", task_id: "1", task_subject: "fix the bug" });
  // the refused task is gone; the implicit team keeps the other
  expect(tasks(kit().store.db, teamOfLead(kit().store.db, session.id)!).map((t) => t.subject)).toEqual(["fix the bug"]);
});

test("a member going idle fires TeammateIdle with its name and team; exit 2 keeps it working with the hook's reason; team_delete waits for it", async () => {
  const dir = kit().dir.path;
  const idle = join(dir, "idle.jsonl");
  const hooks: HooksConfig = {
    TeammateIdle: [{ hooks: [{ type: "command", command: `p=$(cat); echo "$p" >> ${idle}; [ $(wc -l < ${idle}) -ge 2 ] || { echo 'run the tests before you stop' >&2; exit 2; }` }] }],
  };
  const session = lead(hooks);
  session.waitsForWorkers = true;
  let leadTurns = 0;
  kit().fake.script(
    call("team_create", { name: "crew", members: [{ name: "bo", prompt: "do it", subagent_type: "worker" }] }),
    ...Array.from({ length: 5 }, () => ({
      respond: (body: any): FakeStep => {
        if (isWorker(body)) return say(JSON.stringify(body.messages).includes("run the tests before you stop") ? "tests run" : "did it");
        leadTurns++;
        if (leadTurns === 1) return call("team_delete", {});
        return say(JSON.stringify(body.messages).includes("<task-notification>") ? "bo is done" : "waiting for bo");
      },
    })),
  );

  const result = await session.prompt("run a crew");

  expect(result.status).toBe("success");
  const payloads = readFileSync(idle, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(payloads).toHaveLength(2);
  expect(payloads[0]).toMatchObject({ hook_event_name: "TeammateIdle", teammate_name: "bo", team_name: "crew", session_id: session.id });
  const workerBodies = kit().fake.requests.map((r) => r.body).filter(isWorker);
  expect(JSON.stringify(workerBodies.at(-1).messages)).toContain("A TeammateIdle hook configured by the user keeps you working: run the tests before you stop");
  const deleted = kit().fake.requests.map((r) => r.body).filter((b) => !isWorker(b)).map(lastResult).find((t) => t.includes("still has running members"));
  expect(deleted).toBe('team "crew" still has running members: bo. Stop them with task_stop (or wait for their notifications), then call team_delete again.');
  expect(teamByName(kit().store.db, "crew")).toBeDefined();
});
