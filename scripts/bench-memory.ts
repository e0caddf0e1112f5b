// The memory figure: what a 10-level hierarchy of instruction files adds to start-up (building the
// system prompt, in process) over a workspace with none. Each level has AGENTS.md and CLAUDE.md,
// one with an @import.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";
import { systemPrompt } from "../src/session/system-prompt.ts";

const LEVELS = 10;

export function instructionStartup(runs = 201): { noneMs: number; hierarchyMs: number; extraMs: number } {
  const root = mkdtempSync(join(tmpdir(), "rein-bench-instr-"));
  try {
    const none = join(root, "none");
    mkdirSync(none);
    const deep = join(root, "deep");
    let dir = deep;
    for (let level = 0; level < LEVELS; level++) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "AGENTS.md"), `Level ${level}: ${"use the house style. ".repeat(20)}\nSee @notes.md`);
      writeFileSync(join(dir, "notes.md"), `Notes for level ${level}.`);
      writeFileSync(join(dir, "CLAUDE.md"), `Claude notes for level ${level}.`);
      dir = join(dir, `l${level + 1}`);
    }
    const cwd = join(deep, ...Array.from({ length: LEVELS - 1 }, (_, i) => `l${i + 1}`));
    const config = join(root, "config", "AGENTS.md");
    const time = (projectRoot: string, at: string) => medianMs(runs, () => systemPrompt({ projectRoot, cwd: at, userInstructions: config, home: root }));
    const noneMs = time(none, none);
    const hierarchyMs = time(deep, cwd);
    return { noneMs, hierarchyMs, extraMs: hierarchyMs - noneMs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function instructionStartupRows(figure: ReturnType<typeof instructionStartup>): Row[] {
  return [
    {
      figure: `start-up with a ${LEVELS}-level hierarchy of instruction files (AGENTS.md + CLAUDE.md + an import each), over none (system prompt built in process)`,
      shown: `+${figure.extraMs.toFixed(3)} ms (${figure.hierarchyMs.toFixed(3)} vs ${figure.noneMs.toFixed(3)} ms)`,
      value: figure.extraMs,
      target: { max: 2, text: "at most 2 ms more" },
    },
  ];
}

/** Median milliseconds of `runs` calls of `once`, after one warm-up call. */
function medianMs(runs: number, once: () => unknown): number {
  once();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    once();
    samples.push(performance.now() - started);
  }
  return median(samples);
}
