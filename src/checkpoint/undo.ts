// Undo and redo of a session's turns on the workspace. An undo puts back the files the turns
// changed as they were before the first of them, unless someone changed one of those files since
// the last turn left it (then it refuses and names the files, unless forced).
import { journalPath, readJournal, writeJournal, type Checkpoint } from "./journal.ts";
import { changedSince, outsideSpan, putOutside } from "./outside.ts";
import { ShadowStore } from "./shadow.ts";
import type { CheckpointSettings } from "./turn.ts";

/**
 * Which checkpoints to undo: the last `turns` not undone yet, or those from the turn whose `user`
 * event has seq `fromSeq` on, or those numbered `fromN` and later.
 */
export type UndoRequest = { settings: CheckpointSettings; workspace: string; sessionId: string; turns?: number; fromSeq?: number; fromN?: number; force?: boolean };

export type UndoOutcome =
  | { type: "nothing"; reason: string }
  | { type: "refused"; reason: string; files: string[] }
  | {
      type: "done";
      /** the checkpoints undone (or redone), newest first */
      checkpoints: number[];
      files: string[];
      uncovered: string[];
      side_effects: string[];
      /** the conversation's length before the first turn undone */
      messages_before: number;
    };

type Opened = { shadow: ShadowStore; journal: string; all: Checkpoint[] };

function open(request: Pick<UndoRequest, "settings" | "workspace" | "sessionId">): Opened {
  const shadow = new ShadowStore({ dataDir: request.settings.dir, workspace: request.workspace, sessionId: request.sessionId, ...(request.settings.maxFileBytes ? { maxFileBytes: request.settings.maxFileBytes } : {}) });
  const journal = journalPath(shadow.dir, request.sessionId);
  return { shadow, journal, all: readJournal(journal) };
}

/** The session's checkpoints, oldest first. */
export function listCheckpoints(request: Pick<UndoRequest, "settings" | "workspace" | "sessionId">): Checkpoint[] {
  return open(request).all;
}

/** Undoes the last `turns` turns (that are not undone already) of the session's code. */
export async function undoCode(request: UndoRequest): Promise<UndoOutcome> {
  const opened = open(request);
  const live = opened.all.filter((c) => !c.undone);
  if (!live.length) return { type: "nothing", reason: "this session has no checkpoint left to undo (no turn of it changed the workspace)" };
  const chosen = request.fromSeq !== undefined ? live.filter((c) => c.seq >= request.fromSeq!) : request.fromN !== undefined ? live.filter((c) => c.n >= request.fromN!) : live.slice(-(request.turns ?? 1));
  if (!chosen.length) return { type: "nothing", reason: "those turns changed no file: there is no code to undo" };
  const group = chosen.reverse();
  const oldest = group.at(-1)!;
  const newest = group[0]!;
  const broken = group.find((c) => c.incomplete || !c.before || !c.after);
  if (broken && (!broken.before || !request.force)) {
    const why = broken.incomplete ?? "its turn did not finish (rein was stopped)";
    return { type: "refused", reason: `checkpoint ${broken.n} is incomplete: ${why}; ${broken.before ? "run again with --force to restore what it holds" : "it cannot be restored"}`, files: [] };
  }
  const span = outsideSpan([...group].reverse());
  const outside = refuseOutside(span.map((f) => ({ path: f.path, expected: f.after })), request.force === true);
  if (outside) return outside;
  const between = await betweenTurns(opened.shadow, group);
  const moved = await move(opened.shadow, oldest.before, newest.after ?? "", [oldest.before, newest.after ?? ""], skipped(group), request.force === true, [newest.after_dirs ?? [], oldest.before_dirs], between);
  if (moved.type === "refused") return moved;
  for (const file of span) putOutside(opened.shadow.dir, file.path, file.before);
  moved.files.push(...span.map((f) => f.path));
  const at = Date.now();
  opened.shadow.keep([[`${request.sessionId}/${newest.n}/undone`, moved.current]]);
  for (const checkpoint of group) checkpoint.undone = { at, code: moved.current };
  writeJournal(opened.journal, opened.all);
  return done(group, moved.files, oldest.messages_before);
}

/** Redoes the last undo of the session's code. */
export async function redoCode(request: Omit<UndoRequest, "turns">): Promise<UndoOutcome> {
  const opened = open(request);
  const undone = opened.all.filter((c) => c.undone);
  if (!undone.length) return { type: "nothing", reason: "nothing of this session was undone: there is nothing to redo" };
  const last = Math.max(...undone.map((c) => c.undone!.at));
  const group = undone.filter((c) => c.undone!.at === last).reverse();
  const oldest = group.at(-1)!;
  const state = oldest.undone!.code;
  if (!state) return { type: "nothing", reason: "the last undo did not change the code: there is no code to redo" };
  const span = outsideSpan([...group].reverse()).filter((f) => f.after !== undefined);
  const outside = refuseOutside(span.map((f) => ({ path: f.path, expected: f.before })), request.force === true);
  if (outside) return outside;
  // A file that grew past the size limit has no new version to bring back: redo leaves it as it is.
  const grown = group.flatMap((c) => c.grown ?? []);
  const moved = await move(opened.shadow, state, oldest.before, [oldest.before, group[0]!.after ?? state], new Set([...skipped(group), ...grown]), request.force === true, [oldest.before_dirs, group[0]!.after_dirs ?? []]);
  if (moved.type === "refused") return moved;
  for (const file of span) putOutside(opened.shadow.dir, file.path, file.after ?? null);
  moved.files.push(...span.map((f) => f.path));
  for (const checkpoint of group) delete checkpoint.undone;
  writeJournal(opened.journal, opened.all);
  return done(group, moved.files, oldest.messages_before, grown);
}

/** A unified diff of what checkpoint `n`'s turn changed. */
export async function checkpointPatch(request: Pick<UndoRequest, "settings" | "workspace" | "sessionId">, n: number): Promise<string | undefined> {
  const opened = open(request);
  const checkpoint = opened.all.find((c) => c.n === n);
  if (!checkpoint?.before || !checkpoint.after) return undefined;
  return opened.shadow.patch(checkpoint.before, checkpoint.after);
}

type Moved = { type: "moved"; files: string[]; current: string } | { type: "refused"; reason: string; files: string[] };

/**
 * Brings the workspace from state `from` (what the turns left) to state `to`, for the files that
 * differ between them. `dirs`: the empty folders of `from` and of `to`.
 */
async function move(shadow: ShadowStore, to: string, from: string, span: [string, string], skip: ReadonlySet<string>, force: boolean, dirs: [string[], string[]], between: ReadonlySet<string> = new Set()): Promise<Moved> {
  const current = await shadow.snapshot();
  const base = from || current.tree;
  // The files the turns changed (all that an undo or a redo touches), and those changed since.
  const [changed, since] = await Promise.all([shadow.diff(span[0], span[1] || current.tree), shadow.diff(base, current.tree)]);
  const files = changed.map((c) => c.path).filter((p) => !skip.has(p));
  const touched = new Set(since.map((c) => c.path));
  const conflicts = files.filter((p) => touched.has(p) || between.has(p));
  if (conflicts.length && !force) {
    return { type: "refused", reason: `${conflicts.length === 1 ? "a file was" : `${conflicts.length} files were`} changed after the turn left ${conflicts.length === 1 ? "it" : "them"}; undo would overwrite that (run again with --force to overwrite)`, files: conflicts };
  }
  await shadow.restore(to, current.tree, files);
  // A folder `to` holds files in is not empty once they are back: only its empty ones need keeping.
  shadow.pruneDirs([...files, ...dirs[0].map((d) => `${d}/.`)], new Set(dirs[1]));
  return { type: "moved", files, current: current.tree };
}

/** The files someone else changed between two of these turns (newest first): undoing them all would lose that. */
async function betweenTurns(shadow: ShadowStore, group: readonly Checkpoint[]): Promise<Set<string>> {
  const gaps = group.slice(1).map((older, i) => [older.after, group[i]!.before] as const).filter(([a, b]) => a && b && a !== b);
  const diffs = await Promise.all(gaps.map(([a, b]) => shadow.diff(a!, b)));
  return new Set(diffs.flat().map((c) => c.path));
}

/** A refusal naming the outside files changed since the turn (or the undo) left them, unless forced. */
function refuseOutside(files: Parameters<typeof changedSince>[0], force: boolean): UndoOutcome | undefined {
  const changed = force ? [] : changedSince(files);
  if (!changed.length) return undefined;
  return { type: "refused", reason: `${changed.length === 1 ? "a file outside the workspace was" : `${changed.length} files outside the workspace were`} changed since rein last left ${changed.length === 1 ? "it" : "them"}; putting ${changed.length === 1 ? "it" : "them"} back would overwrite that (run again with --force to overwrite)`, files: changed };
}

function skipped(group: readonly Checkpoint[]): Set<string> {
  return new Set(group.flatMap((c) => c.uncovered));
}

function done(group: readonly Checkpoint[], files: string[], messagesBefore: number, notRedone: readonly string[] = []): UndoOutcome {
  return {
    type: "done",
    checkpoints: group.map((c) => c.n),
    files,
    uncovered: [...new Set([...group.flatMap((c) => c.uncovered), ...notRedone])],
    side_effects: [...new Set(group.flatMap((c) => c.side_effects))],
    messages_before: messagesBefore,
  };
}
