// What `rein sessions show` says of subagents: the session a child belongs to, and a session's
// children as a tree (agent, id, a background worker's name, state and cost, title).
import type { SessionRow, Store } from "../session/store.ts";
import { workerState } from "../session/worker-rows.ts";
import { sessionSpend } from "./cost-line.ts";

export function subagentLines(row: SessionRow, store: Store): string {
  const parent = row.parent_id ? `subagent ${row.agent ?? ""} of ${row.parent_id} (task call ${row.parent_tool_use_id ?? "?"})\n` : "";
  const tree = children(store, row.id, 0);
  return `${parent}${tree.length ? `\nSubagents:\n${tree.join("\n")}\n` : ""}`;
}

function children(store: Store, id: string, depth: number): string[] {
  return store.childSessions(id).flatMap((child) => [
    `${"  ".repeat(depth)}- ${child.agent ?? "agent"} ${child.id}${workerPart(store, child)}${child.title ? `: ${child.title}` : ""}`,
    ...children(store, child.id, depth + 1),
  ]);
}

/** A background worker's name, state and cost (a foreground task has none of these). */
function workerPart(store: Store, row: SessionRow): string {
  const state = workerState(store, row);
  if (!state) return "";
  const cost = sessionSpend(store.spendEvents(row.id)).cost_usd;
  return `${row.task_name ? ` "${row.task_name}"` : ""} · ${state} · ${cost === null ? "cost unknown" : `$${cost.toFixed(4)}`}`;
}
