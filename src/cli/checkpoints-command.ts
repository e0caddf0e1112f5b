// rein checkpoints list | diff N | restore N [--force] [-r ID | -c] [--json]
import { join } from "node:path";
import { restoreCheckpoint, sessionCheckpointPatch, sessionCheckpoints, type Checkpoint } from "../session/undo.ts";
import { UsageError } from "../app/args.ts";
import { openStore, type Context } from "../app/context.ts";
import { err } from "../app/output.ts";
import { stamp, write } from "./sessions-format.ts";
import { chosenSession, describeUndo, refusal } from "./undo-command.ts";

const ACTIONS = "rein checkpoints list | diff N | restore N [--force]";

export async function checkpointsCommand(rest: string[], ctx: Context): Promise<number> {
  const [action = "list", arg] = rest;
  if (!["list", "diff", "restore"].includes(action)) throw new UsageError(`unknown action "${action}" (${ACTIONS})`);
  const store = openStore(ctx, (m) => err(`rein: ${m}\n`));
  try {
    const row = chosenSession(ctx, store);
    const dir = join(ctx.paths.dataDir, "checkpoints");
    if (action === "list") return list(sessionCheckpoints(row, dir), ctx.args.json);
    const n = checkpointNumber(arg, action);
    if (!sessionCheckpoints(row, dir).some((c) => c.n === n)) throw new UsageError(`session ${row.id} has no checkpoint ${n} (see rein checkpoints list)`);
    if (action === "diff") {
      const patch = await sessionCheckpointPatch(row, dir, n);
      if (patch === undefined) throw new UsageError(`checkpoint ${n} is incomplete: its turn did not finish, so what it changed is not known`);
      return write(patch || "the turn changed no file\n");
    }
    const outcome = await restoreCheckpoint(store, row, dir, n, ctx.args.force);
    if (ctx.args.json) write(`${JSON.stringify({ session_id: row.id, ...outcome })}\n`);
    else if (outcome.type === "done") write(describeUndo({ type: "done", code: outcome, messages: 0 }));
    else err(`rein: ${refusal(outcome.reason, outcome.type === "refused" ? outcome.files : [])}\n`);
    return outcome.type === "done" ? 0 : 1;
  } finally {
    store.close();
  }
}

function checkpointNumber(arg: string | undefined, action: string): number {
  if (!arg || !/^\d+$/.test(arg) || Number(arg) < 1) throw new UsageError(`rein checkpoints ${action} needs a checkpoint number (see rein checkpoints list)`);
  return Number(arg);
}

function list(checkpoints: readonly Checkpoint[], json: boolean): number {
  if (json) return write(`${JSON.stringify(checkpoints)}\n`);
  if (!checkpoints.length) return write("no checkpoints in this session (no turn of it changed the workspace)\n");
  const lines = checkpoints.map((c) => {
    const changed = c.changed ? `${c.changed.length} file${c.changed.length === 1 ? "" : "s"} changed` : "unfinished";
    const flags = [c.incomplete ? `incomplete: ${c.incomplete}` : "", c.undone ? "undone" : "", c.side_effects.length ? `${c.side_effects.length} side effect${c.side_effects.length === 1 ? "" : "s"}` : ""].filter(Boolean);
    const files = (c.changed ?? []).slice(0, 5).map((f) => `    ${f.status} ${f.from ? `${f.from} -> ` : ""}${f.path}`);
    return [`${c.n}  ${stamp(c.at)}  ${changed}${flags.length ? ` (${flags.join("; ")})` : ""}`, ...files].join("\n");
  });
  return write(`${lines.join("\n")}\n`);
}
