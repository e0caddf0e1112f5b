// Forking a session: a new session holding a prefix of another's conversation and the events up to
// it, cut where the conversation stays valid for a provider.
import type { Message } from "../agent/types.ts";
import type { SessionRow, Store } from "./store.ts";

export type Fork = {
  session: SessionRow;
  /** messages copied */
  messages: number;
  /** messages asked for (the source's count when it has fewer); more than `messages` when the cut was moved back */
  requested: number;
};

/**
 * A new session (same cwd, model, title and settings) holding the first `upToMessage` messages of
 * `id` (all when undefined) and the events up to them. A cut that would end on tool calls without
 * their results is moved back, so the fork is always a valid conversation for the provider.
 * Runs inside the caller's transaction.
 */
export function forkSession(store: Store, id: string, upToMessage: number | undefined, newId: string, now: number): Fork | undefined {
  const source = store.getSession(id);
  if (!source) return undefined;
  const all = store.messages(id);
  const requested = Math.min(upToMessage ?? all.length, all.length);
  const kept = validPrefix(all.slice(0, requested));
  // Everything when the whole conversation is kept (a crash's tail is repaired in the fork as it
  // would be in the source); otherwise nothing after the last kept message, or it would be repaired in.
  const lastSeq = kept.length === all.length ? Number.MAX_SAFE_INTEGER : (kept.at(-1)?.seq ?? 0);
  const session = store.createSession({ id: newId, cwd: source.cwd, model: source.model, settings: source.settings ?? null }, now);
  if (source.title !== null) store.db.query(`UPDATE sessions SET title = ? WHERE id = ?`).run(source.title, newId);
  store.db
    .query(
      `INSERT INTO messages (session_id, idx, role, content, seq, status, created_at)
       SELECT ?1, idx, role, content, seq, status, created_at FROM messages WHERE session_id = ?2 AND idx < ?3`,
    )
    .run(newId, id, kept.length);
  store.db
    .query(
      `INSERT INTO events (session_id, seq, type, data, created_at)
       SELECT ?1, seq, type, CASE type WHEN 'session' THEN json_set(data, '$.id', ?1) ELSE data END, created_at
       FROM events WHERE session_id = ?2 AND seq <= ?3`,
    )
    .run(newId, id, lastSeq);
  return { session: { ...session, title: source.title }, messages: kept.length, requested };
}

/** The longest prefix that does not end on an assistant turn whose tool calls have no results. */
export function validPrefix<T extends Message>(messages: readonly T[]): T[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role === "assistant" && messages[end - 1]!.content.some((b) => b.type === "tool_use")) end--;
  return messages.slice(0, end);
}
