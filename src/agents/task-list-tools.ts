// The team and its shared task list as the model's tools: team_create, team_delete, task_create,
// task_update, task_list (Claude Code's TaskCreate, TaskUpdate and TaskList are the same tools; the
// permission table maps their names). They read and write through `host` (session/team-board.ts);
// each answers in one text, an error when nothing was done.
import * as v from "valibot";
import type { Tool, ToolResult } from "../sdk.ts";
import { once } from "../sdk/once.ts";

type Answer = { ok: boolean; text: string };

export type TaskListHost = {
  createTeam: (input: TeamCreateInput, toolUseId: string, signal: AbortSignal) => Promise<Answer>;
  deleteTeam: () => Answer;
  createTask: (input: TaskCreateInput, signal: AbortSignal) => Promise<Answer>;
  updateTask: (input: TaskUpdateInput, signal: AbortSignal) => Promise<Answer>;
  listTasks: () => Answer;
};

// Made with the first read of a tool's input (a call, or its definition once the model loads it):
// these tools are deferred, and a start that builds no schema it does not send keeps valibot's
// constructors out of JavaScriptCore's optimizing JIT.
const schemas = once(() => {
  const member = v.object({
    name: v.pipe(v.string(), v.minLength(1), v.description("the worker's name (send_message, task owners)")),
    prompt: v.pipe(v.string(), v.minLength(1), v.description("its self-contained task")),
    subagent_type: v.optional(v.string()),
  });
  return {
    teamCreate: v.object({
      name: v.pipe(v.string(), v.minLength(1)),
      description: v.optional(v.string()),
      members: v.optional(v.pipe(v.array(member), v.description("workers to start now in the background, each in the team"))),
    }),
    taskCreate: v.object({
      subject: v.pipe(v.string(), v.description("a short title")),
      description: v.optional(v.string()),
      active_form: v.optional(v.string()),
    }),
    taskUpdate: v.object({
      task_id: v.pipe(v.string(), v.minLength(1)),
      status: v.optional(v.picklist(["pending", "in_progress", "completed", "deleted"])),
      owner: v.optional(v.pipe(v.string(), v.description("a member's name, to hand it the task"))),
      subject: v.optional(v.string()),
      description: v.optional(v.string()),
      active_form: v.optional(v.string()),
      add_blocks: v.optional(v.array(v.string())),
      add_blocked_by: v.optional(v.array(v.string())),
    }),
    none: v.object({}),
  };
});
type Schemas = ReturnType<typeof schemas>;
export type TeamCreateInput = v.InferOutput<Schemas["teamCreate"]>;
export type TaskCreateInput = v.InferOutput<Schemas["taskCreate"]>;
export type TaskUpdateInput = v.InferOutput<Schemas["taskUpdate"]>;

const answer = ({ ok, text }: Answer): ToolResult => (ok ? { output: text } : { output: text, isError: true });
const quiet = { readOnly: true, permissions: () => [] };

export function taskListTools(host: TaskListHost, options: { lead: boolean }): Tool[] {
  const list: Tool[] = [
    {
      name: "task_create",
      description: "Add a task to the team's shared task list (status pending). Use one per piece of work when it has three or more steps or others will take parts.",
      get input() {
        return schemas().taskCreate;
      },
      ...quiet,
      run: (raw, ctx) => host.createTask(raw as TaskCreateInput, ctx.signal).then(answer),
    },
    {
      name: "task_update",
      description: "Change a task of the shared list: status (pending, in_progress, completed only when fully done, deleted), owner (a member's name hands it over and tells them), subject, description, add_blocks/add_blocked_by (task ids).",
      get input() {
        return schemas().taskUpdate;
      },
      ...quiet,
      run: (raw, ctx) => host.updateTask(raw as TaskUpdateInput, ctx.signal).then(answer),
    },
    {
      name: "task_list",
      description: "The team's shared task list: each task's id, status, subject, owner, open blockers and description. After finishing a task, look here for the next (lowest id first).",
      get input() {
        return schemas().none;
      },
      ...quiet,
      run: () => answer(host.listTasks()),
    },
  ];
  if (!options.lead) return list;
  return [
    {
      name: "team_create",
      description:
        "Make a team you lead: your background workers are its members and share one task list (task_create, task_update, task_list). members: workers to start now, each {name, prompt, subagent_type?}.",
      get input() {
        return schemas().teamCreate;
      },
      ...quiet,
      run: (raw, ctx) => host.createTeam(raw as TeamCreateInput, ctx.toolUseId, ctx.signal).then(answer),
    },
    {
      name: "team_delete",
      description: "Delete your team and its task list, once no member is running.",
      get input() {
        return schemas().none;
      },
      ...quiet,
      run: () => answer(host.deleteTeam()),
    },
    ...list,
  ];
}
