// What `rein sessions show` says of subagents: the session a child belongs to, and a session's
// children as a tree (agent, id, title).
import type { SessionRow, Store } from "../session/store.ts";

export function subagentLines(row: SessionRow, store: Store): string {
  const parent = row.parent_id ? `subagent ${row.agent ?? ""} of ${row.parent_id} (task call ${row.parent_tool_use_id ?? "?"})\n` : "";
  const tree = children(store, row.id, 0);
  return `${parent}${tree.length ? `\nSubagents:\n${tree.join("\n")}\n` : ""}`;
}

function children(store: Store, id: string, depth: number): string[] {
  return store.childSessions(id).flatMap((child) => [
    `${"  ".repeat(depth)}- ${child.agent ?? "agent"} ${child.id}${child.title ? `: ${child.title}` : ""}`,
    ...children(store, child.id, depth + 1),
  ]);
}
