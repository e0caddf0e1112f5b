// rein sessions rm ID | trash | restore ID | prune [--older-than D] [--yes]. rm only moves to the
// trash; only prune removes, and only with --yes (without it, it says what it would remove).
import { join } from "node:path";
import { forgetCheckpoints } from "../session/undo.ts";
import { TRASH_KEEP_MS, type SessionRow, type Store } from "../session/store.ts";
import { UsageError } from "../app/args.ts";
import type { Context } from "../app/context.ts";
import { duration, sessionLine, write } from "./sessions-format.ts";

const KEEP_DAYS = TRASH_KEEP_MS / 86_400_000;

export function trashOne(store: Store, idOrPrefix: string, now = Date.now()): number {
  const found = live(store, idOrPrefix);
  store.trashSession(found.id, now);
  return write(
    `moved session ${found.id} to the trash (rein sessions restore ${found.id} brings it back; ` +
      `rein sessions prune removes it after ${KEEP_DAYS} days)\n`,
  );
}

export function listTrash(store: Store, json: boolean): number {
  const rows = store.listTrash();
  if (json) return write(`${JSON.stringify(rows)}\n`);
  if (rows.length === 0) return write("the trash is empty\n");
  return write(`${rows.map((r) => sessionLine(r, "trashed")).join("\n")}\n`);
}

export function restoreOne(store: Store, idOrPrefix: string): number {
  const found = store.findSession(idOrPrefix, "trash");
  if (typeof found === "string") throw new UsageError(found);
  store.restoreSession(found.id);
  return write(`restored session ${found.id}\n`);
}

export function prune(store: Store, ctx: Context, now = Date.now()): number {
  const { olderThan, yes, json } = ctx.args;
  const rows = yes ? store.pruneSessions(olderThan, now) : store.prunable(olderThan, now);
  if (yes) forgetCheckpoints(join(ctx.paths.dataDir, "checkpoints"), rows);
  if (json) return write(`${JSON.stringify({ dry_run: !yes, sessions: rows })}\n`);
  if (rows.length === 0) return write(`nothing to prune: ${scope(olderThan)}\n`);
  const lines = rows.map((r) => `${sessionLine(r, r.deleted_at == null ? "updated" : "trashed")}  (${reason(r, olderThan)})`);
  if (yes) return write(`removed ${count(rows)}:\n${lines.join("\n")}\n`);
  return write(`would remove ${count(rows)} (nothing was removed):\n${lines.join("\n")}\nrun again with --yes to remove ${rows.length === 1 ? "it" : "them"}\n`);
}

function live(store: Store, idOrPrefix: string): SessionRow {
  const found = store.findSession(idOrPrefix);
  if (typeof found === "string") throw new UsageError(found);
  return found;
}

function scope(olderThan: number | undefined): string {
  const trash = `nothing in the trash for more than ${KEEP_DAYS} days`;
  if (olderThan === undefined) return `${trash} (add --older-than D, e.g. 30d, to remove old sessions too)`;
  return `no session last updated more than ${duration(olderThan)} ago, ${trash}`;
}

function reason(row: SessionRow, olderThan: number | undefined): string {
  if (row.deleted_at == null) return `last updated more than ${duration(olderThan ?? 0)} ago`;
  return `in the trash for more than ${KEEP_DAYS} days`;
}

function count(rows: SessionRow[]): string {
  return `${rows.length} session${rows.length === 1 ? "" : "s"}`;
}
