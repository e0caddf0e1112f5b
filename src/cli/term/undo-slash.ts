// /undo [code|conversation] [N] and /redo in the terminal: the same undo as `rein undo`.
import chalk from "chalk";
import type { Session } from "../../session/session.ts";
import type { Store } from "../../session/store.ts";
import { redoTurns, undoTurns } from "../../session/undo.ts";
import { describeUndo, refusal } from "../undo-command.ts";

const USAGE = "usage: /undo [code|conversation] [N] (both by default; N turns back, 1 by default), /redo";

/** What the command did, as the terminal prints it. */
export async function undoSlash(store: Store, session: Session, redo: boolean, rest: string): Promise<string> {
  const checkpointsDir = session.checkpointsDir;
  if (!checkpointsDir) return chalk.yellow("this session takes no checkpoints: there is nothing to undo");
  if (session.running) return chalk.yellow(`a turn is running; /${redo ? "redo" : "undo"} when it has finished`);
  const words = rest.split(/\s+/).filter(Boolean);
  const part = words.find((w) => w === "code" || w === "conversation");
  const count = words.find((w) => w !== part);
  if (redo ? words.length > 0 : (count !== undefined && !/^[1-9]\d*$/.test(count)) || words.length > 2) return chalk.yellow(USAGE);
  const report = redo
    ? await redoTurns(store, session.row, { checkpointsDir, force: false })
    : await undoTurns(store, session.row, { checkpointsDir, turns: Number(count ?? 1), code: part !== "conversation", conversation: part !== "code", force: false });
  if (report.type === "done") return chalk.dim(describeUndo(report, redo).trimEnd());
  const force = report.type === "refused" && report.files.length ? `\n(rein ${redo ? "redo" : "undo"} -r ${session.id} --force overwrites them)` : "";
  return chalk.yellow(`${refusal(report.reason, report.files)}${force}`);
}
