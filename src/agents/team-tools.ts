// The team's tools beside the task tool: send_message (to a worker by task id or name, or to the
// lead), task_stop and task_output. They only read and write the team (session/team.ts) through
// `host`; each answers in one text, an error when the worker named is not there.
import * as v from "valibot";
import type { Tool, ToolResult } from "../sdk.ts";
import { once } from "../sdk/once.ts";

export type TeamHost = {
  send: (to: string, message: string) => { ok: boolean; text: string };
  stop: (taskId: string) => { ok: boolean; text: string };
  output: (taskId: string) => { ok: boolean; text: string };
};

// Made with the first read of a tool's input (a call, or its definition once the model loads it):
// these tools are deferred, and a start that builds no schema it does not send keeps valibot's
// constructors out of JavaScriptCore's optimizing JIT.
const schemas = once(() => ({
  send: v.object({
    to: v.pipe(v.string(), v.minLength(1), v.description('a task id, a worker\'s name, or "lead"')),
    message: v.pipe(v.string(), v.minLength(1)),
  }),
  taskId: v.object({ task_id: v.pipe(v.string(), v.minLength(1)) }),
}));
type SendInput = { to: string; message: string };
type TaskIdInput = { task_id: string };

const answer = ({ ok, text }: { ok: boolean; text: string }): ToolResult => (ok ? { output: text } : { output: text, isError: true });

export function teamTools(host: TeamHost): Tool[] {
  return [
    {
      name: "send_message",
      description:
        'Send a message to a background worker (its task id or name) or, from a worker, to "lead". A running worker reads it at its next turn boundary; a finished one is resumed with it, its conversation kept.',
      get input() {
        return schemas().send;
      },
      readOnly: true,
      permissions: () => [],
      run: (raw) => {
        const input = raw as SendInput;
        return answer(host.send(input.to, input.message));
      },
    },
    {
      name: "task_stop",
      description: "Stop a running background task (a worker or a background bash command) by its task id or name; its notification says killed.",
      get input() {
        return schemas().taskId;
      },
      readOnly: true,
      permissions: () => [],
      run: (raw) => answer(host.stop((raw as TaskIdInput).task_id)),
    },
    {
      name: "task_output",
      description: "What a background task (a worker or a background bash command) has said so far, and its status.",
      get input() {
        return schemas().taskId;
      },
      readOnly: true,
      permissions: () => [],
      run: (raw) => answer(host.output((raw as TaskIdInput).task_id)),
    },
  ];
}
