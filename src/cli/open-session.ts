// Picks the session a run works in: a new one, the latest in this directory (-c), or one by id (-r).
import { chosenModel } from "../session/chosen-model.ts";
import { newId } from "../session/ids.ts";
import { Session, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";
import { UsageError } from "../app/args.ts";
import type { Context } from "../app/context.ts";

export function openSession(ctx: Context, store: Store, options: SessionOptions, warn?: (line: string) => void): Session {
  const { sessionId } = ctx.args;
  if (sessionId && !ctx.args.forkSession && (ctx.args.resume || ctx.args.continue)) {
    throw new UsageError("--session-id names a new session: with -c or -r it needs --fork-session (the fork gets that id)");
  }
  if (sessionId && store.getSession(sessionId)) throw new UsageError(`session ${sessionId} already exists: resume it with -r ${sessionId}`);
  const stored = ctx.args.resume ? found(store, ctx.args.resume) : ctx.args.continue ? latest(store, ctx.cwd) : undefined;
  if (!stored) return Session.create(ctx.cwd, options, undefined, sessionId);
  // --fork-session (Claude Code's): go on in a copy of the conversation under a new id; the original stays as it was.
  const row = ctx.args.forkSession ? store.forkSession(stored.id, undefined, sessionId ?? newId("s"))?.session : stored;
  if (!row) throw new UsageError(`session ${stored.id} disappeared while forking it; see: rein sessions list`);
  return resumeSession(row, options, ctx.args.model, warn);
}

function found(store: Store, idOrPrefix: string): SessionRow {
  const row = store.findSession(idOrPrefix);
  if (typeof row === "string") throw new UsageError(row);
  return row;
}

function latest(store: Store, cwd: string): SessionRow {
  const row = store.latestSession(cwd);
  if (!row) throw new UsageError(`no session to continue in ${cwd} (start one without -c)`);
  return row;
}

/**
 * A stored session opened again, with its model: an explicit --model wins; else the model chosen
 * inside the session with /model; else the configured one (in `options`). A chosen model that is no
 * longer usable is said, and the configured one used.
 */
export function resumeSession(row: SessionRow, options: SessionOptions, explicit: string | undefined, warn?: (line: string) => void): Session {
  const chosen = explicit ? undefined : chosenModel(row);
  if (!chosen || chosen === options.model) return Session.open(row, options);
  const problem = options.models?.problem?.(chosen);
  if (!problem) return Session.open(row, { ...options, model: chosen });
  warn?.(`session ${row.id} was switched to ${chosen} with /model, which cannot be used now (${problem}); it goes on with ${options.model}`);
  return Session.open(row, options);
}
