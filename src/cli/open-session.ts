// Picks the session a run works in: a new one, the latest in this directory (-c), or one by id (-r).
import { chosenModel } from "../session/chosen-model.ts";
import { Session, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";
import { UsageError } from "./args.ts";
import type { Context } from "./context.ts";

export function openSession(ctx: Context, store: Store, options: SessionOptions, warn?: (line: string) => void): Session {
  if (ctx.args.resume) {
    const found = store.findSession(ctx.args.resume);
    if (typeof found === "string") throw new UsageError(found);
    return resumeSession(found, options, ctx.args.model, warn);
  }
  if (ctx.args.continue) {
    const latest = store.latestSession(ctx.cwd);
    if (!latest) throw new UsageError(`no session to continue in ${ctx.cwd} (start one without -c)`);
    return resumeSession(latest, options, ctx.args.model, warn);
  }
  return Session.create(ctx.cwd, options);
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
