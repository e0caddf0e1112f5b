// What a stored session opens with: the crash repairs stored first, then only the messages its
// compacted view sends, and, for a history never compacted, its size from the stored text.
import { storedTokens, type Estimated } from "../agent/context-size.ts";
import type { Message } from "../agent/types.ts";
import { compactedFrom, compactedView, NO_COMPACTION, stateOf, type CompactionState } from "./compacted-view.ts";
import { repairMessages } from "./repair.ts";
import type { SessionRow, Store } from "./store.ts";

export type OpenedView = {
  view: Message[];
  compaction: CompactionState;
  /** the view's size in tokens (without system and tools), when known without walking it */
  size?: Estimated;
};

/**
 * `persist` false (another process drives the session now) keeps the repairs in the view only: the
 * store is left to its holder, and the repairs are made for good by whoever next takes the lease.
 */
export function openView(row: SessionRow, store: Store, persist = true): OpenedView {
  const last = store.lastMessage(row.id);
  // An undo took messages out: the events of the turns it undid are not replies to repair.
  const repairs = repairMessages(last ? [last] : [], store.events(row.id, Math.max(last?.seq ?? 0, store.lastUndo(row.id))));
  if (!persist) {
    const latest = store.lastCompaction(row.id);
    const compaction = latest ? stateOf(latest) : NO_COMPACTION;
    return { view: [...compactedView(store.conversation(row.id), compaction), ...repairs], compaction };
  }
  if (repairs.length > 0) {
    const seq = store.lastSeq(row.id);
    store.transaction(() => {
      for (const message of repairs) store.appendMessage(row.id, message, seq, "repaired");
    });
  }
  const latest = store.lastCompaction(row.id);
  const compaction = latest ? stateOf(latest) : NO_COMPACTION;
  // Only what the view sends is read (the repairs are stored by now): the messages from the
  // compaction's first kept one on, or all of them when that compaction does not fit the history.
  const stored = (last?.idx ?? -1) + 1 + repairs.length;
  const from = compaction.firstKept <= stored ? compaction.firstKept : 0;
  const part = store.sizedConversation(row.id, from);
  const view = compactedFrom(part.messages, from, compaction) ?? compactedView(store.conversation(row.id), compaction);
  // Never compacted: the view is the stored history, whose size is known from its stored text.
  if (latest || view.length !== part.messages.length) return { view, compaction };
  return { view, compaction, size: { tokens: storedTokens({ ...part, count: view.length }), messages: view.length } };
}
