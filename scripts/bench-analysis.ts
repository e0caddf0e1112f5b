// Shell analysis in process: loading the tree-sitter-bash parser once (importing web-tree-sitter,
// compiling and instantiating both wasm files), then the median cost of analysing typical command
// lines through the parser (parse + walk, and with each command's option tables and paths), and of
// the lines of plain words analysed without it (literal-line.ts).
import { resolve } from "node:path";
import { commandPaths } from "../src/permission/command-paths.ts";
import { analyzeWith, loadShellParser } from "../src/permission/shell/analyze.ts";
import { analyzeLiteral } from "../src/permission/shell/literal-line.ts";
import { parseLine } from "../src/permission/shell/parse-line.ts";
import type { Step } from "./bench-parser-steps.ts";
import type { Floor, Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";
import { TARGET } from "./bench-targets.ts";

const ROOT = resolve(import.meta.dir, "..");

/** parseUs, parsePathsUs: tree-sitter's parse alone of the same lines, in the same run (the floor). */
/** literalUs: the lines of both lists that are plain words, analysed without the parser; literalParseUs, their parse alone. */
export type AnalysisFigures = {
  loadMs: number;
  medianUs: number;
  lineUs: number;
  parseUs: number;
  parsePathsUs: number;
  literalUs: number;
  literalParseUs: number;
  literalLines: number;
  /** The load's steps one after the other in fresh processes (bench-parser-steps.ts), the median of each. */
  steps: Step[];
};

/** Median of each step over `runs` fresh processes. */
function loadSteps(runs: number): Step[] {
  const all: Step[][] = [];
  for (let i = 0; i < runs; i++) {
    const proc = Bun.spawnSync([process.execPath, resolve(import.meta.dir, "bench-parser-steps.ts")], { stdout: "pipe", stderr: "pipe" });
    if (proc.exitCode === 0) all.push(JSON.parse(proc.stdout.toString()) as Step[]);
  }
  return (all[0] ?? []).map((first, i) => ({
    step: first.step,
    ms: median(all.map((run) => run[i]!.ms)),
    cpuMs: median(all.map((run) => run[i]!.cpuMs)),
    faults: median(all.map((run) => run[i]!.faults)),
  }));
}

const TYPICAL = [
  "ls -la", "git status", "git diff HEAD~1 -- src/", "npm test", "bun test test/unit", "cat package.json | grep version",
  "cd src && ls -la", "grep -rn TODO src/ | head -20", "rm -rf dist && bun build.ts", "find . -name '*.ts' -exec wc -l {} +",
  'echo "hello $HOME" > out.txt', "git add -A && git commit -m 'wip: fix'", "mkdir -p build && cd build && cmake .. && make -j4",
  "python3 -m pytest -x tests/", "sudo apt-get install -y ripgrep", 'for f in *.md; do wc -l "$f"; done',
  "cat <<EOF > notes.txt\nhello\nEOF", "docker ps --format '{{.Names}}'", "curl -s https://example.com | jq .", "ls ~/.config 2>/dev/null || true",
];

const WITH_PATHS = [
  "ls -la src", "git status", "grep -rn --include='*.ts' TODO src | head -20", "wc -l src/*.ts", "npm test -- --watch",
  "sed -n 1,20p README.md", "awk -F, 'NR>1 {print $2}' data.csv", "find . -name '*.ts' -not -path './node_modules/*'",
  "sort -t, -k3 -n data.csv | uniq -c", "rg -n --glob '!*.md' main src", "cat package.json | jq -r .version",
  'echo "$PATH"', 'basename "$(pwd)"', "date -u +%s", "diff -u a.ts b.ts", "du -sh --max-depth=1 .", "head -n 50 README.md",
  "cd src && ls -1", "node --version", "npm ls --depth=0",
];

/** Median µs of `work(line)` over the lines, `rounds` times each, the first `warm` rounds uncounted (the JIT). */
function perLine(lines: readonly string[], rounds: number, warm: number, work: (line: string) => void): number {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const line of lines) {
      const t = performance.now();
      work(line);
      if (round >= warm) samples.push((performance.now() - t) * 1000);
    }
  }
  return median(samples);
}

export async function analysisFigures(): Promise<AnalysisFigures> {
  const start = performance.now();
  const parser = await loadShellParser();
  const loadMs = performance.now() - start;
  const medianUs = perLine(TYPICAL, 700, 200, (line) => analyzeWith(parser, line, ROOT, "/home/bench"));
  const lineUs = perLine(WITH_PATHS, 400, 100, (line) => {
    for (const command of analyzeWith(parser, line, ROOT, "/home/bench").commands) commandPaths(command, "/home/bench");
  });
  const parseOnly = (line: string) => parseLine(parser, line)?.delete();
  const parseUs = perLine(TYPICAL, 700, 200, parseOnly);
  const parsePathsUs = perLine(WITH_PATHS, 400, 100, parseOnly);
  const plain = [...TYPICAL, ...WITH_PATHS].filter((line) => analyzeLiteral(line, ROOT, "/home/bench"));
  const literalUs = perLine(plain, 400, 100, (line) => analyzeLiteral(line, ROOT, "/home/bench"));
  const literalParseUs = perLine(plain, 400, 100, parseOnly);
  console.error(
    `shell analysis: parser load ${loadMs.toFixed(1)} ms, ${medianUs.toFixed(1)} µs median per line (parse alone ${parseUs.toFixed(1)}), ${lineUs.toFixed(1)} µs with option tables and paths (parse alone ${parsePathsUs.toFixed(1)}), ${literalUs.toFixed(1)} µs for the ${plain.length} lines of plain words without the parser (their parse alone ${literalParseUs.toFixed(1)})`,
  );
  const steps = loadSteps(5);
  console.error(`shell parser's load, step by step: ${steps.map((s) => `${s.step} ${s.ms.toFixed(1)} ms (CPU ${s.cpuMs.toFixed(1)}, ${s.faults} page faults)`).join("; ")}`);
  return { loadMs, medianUs, lineUs, parseUs, parsePathsUs, literalUs, literalParseUs, literalLines: plain.length, steps };
}

export function analysisRows(a: AnalysisFigures, bun: Floor): Row[] {
  const parse = (us: number): Floor => ({ name: "tree-sitter's parse alone of the same lines", value: us, unit: "µs" });
  return [
    {
      figure: "loading the shell parser (web-tree-sitter's JS and both wasm files, once per process, in process; a line of plain words needs none)",
      shown: `${a.loadMs.toFixed(1)} ms`,
      value: a.loadMs,
      floor: bun,
      target: { ratio: TARGET.parserLoad },
    },
    {
      figure: "... its steps one after the other in a fresh process (median of 5): wall ms / CPU ms / page faults",
      shown: a.steps.map((s) => `${s.step} ${s.ms.toFixed(1)} / ${s.cpuMs.toFixed(1)} / ${s.faults}`).join("; ") || "not measured",
    },
    {
      figure: `analysing a typical command line (parse + walk, median of ${TYPICAL.length} lines, in process)`,
      shown: `${a.medianUs.toFixed(1)} µs`,
      value: a.medianUs,
      floor: parse(a.parseUs),
      target: { ratio: TARGET.analysis },
    },
    {
      figure: `analysing a typical line with its option tables, globs and paths (parse + walk + commandPaths, median of ${WITH_PATHS.length} lines)`,
      shown: `${a.lineUs.toFixed(1)} µs`,
      value: a.lineUs,
      floor: parse(a.parsePathsUs),
      target: { ratio: TARGET.analysisPaths },
    },
    {
      figure: `analysing a line of plain words without the parser (split + resolve, median of the ${a.literalLines} such lines above)`,
      shown: `${a.literalUs.toFixed(1)} µs`,
      value: a.literalUs,
      floor: parse(a.literalParseUs),
    },
  ];
}

if (import.meta.main) console.log(await analysisFigures());
