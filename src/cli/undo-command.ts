// rein undo [-r ID | -c] [--turns N] [--code | --conversation] [--force] [--json]
// rein redo [-r ID | -c] [--force] [--json]
import { join } from "node:path";
import type { SessionRow, Store } from "../session/store.ts";
import { redoTurns, undoTurns, type UndoReport } from "../session/undo.ts";
import { UsageError } from "../app/args.ts";
import { openStore, type Context } from "../app/context.ts";
import { err } from "../app/output.ts";
import { write } from "./sessions-format.ts";

export async function undoCommand(ctx: Context, redo = false): Promise<number> {
  const store = openStore(ctx, (m) => err(`rein: ${m}\n`));
  try {
    const row = chosenSession(ctx, store);
    const checkpointsDir = join(ctx.paths.dataDir, "checkpoints");
    const { code, conversation } = ctx.args;
    if (code && conversation) throw new UsageError("--code and --conversation cannot be used together (give neither to undo both)");
    const report = redo
      ? await redoTurns(store, row, { checkpointsDir, force: ctx.args.force })
      : await undoTurns(store, row, { checkpointsDir, turns: ctx.args.turns ?? 1, code: !conversation, conversation: !code, force: ctx.args.force });
    if (ctx.args.json) write(`${JSON.stringify({ session_id: row.id, ...report })}\n`);
    else if (report.type === "done") write(describeUndo(report, redo));
    else err(`rein: ${refusal(report.reason, report.files)}\n`);
    return report.type === "done" ? 0 : 1;
  } finally {
    store.close();
  }
}

/** The session of -r ID, or the latest in this directory (-c, and the default). */
export function chosenSession(ctx: Context, store: Store): SessionRow {
  if (ctx.args.resume) {
    const found = store.findSession(ctx.args.resume);
    if (typeof found === "string") throw new UsageError(found);
    return found;
  }
  const latest = store.latestSession(ctx.cwd);
  if (!latest) throw new UsageError(`no session in ${ctx.cwd} (name one with -r ID; see rein sessions list)`);
  return latest;
}

/** Why an undo (or redo, or restore) did nothing, and the files that stopped it, one a line. */
export function refusal(reason: string, files: readonly string[]): string {
  return files.length ? `${reason}:\n${files.map((f) => `  ${f}`).join("\n")}` : reason;
}

/** What an undo (or redo) did, for a person: the files, and what it could not take back. */
export function describeUndo(report: Extract<UndoReport, { type: "done" }>, redo = false): string {
  const lines: string[] = [];
  const verb = redo ? "redone" : "undone";
  const code = report.code;
  if (code?.type === "done") {
    const turns = code.checkpoints.length === 1 ? "1 turn" : `${code.checkpoints.length} turns`;
    lines.push(`code of ${turns} ${verb}: ${code.files.length} file${code.files.length === 1 ? "" : "s"} ${redo ? "changed again" : "put back"}`);
    for (const file of code.files.slice(0, 20)) lines.push(`  ${file}`);
    if (code.files.length > 20) lines.push(`  ... and ${code.files.length - 20} more`);
    if (code.uncovered.length) lines.push(`not covered (over the size limit, left as they are): ${code.uncovered.join(", ")}`);
    if (code.side_effects.length) {
      lines.push(`not ${verb} (a file checkpoint cannot take these back):`);
      for (const effect of code.side_effects) lines.push(`  ${effect}`);
    }
  } else if (code) lines.push(code.reason);
  if (report.messages > 0) lines.push(`conversation ${redo ? "put back from" : "cut back to before"} "${report.prompt ?? ""}" (${report.messages} message${report.messages === 1 ? "" : "s"})`);
  return `${lines.join("\n")}\n`;
}
