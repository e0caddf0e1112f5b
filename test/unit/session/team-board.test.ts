// The team tools' answers over a real store: who may make and delete a team, the task list's
// numbering, owners, blockers and statuses, the TaskCreated/TaskCompleted hooks' say, and the
// message a task's new owner gets. The hooks and the workers are the context's functions.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { TeamHookAnswer, TeamHookEvent } from "../../../src/hooks/points.ts";
import { taskCreate, taskList, taskUpdate, teamCreate, teamDelete, type BoardContext } from "../../../src/session/team-board.ts";
import { addMember, members, tasks, teamOfLead } from "../../../src/session/task-list.ts";
import { Store } from "../../../src/session/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let store: Store;
beforeEach(() => {
  dir = tempDir("rein-board-");
  store = Store.open(join(dir.path, "rein.db")).store;
});
afterEach(() => {
  store.close();
  dir.remove();
});

type Heard = { event: TeamHookEvent; fields: Record<string, unknown> };
const signal = new AbortController().signal;

function board(over: Partial<BoardContext> & { answer?: (event: TeamHookEvent) => TeamHookAnswer | undefined } = {}) {
  const heard: Heard[] = [];
  const told: { to: string; text: string }[] = [];
  const workers: ReturnType<BoardContext["workers"]> = [];
  const ctx: BoardContext = {
    db: store.db,
    callerId: "s_lead",
    leadId: "s_lead",
    hook: async (event, fields) => {
      heard.push({ event, fields });
      return over.answer?.(event);
    },
    workers: () => workers,
    tell: (to, text) => (told.push({ to, text }), true),
    now: () => 1_000,
    ...over,
  };
  return { ctx, heard, told, workers, as: (callerId: string): BoardContext => ({ ...ctx, callerId }) };
}

test("team_create names the lead's team and takes its workers in as members; a member cannot make one", () => {
  const b = board();
  b.workers.push({ name: "ana", id: "s_ana", agent: "worker", going: true });
  const made = teamCreate(b.ctx, { name: "parsers", description: "the parser work" });
  expect(made.ok).toBe(true);
  expect(made.text).toStartWith('Team "parsers" made; you lead it. Members: ana. Every background worker');
  const team = teamOfLead(store.db, "s_lead")!;
  expect(team).toMatchObject({ name: "parsers", description: "the parser work" });
  expect(members(store.db, team).map((m) => [m.name, m.session_id, m.agent])).toEqual([["ana", "s_ana", "worker"]]);
  expect(teamCreate(b.as("s_ana"), { name: "mine" })).toEqual({ ok: false, text: "only the lead makes a team; you are a member of your lead's team already (task_list shows its tasks)" });
});

test("team_create refuses a bad name, a name another lead has, and a second team for the same lead", () => {
  const b = board();
  expect(teamCreate(b.ctx, { name: "has space" }).text).toContain('the team name "has space" is not usable');
  expect(teamCreate(board({ leadId: "s_other", callerId: "s_other" }).ctx, { name: "taken" }).ok).toBe(true);
  expect(teamCreate(b.ctx, { name: "taken" }).text).toBe('a team named "taken" already exists (led by session s_other); choose another name');
  expect(teamCreate(b.ctx, { name: "first" }).ok).toBe(true);
  expect(teamCreate(b.ctx, { name: "second" }).text).toBe('this session already leads the team "first"; team_delete it first, or keep using it');
});

test("tasks made before team_create stay on the list under the team's new name", async () => {
  const b = board();
  await taskCreate(b.ctx, { subject: "early task" }, signal);
  expect(taskList(b.ctx).text).toBe("#1 [pending] early task");
  teamCreate(b.ctx, { name: "late" });
  expect(taskList(b.ctx).text).toBe('Team "late":\n#1 [pending] early task');
});

test("task_create numbers tasks from 1, fires TaskCreated with Claude Code's fields; a blank subject is refused", async () => {
  const b = board();
  teamCreate(b.ctx, { name: "t" });
  expect(await taskCreate(b.ctx, { subject: "  parse  ", description: "parse the file" }, signal)).toEqual({ ok: true, text: "Task #1 created: parse" });
  expect(await taskCreate(b.ctx, { subject: "test" }, signal)).toEqual({ ok: true, text: "Task #2 created: test" });
  expect(b.heard[0]).toEqual({ event: "TaskCreated", fields: { task_id: "1", task_subject: "parse", task_description: "parse the file", team_name: "t" } });
  // the description defaults to the subject
  expect(b.heard[1]!.fields.task_description).toBe("test");
  expect(await taskCreate(b.ctx, { subject: "   " }, signal)).toEqual({ ok: false, text: "the subject is blank: call task_create again with a short title in `subject`" });
  expect(tasks(store.db, teamOfLead(store.db, "s_lead")!)).toHaveLength(2);
});

test("a TaskCreated hook that blocks takes the task back; its number is used again", async () => {
  let refuse = true;
  const b = board({ answer: (event) => (event === "TaskCreated" && refuse ? { block: "tasks need a ticket number", errors: [] } : undefined) });
  expect(await taskCreate(b.ctx, { subject: "no ticket" }, signal)).toEqual({ ok: false, text: "A TaskCreated hook configured by the user refused the task, so it was not created: tasks need a ticket number" });
  expect(taskList(b.ctx).text).toBe("No tasks found");
  refuse = false;
  expect((await taskCreate(b.ctx, { subject: "JIRA-1 fix" }, signal)).text).toBe("Task #1 created: JIRA-1 fix");
});

test("a member's task_create names it as the creator, and the hook gets its teammate name", async () => {
  const b = board();
  teamCreate(b.ctx, { name: "crew" });
  addMember(store.db, teamOfLead(store.db, "s_lead")!, { name: "bo", sessionId: "s_bo", agent: "worker" });
  await taskCreate(b.as("s_bo"), { subject: "from bo" }, signal);
  expect(b.heard.at(-1)!.fields).toMatchObject({ teammate_name: "bo", team_name: "crew" });
  expect(tasks(store.db, teamOfLead(store.db, "s_lead")!)[0]!.createdBy).toBe("bo");
});

test("task_update: an unknown task, a #-prefixed id, a change that changes nothing, and deletion", async () => {
  const b = board();
  await taskCreate(b.ctx, { subject: "one" }, signal);
  expect(await taskUpdate(b.ctx, { task_id: "9", status: "completed" }, signal)).toEqual({ ok: false, text: "Task #9 not found; task_list shows the tasks there are" });
  expect(await taskUpdate(b.ctx, { task_id: "#1", subject: "one" }, signal)).toEqual({ ok: true, text: "Task #1 unchanged (it already says that)" });
  expect(await taskUpdate(b.ctx, { task_id: "#1", subject: "renamed", active_form: "Renaming" }, signal)).toEqual({ ok: true, text: "Updated task #1 subject, activeForm" });
  expect(await taskUpdate(b.ctx, { task_id: "1", status: "deleted" }, signal)).toEqual({ ok: true, text: "Updated task #1 deleted" });
  expect(taskList(b.ctx).text).toBe("No tasks found");
  // with no team at all
  expect((await taskUpdate(board({ leadId: "s_new", callerId: "s_new" }).ctx, { task_id: "1" }, signal)).ok).toBe(false);
});

test("assigning an owner tells the owner (not when the owner assigns itself); a member starting an unowned task takes it", async () => {
  const b = board();
  teamCreate(b.ctx, { name: "crew" });
  addMember(store.db, teamOfLead(store.db, "s_lead")!, { name: "ana", sessionId: "s_ana", agent: "worker" });
  await taskCreate(b.ctx, { subject: "parse", description: "parse the config\nall of it" }, signal);
  await taskCreate(b.ctx, { subject: "lint" }, signal);
  expect((await taskUpdate(b.ctx, { task_id: "1", owner: "ana" }, signal)).text).toBe("Updated task #1 owner");
  expect(b.told).toEqual([{ to: "ana", text: "Task #1 was assigned to you by lead: parse\nparse the config\nall of it\nMark it in_progress with task_update when you start, completed when it is done." }]);
  expect((await taskUpdate(b.as("s_ana"), { task_id: "2", status: "in_progress" }, signal)).text).toBe("Updated task #2 owner, status");
  expect(b.told).toHaveLength(1);
  expect(taskList(b.ctx).text).toBe('Team "crew":\n#1 [pending] parse (ana)\n    parse the config\n    all of it\n#2 [in_progress] lint (ana)');
  // the lead starting a task takes no ownership
  await taskCreate(b.ctx, { subject: "docs" }, signal);
  expect((await taskUpdate(b.ctx, { task_id: "3", status: "in_progress" }, signal)).text).toBe("Updated task #3 status");
});

test("blockers: linked both ways once, shown while open, gone when completed or deleted; a task never blocks itself", async () => {
  const b = board();
  for (const subject of ["design", "build", "ship"]) await taskCreate(b.ctx, { subject }, signal);
  expect((await taskUpdate(b.ctx, { task_id: "2", add_blocked_by: ["1", "#2", "99"] }, signal)).text).toBe("Updated task #2 blockedBy");
  expect((await taskUpdate(b.ctx, { task_id: "2", add_blocks: ["3"] }, signal)).text).toBe("Updated task #2 blocks");
  expect((await taskUpdate(b.ctx, { task_id: "2", add_blocked_by: ["1"] }, signal)).text).toBe("Task #2 unchanged (it already says that)");
  const all = tasks(store.db, teamOfLead(store.db, "s_lead")!);
  expect(all.map((t) => [t.id, t.blocks, t.blockedBy])).toEqual([
    ["1", ["2"], []],
    ["2", ["3"], ["1"]],
    ["3", [], ["2"]],
  ]);
  expect(taskList(b.ctx).text).toBe("#1 [pending] design\n#2 [pending] build [blocked by #1]\n#3 [pending] ship [blocked by #2]");
  const done = await taskUpdate(b.ctx, { task_id: "1", status: "completed" }, signal);
  expect(done.text).toBe("Updated task #1 status\nTask completed. Call task_list to find your next task or see what it unblocked.");
  expect(taskList(b.ctx).text).toBe("#1 [completed] design\n#2 [pending] build\n#3 [pending] ship [blocked by #2]");
  await taskUpdate(b.ctx, { task_id: "2", status: "deleted" }, signal);
  expect(taskList(b.ctx).text).toBe("#1 [completed] design\n#3 [pending] ship");
});

test("a TaskCompleted hook that blocks refuses the completion and the task keeps its status", async () => {
  const b = board({ answer: (event) => (event === "TaskCompleted" ? { block: "the tests fail", errors: [] } : undefined) });
  await taskCreate(b.ctx, { subject: "fix" }, signal);
  await taskUpdate(b.ctx, { task_id: "1", status: "in_progress" }, signal);
  expect(await taskUpdate(b.ctx, { task_id: "1", status: "completed" }, signal)).toEqual({ ok: false, text: "A TaskCompleted hook configured by the user refused to mark task #1 completed: the tests fail" });
  expect(taskList(b.ctx).text).toBe("#1 [in_progress] fix");
  expect(b.heard.map((h) => h.event)).toEqual(["TaskCreated", "TaskCompleted"]);
});

test("team_delete: only the lead, only a team there is, never while a member runs; then the team and its tasks go", async () => {
  const b = board();
  expect(teamDelete(b.ctx)).toEqual({ ok: false, text: "this session leads no team; nothing to delete" });
  b.workers.push({ name: "ana", id: "s_ana", agent: "worker", going: true });
  teamCreate(b.ctx, { name: "crew" });
  await taskCreate(b.ctx, { subject: "a" }, signal);
  await taskCreate(b.ctx, { subject: "b" }, signal);
  expect(teamDelete(b.as("s_ana"))).toEqual({ ok: false, text: "only the lead deletes its team" });
  expect(teamDelete(b.ctx).text).toBe('team "crew" still has running members: ana. Stop them with task_stop (or wait for their notifications), then call team_delete again.');
  b.workers[0]!.going = false;
  expect(teamDelete(b.ctx)).toEqual({ ok: true, text: 'Team "crew" deleted with its task list (2 tasks).' });
  expect(teamOfLead(store.db, "s_lead")).toBeUndefined();
  expect(taskList(b.ctx).text).toBe("No tasks found");
});
