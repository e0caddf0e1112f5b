// Picks the session a run works in: a new one, the latest in this directory (-c), or one by id (-r).
import { Session, type SessionOptions } from "../session/session.ts";
import type { Store } from "../session/store.ts";
import { UsageError } from "./args.ts";
import type { Context } from "./context.ts";

export function openSession(ctx: Context, store: Store, options: SessionOptions): Session {
  if (ctx.args.resume) {
    const found = store.findSession(ctx.args.resume);
    if (typeof found === "string") throw new UsageError(found);
    return Session.open(found, options);
  }
  if (ctx.args.continue) {
    const latest = store.latestSession(ctx.cwd);
    if (!latest) throw new UsageError(`no session to continue in ${ctx.cwd} (start one without -c)`);
    return Session.open(latest, options);
  }
  return Session.create(ctx.cwd, options);
}
