// The worktree figure: a worker's worktree (session/worktree.ts: git worktree add on a branch of its
// own, node_modules linked) for a 10,000-file repository, against `git worktree add` alone, in the
// same run; each made and removed in turn.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorktree, removeWorktree } from "../src/session/worktree.ts";
import { tempDir } from "../test/support/temp-dir.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

export type WorktreeFigures = { reinMs: number; gitMs: number; files: number };

const FILES = 10_000;

function sh(cwd: string, args: string[]): void {
  const r = Bun.spawnSync(args, { cwd, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${args.join(" ")}: ${r.stderr.toString().trim()}`);
}

export async function worktreeFigures(runs: number): Promise<WorktreeFigures> {
  const dir = tempDir("rein-bench-worktree-");
  const repo = join(dir.path, "repo");
  try {
    for (let i = 0; i < FILES; i++) {
      const folder = join(repo, "src", `d${Math.floor(i / 100)}`);
      if (i % 100 === 0) mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `f${i}.ts`), `export const v${i} = ${i};\n`);
    }
    // node_modules: ignored, large; linked into the worktree, never copied
    for (let i = 0; i < 2_000; i++) {
      const folder = join(repo, "node_modules", `p${Math.floor(i / 50)}`);
      if (i % 50 === 0) mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `m${i}.js`), "module.exports = 1;\n");
    }
    writeFileSync(join(repo, ".gitignore"), "node_modules/\n");
    for (const args of [["git", "init", "-q"], ["git", "add", "-A"], ["git", "-c", "user.email=b@e", "-c", "user.name=bench", "commit", "-qm", "files"]]) sh(repo, args);
    const data = join(dir.path, "data");
    const rein: number[] = [];
    const git: number[] = [];
    for (let i = 0; i <= runs; i++) {
      let start = performance.now();
      const wt = await createWorktree(repo, data, `bench-${i}`);
      const reinMs = performance.now() - start;
      await removeWorktree(wt);
      const plain = join(dir.path, `plain-${i}`);
      start = performance.now();
      sh(repo, ["git", "worktree", "add", "--quiet", "-b", `plain-${i}`, plain, "HEAD"]);
      const gitMs = performance.now() - start;
      sh(repo, ["git", "worktree", "remove", "--force", plain]);
      if (i > 0) rein.push(reinMs), git.push(gitMs); // the first is a warm-up
    }
    return { reinMs: median(rein), gitMs: median(git), files: FILES };
  } finally {
    dir.remove();
  }
}

export function worktreeRows(w: WorktreeFigures): Row[] {
  return [
    {
      figure: `a worker's worktree for a ${w.files.toLocaleString("en")}-file repository, node_modules linked, against \`git worktree add\` alone`,
      shown: `${w.reinMs.toFixed(0)} ms / ${w.gitMs.toFixed(0)} ms = ${(w.reinMs / w.gitMs).toFixed(2)}x`,
      value: w.reinMs / w.gitMs,
      target: { max: 3, text: "at most 3x" },
    },
  ];
}

if (import.meta.main) console.log(await worktreeFigures(Number(process.env.BENCH_RUNS ?? 5)));
