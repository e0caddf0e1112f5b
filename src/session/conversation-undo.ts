// The conversation half of undo: a session's messages from a turn on are taken out of the store
// (kept in a redo file beside the checkpoints, so /redo can put them back).
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { StoredMessage, Store } from "./store.ts";
import { readOwnText } from "../sdk/own-file.ts";

/** One undo, as redo needs it: the messages taken out, and whether code was undone with them. */
export type UndoEntry = { at: number; code: boolean; messages: StoredMessage[] };

/** The user turns of a conversation (prompts, not tool results), oldest first. */
export function userTurns(store: Store, sessionId: string): StoredMessage[] {
  return store.messages(sessionId).filter((m) => m.role === "user" && m.content.every((b) => b.type !== "tool_result"));
}

/** Takes out the messages from index `from` on; returns them. */
export function cutConversation(store: Store, sessionId: string, from: number): StoredMessage[] {
  const removed = store.messages(sessionId).filter((m) => m.idx >= from);
  store.db.query(`DELETE FROM messages WHERE session_id = ? AND idx >= ?`).run(sessionId, from);
  return removed;
}

/** Puts messages taken out by an undo back; refused (false) when the conversation went on since. */
export function restoreConversation(store: Store, sessionId: string, messages: readonly StoredMessage[]): boolean {
  const first = messages[0];
  if (!first) return true;
  const next = (store.lastMessage(sessionId)?.idx ?? -1) + 1;
  if (next !== first.idx) return false;
  const insert = store.db.prepare(`INSERT INTO messages (session_id, idx, role, content, seq, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  store.transaction(() => {
    for (const m of messages) insert.run(sessionId, m.idx, m.role, JSON.stringify(m.content), m.seq, m.status, Date.now());
  });
  return true;
}

function redoPath(checkpointsDir: string, sessionId: string): string {
  return join(checkpointsDir, "redo", `${sessionId}.json`);
}

export function readRedo(checkpointsDir: string, sessionId: string): UndoEntry[] {
  const path = redoPath(checkpointsDir, sessionId);
  if (!existsSync(path)) return [];
  try {
    const parsed: unknown = JSON.parse(readOwnText(path));
    return Array.isArray(parsed) ? (parsed as UndoEntry[]) : [];
  } catch {
    return [];
  }
}

export function writeRedo(checkpointsDir: string, sessionId: string, entries: readonly UndoEntry[]): void {
  const path = redoPath(checkpointsDir, sessionId);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(entries));
  renameSync(`${path}.tmp`, path);
}
