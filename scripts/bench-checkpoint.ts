// Checkpoint figures, in process with the system's git: on a 10,000-file workspace, the cost a turn
// adds when it changed 3 files (the checkpoint before its first change plus the one after it), by a
// shell command (anything may have changed: every file's stat is read after it) and by three calls
// of rein's write tool (only those files are read); the cost of a turn that changed nothing (no call
// that may change files: no checkpoint is taken); and the time to undo a 100-file change.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TurnCheckpoints } from "../src/checkpoint/turn.ts";
import { undoCode } from "../src/checkpoint/undo.ts";
import { median } from "./bench-run.ts";
import type { Row } from "./bench-report.ts";

export type CheckpointFigures = { files: number; changedTurnMs: number; toolTurnMs: number; idleTurnMs: number; undo100Ms: number };

export async function checkpointFigures(files = 10_000, runs = 9): Promise<CheckpointFigures> {
  const root = mkdtempSync(join(tmpdir(), "rein-bench-cp-"));
  try {
    const cwd = join(root, "ws");
    for (let i = 0; i < files; i++) {
      if (i % 100 === 0) mkdirSync(join(cwd, `d${i / 100}`), { recursive: true });
      writeFileSync(join(cwd, `d${Math.floor(i / 100)}`, `f${i}.txt`), `file ${i}\n`);
    }
    const settings = { dir: join(root, "checkpoints"), capBytes: 0 };
    const turns = new TurnCheckpoints(settings, cwd, "s_bench");
    const turn = async (change: (k: number) => void, k: number, changes: boolean) => {
      const started = performance.now();
      turns.begin(k, 0);
      if (changes) await turns.before({ readOnly: false, requests: [] });
      change(k);
      await turns.end();
      return performance.now() - started;
    };
    await turn(() => {}, 0, true); // the first checkpoint reads every file once
    const paths = [1, 2, 3].map((j) => join(cwd, `d${j}`, `f${j * 100}.txt`));
    const three = (k: number) => paths.forEach((path) => writeFileSync(path, `turn ${k}\n`));
    const changed: number[] = [];
    const tool: number[] = [];
    const idle: number[] = [];
    for (let k = 1; k <= runs; k++) changed.push(await turn(three, k, true));
    for (let k = 1; k <= runs; k++) {
      const started = performance.now();
      turns.begin(runs + k, 0);
      for (const path of paths) {
        await turns.before({ readOnly: false, tool: "write", requests: [{ permission: "edit", pattern: path }] });
        writeFileSync(path, `write ${k}\n`);
      }
      await turns.end();
      tool.push(performance.now() - started);
    }
    for (let k = 1; k <= runs; k++) idle.push(await turn(() => {}, 2 * runs + k, false));
    const undos: number[] = [];
    for (let k = 1; k <= 5; k++) {
      await turn((n) => {
        for (let j = 0; j < 100; j++) writeFileSync(join(cwd, `d${j}`, `f${j * 100 + 1}.txt`), `big change ${n}\n`);
      }, 100 + k, true);
      const started = performance.now();
      const outcome = await undoCode({ settings, workspace: cwd, sessionId: "s_bench", turns: 1 });
      undos.push(performance.now() - started);
      if (outcome.type !== "done" || outcome.files.length !== 100) throw new Error(`the bench undo did not put back 100 files: ${JSON.stringify(outcome).slice(0, 200)}`);
    }
    return { files, changedTurnMs: median(changed), toolTurnMs: median(tool), idleTurnMs: median(idle), undo100Ms: median(undos) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function checkpointRows(checkpoints: CheckpointFigures): Row[] {
  return [
    {
      figure: `checkpoints on a ${checkpoints.files}-file workspace: a turn whose shell command changed 3 files (before and after)`,
      shown: `${checkpoints.changedTurnMs.toFixed(1)} ms`,
      value: checkpoints.changedTurnMs,
      target: { max: 50, text: "at most 50 ms" },
    },
    {
      figure: "... a turn that changed 3 files with rein's write tool (3 calls)",
      shown: `${checkpoints.toolTurnMs.toFixed(1)} ms`,
      value: checkpoints.toolTurnMs,
      target: { max: 50, text: "at most 50 ms" },
    },
    {
      figure: "... a turn that changed nothing (no call that may change files)",
      shown: `${checkpoints.idleTurnMs.toFixed(3)} ms`,
      value: checkpoints.idleTurnMs,
      target: { max: 1, text: "at most 1 ms" },
    },
    { figure: "... undoing a 100-file change", shown: `${checkpoints.undo100Ms.toFixed(1)} ms`, value: checkpoints.undo100Ms, target: { max: 200, text: "under 200 ms" } },
  ];
}

if (import.meta.main) console.log(JSON.stringify(await checkpointFigures()));
