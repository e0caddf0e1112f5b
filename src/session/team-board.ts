// What team_create, team_delete, task_create, task_update and task_list do (agents/team-tools.ts
// gives the model those tools): the team and its task list in the store (task-list.ts), the
// TaskCreated and TaskCompleted hooks with Claude Code's fields, and a message to a task's new
// owner. Each answer is one text the model reads, an error when nothing was done.
import type { Database } from "bun:sqlite";
import type { TeamHookAnswer, TeamHookEvent } from "../hooks/points.ts";
import {
  addMember,
  addTask,
  createTeam,
  deleteTeam,
  ensureTeam,
  getTask,
  implicitName,
  link,
  membership,
  openBlockers,
  removeTask,
  saveTask,
  tasks,
  teamOfLead,
  type TaskStatus,
  type TeamRow,
  type TeamTask,
} from "./task-list.ts";

export type Answer = { ok: boolean; text: string };

export type BoardContext = {
  db: Database;
  /** the session calling the tool (the lead or a member) */
  callerId: string;
  /** the lead of the caller's team: the caller itself, or the session that started it (and its parent's) */
  leadId: string;
  /** fires a team hook in the caller's session (none configured: undefined) */
  hook: (event: TeamHookEvent, fields: Record<string, unknown>, signal: AbortSignal) => Promise<TeamHookAnswer | undefined>;
  /** the lead's workers in this process: their names (or ids), session ids, agents, whether still going */
  workers: () => { name: string; id: string; agent: string; going: boolean }[];
  /** tells a worker (by name) that a task was assigned to it; false when no such worker */
  tell: (to: string, text: string) => boolean;
  now?: () => number;
};

export type TaskCreateInput = { subject: string; description?: string; active_form?: string };
export type TaskUpdateInput = {
  task_id: string;
  status?: TaskStatus | "deleted";
  owner?: string;
  subject?: string;
  description?: string;
  active_form?: string;
  add_blocks?: string[];
  add_blocked_by?: string[];
};

/** team_create: the lead's team, named; the lead's workers (running or not) are its first members. */
export function teamCreate(ctx: BoardContext, input: { name: string; description?: string }): Answer {
  if (ctx.callerId !== ctx.leadId) return { ok: false, text: "only the lead makes a team; you are a member of your lead's team already (task_list shows its tasks)" };
  const made = createTeam(ctx.db, ctx.leadId, input.name, input.description ?? "", now(ctx));
  if (typeof made === "string") return { ok: false, text: made };
  for (const w of ctx.workers()) addMember(ctx.db, made, { name: w.name, sessionId: w.id, agent: w.agent }, now(ctx));
  const joined = ctx.workers().map((w) => w.name);
  return {
    ok: true,
    text: `Team "${made.name}" made; you lead it.${joined.length ? ` Members: ${joined.join(", ")}.` : ""} Every background worker you start (task with run_in_background: true and a name) joins it and shares its task list: task_create, task_update (status, owner), task_list.`,
  };
}

/** team_delete: the team and its task list go; refused while a member still runs. */
export function teamDelete(ctx: BoardContext): Answer {
  if (ctx.callerId !== ctx.leadId) return { ok: false, text: "only the lead deletes its team" };
  const team = teamOfLead(ctx.db, ctx.leadId);
  if (!team) return { ok: false, text: "this session leads no team; nothing to delete" };
  const going = ctx.workers().filter((w) => w.going);
  if (going.length) return { ok: false, text: `team "${team.name}" still has running members: ${going.map((w) => w.name).join(", ")}. Stop them with task_stop (or wait for their notifications), then call team_delete again.` };
  const count = tasks(ctx.db, team).length;
  deleteTeam(ctx.db, team);
  return { ok: true, text: `Team "${team.name}" deleted with its task list (${count} task${count === 1 ? "" : "s"}).` };
}

/** task_create: a pending task; a TaskCreated hook that blocks takes it back. */
export async function taskCreate(ctx: BoardContext, input: TaskCreateInput, signal: AbortSignal): Promise<Answer> {
  const subject = input.subject.trim();
  if (!subject) return { ok: false, text: "the subject is blank: call task_create again with a short title in `subject`" };
  const team = ensureTeam(ctx.db, ctx.leadId, now(ctx));
  for (const w of ctx.workers()) addMember(ctx.db, team, { name: w.name, sessionId: w.id, agent: w.agent }, now(ctx));
  const description = input.description ?? subject;
  const task = addTask(ctx.db, team, { subject, description, ...(input.active_form ? { activeForm: input.active_form } : {}), createdBy: callerName(ctx) }, now(ctx));
  const heard = await ctx.hook("TaskCreated", hookFields(ctx, team, task), signal);
  if (heard?.block || heard?.stop) {
    removeTask(ctx.db, team, task.id);
    return { ok: false, text: `A TaskCreated hook configured by the user refused the task, so it was not created: ${heard.block ?? heard.stop}` };
  }
  return { ok: true, text: `Task #${task.id} created: ${task.subject}` };
}

/** task_update: changes a task; completing it runs the TaskCompleted hooks, which may refuse it. */
export async function taskUpdate(ctx: BoardContext, input: TaskUpdateInput, signal: AbortSignal): Promise<Answer> {
  const team = teamOfLead(ctx.db, ctx.leadId);
  const task = team && getTask(ctx.db, team, input.task_id.replace(/^#/, ""));
  if (!team || !task) return { ok: false, text: `Task #${input.task_id} not found; task_list shows the tasks there are` };
  if (input.status === "deleted") {
    removeTask(ctx.db, team, task.id);
    return { ok: true, text: `Updated task #${task.id} deleted` };
  }
  const next: TeamTask = { ...task };
  const changed: string[] = [];
  const set = <K extends "subject" | "description" | "activeForm" | "owner">(key: K, value: TeamTask[K] | undefined, name: string) => {
    if (value !== undefined && value !== task[key]) (next[key] = value), changed.push(name);
  };
  set("subject", input.subject, "subject");
  set("description", input.description, "description");
  set("activeForm", input.active_form, "activeForm");
  set("owner", input.owner, "owner");
  // A member starting an unowned task takes it.
  if (input.status === "in_progress" && input.owner === undefined && !task.owner && ctx.callerId !== ctx.leadId) set("owner", callerName(ctx), "owner");
  if (input.status && input.status !== task.status) {
    if (input.status === "completed") {
      const heard = await ctx.hook("TaskCompleted", hookFields(ctx, team, task), signal);
      if (heard?.block || heard?.stop) return { ok: false, text: `A TaskCompleted hook configured by the user refused to mark task #${task.id} completed: ${heard.block ?? heard.stop}` };
    }
    next.status = input.status;
    changed.push("status");
  }
  if (changed.length) saveTask(ctx.db, team, next, now(ctx));
  const links = linkAll(ctx, team, next, input);
  changed.push(...links);
  if (next.owner && changed.includes("owner") && next.owner !== callerName(ctx)) {
    ctx.tell(next.owner, `Task #${task.id} was assigned to you by ${callerName(ctx)}: ${next.subject}\n${next.description}\nMark it in_progress with task_update when you start, completed when it is done.`);
  }
  const done = next.status === "completed" && changed.includes("status") ? "\nTask completed. Call task_list to find your next task or see what it unblocked." : "";
  return { ok: true, text: changed.length ? `Updated task #${task.id} ${changed.join(", ")}${done}` : `Task #${task.id} unchanged (it already says that)` };
}

/** task_list: every task of the team, in order, with its owner and open blockers. */
export function taskList(ctx: BoardContext): Answer {
  const team = teamOfLead(ctx.db, ctx.leadId);
  const all = team ? tasks(ctx.db, team) : [];
  if (all.length === 0) return { ok: true, text: "No tasks found" };
  const lines = all.map((t) => {
    const blockers = openBlockers(all, t);
    const line = `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` (${t.owner})` : ""}${blockers.length ? ` [blocked by ${blockers.map((b) => `#${b}`).join(", ")}]` : ""}`;
    return t.description && t.description !== t.subject ? `${line}\n    ${t.description.replace(/\n/g, "\n    ")}` : line;
  });
  return { ok: true, text: `${team!.name === implicitName(ctx.leadId) ? "" : `Team "${team!.name}":\n`}${lines.join("\n")}` };
}

function linkAll(ctx: BoardContext, team: TeamRow, task: TeamTask, input: TaskUpdateInput): string[] {
  const changed: string[] = [];
  for (const [ids, name, blocks] of [[input.add_blocks, "blocks", true], [input.add_blocked_by, "blockedBy", false]] as const) {
    const others = (ids ?? []).map((id) => getTask(ctx.db, team, id.replace(/^#/, ""))).filter((t): t is TeamTask => t !== undefined && t.id !== task.id);
    const fresh = others.filter((o) => !(blocks ? task.blocks : task.blockedBy).includes(o.id));
    for (const other of fresh) (blocks ? link(ctx.db, team, getTask(ctx.db, team, task.id)!, other) : link(ctx.db, team, other, getTask(ctx.db, team, task.id)!));
    if (fresh.length) changed.push(name);
  }
  return changed;
}

/** Claude Code's fields of TaskCreated and TaskCompleted. */
function hookFields(ctx: BoardContext, team: TeamRow, task: TeamTask): Record<string, unknown> {
  const member = membership(ctx.db, ctx.callerId);
  return { task_id: task.id, task_subject: task.subject, task_description: task.description, ...(member ? { teammate_name: member.name } : {}), team_name: team.name };
}

function callerName(ctx: BoardContext): string {
  return ctx.callerId === ctx.leadId ? "lead" : (membership(ctx.db, ctx.callerId)?.name ?? ctx.callerId);
}

function now(ctx: BoardContext): number {
  return (ctx.now ?? Date.now)();
}
