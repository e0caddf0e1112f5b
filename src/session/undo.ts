// Undo and redo of a session's last turns, for every front end: the code (checkpoint/undo.ts) and
// the conversation (conversation-undo.ts), together or apart.
import { checkpointPatch, listCheckpoints, redoCode, undoCode, type UndoOutcome } from "../checkpoint/undo.ts";
import type { Checkpoint } from "../checkpoint/journal.ts";
import { cutConversation, readRedo, restoreConversation, userTurns, writeRedo } from "./conversation-undo.ts";
import { whileFree } from "./lease.ts";
import { childChangesLeftOut, leftOutReason } from "./undo-children.ts";
import type { SessionRow, Store } from "./store.ts";

export type { Checkpoint } from "../checkpoint/journal.ts";
export { forgetCheckpoints } from "../checkpoint/prune.ts";

export type UndoSettings = {
  /** the checkpoints folder in the data folder */
  checkpointsDir: string;
  turns: number;
  code: boolean;
  conversation: boolean;
  force: boolean;
};

export type UndoReport =
  | { type: "nothing" | "refused"; reason: string; files: string[] }
  | {
      type: "done";
      /** the code part's outcome, when code was undone (or why it was not) */
      code?: UndoOutcome;
      /** how many messages were taken out (or put back) of the conversation */
      messages: number;
      /** the first prompt undone (or redone) */
      prompt?: string;
    };

const where = (settings: Pick<UndoSettings, "checkpointsDir">, row: SessionRow) => ({ settings: { dir: settings.checkpointsDir }, workspace: row.cwd, sessionId: row.id });

/**
 * Undo, redo and restore hold the session's lease while they work: a run cannot start meanwhile,
 * and two at once (two `rein undo` in two terminals) go one after the other, each on the turns the
 * other left. A session a run holds is refused.
 */
async function exclusive<T>(store: Store, row: SessionRow, work: () => Promise<T>): Promise<T | { type: "refused"; reason: string; files: string[] }> {
  const outcome = await whileFree(store.db, row.id, "undo", work);
  if ("done" in outcome) return outcome.done;
  return { type: "refused", reason: `session ${row.id} is running in another process; undo when its run has finished`, files: [] };
}

export function undoTurns(store: Store, row: SessionRow, settings: UndoSettings): Promise<UndoReport> {
  return exclusive(store, row, () => undoNow(store, row, settings));
}

async function undoNow(store: Store, row: SessionRow, settings: UndoSettings): Promise<UndoReport> {
  const turns = userTurns(store, row.id);
  const first = turns.at(-settings.turns) ?? turns[0];
  if (settings.conversation && !first) return { type: "nothing", reason: "the conversation has no turn to undo", files: [] };
  if (settings.code && settings.conversation && first) {
    const left = childChangesLeftOut(store, row, settings.checkpointsDir, store.messages(row.id).filter((m) => m.idx >= first.idx), first.seq);
    if (left.files.length) return { type: "refused", reason: leftOutReason(left), files: left.files };
  }
  let code: UndoOutcome | undefined;
  if (settings.code) {
    const which = settings.conversation && first ? { fromSeq: first.seq } : { turns: settings.turns };
    code = await undoCode({ ...where(settings, row), ...which, force: settings.force });
    if (code.type === "refused") return code;
    if (!settings.conversation && code.type === "nothing") return { ...code, files: [] };
  }
  const removed = settings.conversation && first ? cutConversation(store, row.id, first.idx) : [];
  const redo = readRedo(settings.checkpointsDir, row.id);
  writeRedo(settings.checkpointsDir, row.id, [...redo, { at: Date.now(), code: code?.type === "done", messages: removed }]);
  const prompt = first && settings.conversation ? promptOf(first.content) : undefined;
  record(store, row, false, code, removed.length);
  return { type: "done", ...(code ? { code } : {}), messages: removed.length, ...(prompt ? { prompt } : {}) };
}

export function redoTurns(store: Store, row: SessionRow, settings: Pick<UndoSettings, "checkpointsDir" | "force">): Promise<UndoReport> {
  return exclusive(store, row, () => redoNow(store, row, settings));
}

async function redoNow(store: Store, row: SessionRow, settings: Pick<UndoSettings, "checkpointsDir" | "force">): Promise<UndoReport> {
  const redo = readRedo(settings.checkpointsDir, row.id);
  const last = redo.at(-1);
  if (!last) return { type: "nothing", reason: "nothing of this session was undone: there is nothing to redo", files: [] };
  if (last.messages.length && (store.lastMessage(row.id)?.idx ?? -1) + 1 !== last.messages[0]!.idx) {
    return { type: "refused", reason: "the conversation went on since the undo: its turns cannot be put back (fork the session instead)", files: [] };
  }
  const code = last.code ? await redoCode({ ...where(settings, row), force: settings.force }) : undefined;
  if (code?.type === "refused") return code;
  restoreConversation(store, row.id, last.messages);
  writeRedo(settings.checkpointsDir, row.id, redo.slice(0, -1));
  const prompt = last.messages[0] ? promptOf(last.messages[0].content) : undefined;
  record(store, row, true, code, last.messages.length);
  return { type: "done", ...(code ? { code } : {}), messages: last.messages.length, ...(prompt ? { prompt } : {}) };
}

export function sessionCheckpoints(row: SessionRow, checkpointsDir: string): Checkpoint[] {
  return listCheckpoints(where({ checkpointsDir }, row));
}

export function sessionCheckpointPatch(row: SessionRow, checkpointsDir: string, n: number): Promise<string | undefined> {
  return checkpointPatch(where({ checkpointsDir }, row), n);
}

/** Puts the workspace back as it was before checkpoint `n` (undoing it and every later one). */
export function restoreCheckpoint(store: Store, row: SessionRow, checkpointsDir: string, n: number, force: boolean): Promise<UndoOutcome> {
  return exclusive(store, row, () => restoreNow(store, row, checkpointsDir, n, force));
}

async function restoreNow(store: Store, row: SessionRow, checkpointsDir: string, n: number, force: boolean): Promise<UndoOutcome> {
  const code = await undoCode({ ...where({ checkpointsDir }, row), fromN: n, force });
  if (code.type !== "done") return code;
  writeRedo(checkpointsDir, row.id, [...readRedo(checkpointsDir, row.id), { at: Date.now(), code: true, messages: [] }]);
  record(store, row, false, code, 0);
  return code;
}

/** The `undo` event: the session's log says what was undone, and a reopened session repairs nothing from before it. */
function record(store: Store, row: SessionRow, redo: boolean, code: UndoOutcome | undefined, messages: number): void {
  const done = code?.type === "done" ? code : undefined;
  store.appendEvent(row.id, { type: "undo", redo, files: done?.files ?? [], messages, side_effects: done?.side_effects ?? [] });
}

function promptOf(content: readonly { type: string; text?: string }[]): string {
  const text = content.find((b) => b.type === "text")?.text ?? "";
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
