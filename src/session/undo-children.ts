// What the subagents of the turns an undo takes out changed in the same workspace that the
// session's own checkpoints of those turns do not cover. A foreground child's changes are covered
// (the parent's turn records the workspace around its task call); a background worker's may come
// after the turn that started it was recorded. An undo that would cut the conversation but leave
// those files as they are refuses instead: it would cut the turns and keep what they did.
import { listCheckpoints } from "../checkpoint/undo.ts";
import type { Checkpoint } from "../checkpoint/journal.ts";
import type { SessionRow, StoredMessage, Store } from "./store.ts";

export type LeftOut = { files: string[]; children: string[] };

/**
 * The files the children of the task calls in `removed` (and their own children) changed, not
 * undone, that none of the parent's checkpoints from `fromSeq` on changed; empty when there are none.
 */
export function childChangesLeftOut(store: Store, row: SessionRow, checkpointsDir: string, removed: readonly StoredMessage[], fromSeq: number): LeftOut {
  const calls = new Set(removed.filter((m) => m.role === "assistant").flatMap((m) => m.content.flatMap((b) => (b.type === "tool_use" && b.name === "task" ? [b.id] : []))));
  if (!calls.size) return { files: [], children: [] };
  const covered = new Set(live(row, checkpointsDir).filter((c) => c.seq >= fromSeq).flatMap(changedPaths));
  const files = new Set<string>();
  const children: string[] = [];
  const visit = (child: SessionRow) => {
    const changed = child.cwd === row.cwd ? live(child, checkpointsDir).flatMap(changedPaths).filter((p) => !covered.has(p)) : [];
    if (changed.length) children.push(child.id);
    for (const path of changed) files.add(path);
    for (const grandchild of store.childSessions(child.id)) visit(grandchild);
  };
  for (const child of store.childSessions(row.id)) if (child.parent_tool_use_id && calls.has(child.parent_tool_use_id)) visit(child);
  return { files: [...files].sort(), children };
}

/** The refusal's sentence: what was left alone and the two ways on. */
export function leftOutReason(left: LeftOut): string {
  const ids = left.children.join(", ");
  const some = left.files.length === 1 ? "a file" : `${left.files.length} files`;
  return `subagents of these turns changed ${some} this session's checkpoints do not cover (a background task writes after its turn was recorded), so nothing was undone; put ${left.files.length === 1 ? "it" : "them"} back with rein undo -r ID --code for ${left.children.length === 1 ? "the subagent" : "each subagent"} (${ids}), or take out only the conversation with --conversation`;
}

function live(row: SessionRow, checkpointsDir: string): Checkpoint[] {
  return listCheckpoints({ settings: { dir: checkpointsDir }, workspace: row.cwd, sessionId: row.id }).filter((c) => !c.undone);
}

function changedPaths(checkpoint: Checkpoint): string[] {
  return (checkpoint.changed ?? []).map((c) => c.path);
}
