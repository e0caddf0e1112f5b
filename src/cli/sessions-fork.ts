// rein sessions fork ID [--at N]: a new session from the first N messages of another (default all).
import { newId } from "../session/ids.ts";
import type { Store } from "../session/store.ts";
import { UsageError } from "../app/args.ts";
import type { Context } from "../app/context.ts";
import { write } from "./sessions-format.ts";

export function fork(store: Store, idOrPrefix: string, ctx: Context, now = Date.now()): number {
  const found = store.findSession(idOrPrefix);
  if (typeof found === "string") throw new UsageError(found);
  const result = store.forkSession(found.id, ctx.args.at, newId("s", now), now);
  if (!result) throw new UsageError(`session ${found.id} disappeared while forking it; see: rein sessions list`);
  const { session, messages, requested } = result;
  if (ctx.args.json) return write(`${JSON.stringify({ id: session.id, from: found.id, messages, requested })}\n`);
  const cut =
    messages < requested
      ? ` (not ${requested}: the fork ends before message ${messages + 1}, a tool call whose results it would not have)`
      : "";
  return write(`forked session ${found.id} into ${session.id} with ${plural(messages)}${cut}\ncontinue it: rein -r ${session.id} -p "..."\n`);
}

function plural(n: number): string {
  return `${n} message${n === 1 ? "" : "s"}`;
}
