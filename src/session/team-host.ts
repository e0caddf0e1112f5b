// The team tools' host for one session (the lead or a member): the board (team-board.ts) over the
// store, the session's hooks, and the process's team for the workers it knows and messages it sends.
import type { SubagentParent } from "../agents/host.ts";
import type { TaskListHost } from "../agents/task-list-tools.ts";
import type { TeamHolder } from "./session-options.ts";
import type { Store } from "./store.ts";
import { FINISHED } from "./team-worker.ts";
import { addMember, teamOfLead } from "./task-list.ts";
import { taskCreate, taskList, taskUpdate, teamCreate, teamDelete, type BoardContext } from "./team-board.ts";

/** The lead of a session's tree: the top-level session it descends from (itself when it has no parent). */
export function leadOf(store: Store, id: string): string {
  let current = id;
  for (let depth = 0; depth < 16; depth++) {
    const parent = store.getSession(current)?.parent_id;
    if (!parent) return current;
    current = parent;
  }
  return current;
}

/** Worker `id` of lead `leadId` joins the lead's team, when it has one. */
export function joinTeam(store: Store, leadId: string, worker: { id: string; name?: string; agent: string }): void {
  const team = teamOfLead(store.db, leadId);
  if (team) addMember(store.db, team, { name: worker.name ?? worker.id, sessionId: worker.id, agent: worker.agent });
}

export type MemberStart = (member: { name: string; prompt: string; agent: string; toolUseId: string; signal: AbortSignal }) => Promise<unknown>;

export function taskListHost(store: Store, team: TeamHolder, parent: SubagentParent, startMember?: MemberStart): TaskListHost {
  const board = (): BoardContext => {
    const lead = leadOf(store, parent.id);
    return {
      db: store.db,
      callerId: parent.id,
      leadId: lead,
      hook: (event, fields, signal) => parent.hook?.(event, fields, signal) ?? Promise.resolve(undefined),
      workers: () =>
        (team.current?.list() ?? [])
          .filter((w) => w.kind === "agent" && leadOf(store, w.id) === lead)
          .map((w) => ({ name: w.name ?? w.id, id: w.id, agent: w.agent, going: !FINISHED.includes(w.state) })),
      tell: (to, text) => team.current?.send(parent.id, to, text).ok ?? false,
    };
  };
  return {
    async createTeam(input, toolUseId, signal) {
      const made = teamCreate(board(), input);
      if (!made.ok || !input.members?.length) return made;
      const started: string[] = [];
      const failed: string[] = [];
      for (const member of input.members) {
        if (!startMember) {
          failed.push(`${member.name}: this session cannot start workers`);
          continue;
        }
        await startMember({ name: member.name, prompt: member.prompt, agent: member.subagent_type ?? "general", toolUseId, signal })
          .then(() => started.push(member.name))
          .catch((error: unknown) => failed.push(`${member.name}: ${error instanceof Error ? error.message : String(error)}`));
      }
      const lines = [made.text, started.length ? `Started in the background: ${started.join(", ")}; each one's <task-notification> comes when it ends.` : "", failed.length ? `Not started: ${failed.join("; ")}` : ""];
      return { ok: failed.length === 0, text: lines.filter(Boolean).join("\n") };
    },
    deleteTeam: () => teamDelete(board()),
    createTask: (input, signal) => taskCreate(board(), input, signal),
    updateTask: (input, signal) => taskUpdate(board(), input, signal),
    listTasks: () => taskList(board()),
  };
}
