// The checkpoints of one session: a small JSON file beside the shadow store, rewritten whole (via a
// temporary file and a rename, so a killed process leaves the old or the new one, never half).
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { readOwnText } from "../sdk/own-file.ts";

const ChangeSchema = v.object({
  status: v.picklist(["added", "modified", "deleted", "renamed", "mode"]),
  path: v.string(),
  from: v.optional(v.string()),
});

const SavedSchema = v.object({ file: v.string(), sha256: v.string(), mode: v.number() });

/** A file outside the workspace that rein's file tools wrote: null is "no file there". */
const OutsideSchema = v.object({
  path: v.string(),
  before: v.nullable(SavedSchema),
  /** absent until the turn is over */
  after: v.optional(v.nullable(SavedSchema)),
});

const CheckpointSchema = v.object({
  n: v.number(),
  session_id: v.string(),
  /** the seq of the turn's `user` event, and how many messages the conversation had before it */
  seq: v.number(),
  messages_before: v.number(),
  at: v.number(),
  before: v.string(),
  before_dirs: v.array(v.string()),
  /** set once the turn is over; absent when rein stopped (or failed) before that */
  after: v.optional(v.string()),
  after_dirs: v.optional(v.array(v.string())),
  changed: v.optional(v.array(ChangeSchema)),
  uncovered: v.array(v.string()),
  /** files under the size limit before the turn and over it after: undo puts their old version back, redo cannot bring the new one */
  grown: v.optional(v.array(v.string())),
  outside: v.optional(v.array(OutsideSchema)),
  side_effects: v.array(v.string()),
  /** why the checkpoint is not whole (the workspace could not be read, the disk was full) */
  incomplete: v.optional(v.string()),
  /** set by an undo: the workspace as it was just before (what redo brings back) */
  undone: v.optional(
    v.object({
      at: v.number(),
      code: v.optional(v.string()),
      conversation: v.optional(v.string()),
    }),
  ),
});

export type Checkpoint = v.InferOutput<typeof CheckpointSchema>;
export type ChangeEntry = v.InferOutput<typeof ChangeSchema>;
export type SavedFile = v.InferOutput<typeof SavedSchema>;
export type OutsideFile = v.InferOutput<typeof OutsideSchema>;

const JournalSchema = v.object({ version: v.literal(1), checkpoints: v.array(CheckpointSchema) });

export function journalPath(workspaceDir: string, sessionId: string): string {
  return join(workspaceDir, "journal", `${sessionId}.json`);
}

/** The session's checkpoints, oldest first; a damaged file reads as none (it is kept aside). */
export function readJournal(path: string): Checkpoint[] {
  if (!existsSync(path)) return [];
  try {
    const parsed = v.safeParse(JournalSchema, JSON.parse(readOwnText(path)));
    if (parsed.success) return parsed.output.checkpoints;
  } catch {
    // fall through
  }
  renameSync(path, `${path}.damaged`);
  return [];
}

export function writeJournal(path: string, checkpoints: readonly Checkpoint[]): void {
  mkdirSync(join(path, ".."), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify({ version: 1, checkpoints }));
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
