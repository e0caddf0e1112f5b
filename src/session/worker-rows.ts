// What the store says of a session's background workers, for those who read it without the team
// of the process that ran them (`rein sessions show`, /tasks, a lead continued with -c): a worker
// stored as queued or running whose process is gone (no live lease on it or on its lead) ended
// with that process, and is failed. And a background bash command joining the list.
import { readFileSync } from "node:fs";
import { emptyUsage, type StampedEvent } from "../agent/types.ts";
import type { SubagentParent } from "../agents/host.ts";
import { backgroundCommand, stopOneBackground } from "../registry/builtin.ts";
import { leaseHeld } from "./lease.ts";
import type { SessionRow, Store } from "./store.ts";
import type { Team } from "./team.ts";
import { notificationText } from "./team-worker.ts";

export const DEAD = "failed (its process ended)";

/** The state of a child session that was a background worker; undefined for a foreground task. */
export function workerState(store: Store, row: SessionRow, team?: Team): string | undefined {
  if (!row.task_state) return undefined;
  const live = team?.get(row.id);
  if (live) return live.state;
  if (row.task_state !== "queued" && row.task_state !== "running") return row.task_state;
  const holder = row.task_state === "running" ? row.id : row.parent_id;
  return holder && leaseHeld(store.db, holder) ? row.task_state : DEAD;
}

/**
 * The workers of `parentId` that a crash left running: marked failed, and their notifications
 * returned for the lead's next prompt (a lead continued with -c learns what became of them).
 */
export function deadWorkerNotes(store: Store, parentId: string, team?: Team): string[] {
  const notes: string[] = [];
  for (const row of store.childSessions(parentId)) {
    if (workerState(store, row, team) !== DEAD) continue;
    store.setTask(row.id, { state: "failed" });
    const worker = {
      id: row.id,
      state: "failed" as const,
      kind: "agent" as const,
      agent: row.agent ?? "agent",
      description: row.title ?? "",
      parentId,
      toolUseId: row.parent_tool_use_id ?? "",
      startedAt: row.created_at,
      durationMs: row.updated_at - row.created_at,
      text: "",
      usage: emptyUsage(),
      cost: null,
      toolUses: 0,
      lastAction: "",
      ...(row.task_name ? { name: row.task_name } : {}),
    };
    notes.push(notificationText(worker, `Agent "${row.task_name ?? row.title ?? row.id}" failed: its process ended before it finished`));
  }
  return notes;
}

/** A bash command the model started in the background (its tool_end's metadata), as one of the team's tasks. */
export function joinCommand(team: Team, parent: SubagentParent, event: Extract<StampedEvent, { type: "tool_end" }>): void {
  const { pgid, log } = event.metadata!.background as { pgid: number; log: string };
  const running = backgroundCommand(pgid);
  if (!running) return;
  team.addCommand({
    id: `bash_${pgid}`,
    parent,
    toolUseId: event.id,
    command: running.command,
    stop: () => void stopOneBackground(pgid),
    output: () => tail(log),
    ended: running.exited,
  });
}

/** The end of a command's log: what task_output and the notification show. */
function tail(log: string, max = 4000): string {
  try {
    const text = readFileSync(log, "utf8");
    return text.length > max ? `[...]\n${text.slice(-max)}` : text;
  } catch {
    return "";
  }
}
