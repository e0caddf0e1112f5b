// What provenance and taint tracking add to a tool turn (issue 38): the session's own work per tool
// call (the result's provenance, the taint check of the call's requests, in a tainted session so
// every check runs its sink rules) timed in process over many calls, as a share of the per-turn
// time measured in the same run.
import { SessionTaint } from "../src/session/taint.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

const CALLS = 20_000;

export function taintFigures(): { perCallUs: number } {
  const ctx = { cwd: "/w", workspace: "/w", home: "/home/u", reinDirs: ["/home/u/.local/share/rein"], trustedMcp: () => false };
  const taint = new SessionTaint(ctx, () => ({ sources: [{ kind: "web", source: "https://example.com/page", turn: 1 }], cleared: [] }));
  const requests = [
    { permission: "bash", pattern: "echo 1", always: ["echo *"] },
    { permission: "read", pattern: "/w/src/a.ts", always: ["/w/src/a.ts"] },
  ];
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) {
      taint.observe("bash", { command: "echo 1" }, undefined, false, i);
      taint.gate(requests);
    }
    runs.push(((performance.now() - start) * 1000) / CALLS);
  }
  return { perCallUs: median(runs) };
}

export function taintRows(f: { perCallUs: number }, perTurnMs: number): Row[] {
  const withTaint = perTurnMs + f.perCallUs / 1000;
  return [
    {
      figure: "provenance and taint per tool call (in process, a tainted session: every call's sinks checked), added to the per-turn time",
      shown: `${f.perCallUs.toFixed(1)} µs per call (${((withTaint / perTurnMs - 1) * 100).toFixed(2)}% of a tool turn)`,
      value: withTaint,
      floor: { name: "the tool turn", value: perTurnMs, unit: "ms" },
      target: { ratio: 1.02 },
    },
  ];
}

if (import.meta.main) console.log(JSON.stringify(taintFigures()));
