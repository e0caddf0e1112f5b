// Searching a large tree: the glob and grep tools (in process, their whole run as the model's call
// makes it) against ripgrep alone on the same tree in the same run, alternating: `glob` of
// `**/*.md` against `rg --files -g '*.md' .`, `grep TODO` (files) against `rg -l TODO .`. The tree is
// scripts/bench-tree.ts's (100,000 files, about 400 MB; how it is made is written there).
import { readFileSync } from "node:fs";
import * as v from "valibot";
import glob from "../tools/glob.ts";
import grep from "../tools/grep.ts";
import type { Tool } from "../src/sdk.ts";
import { toolContext } from "../test/support/tool-context.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";
import { benchTree, TREE } from "./bench-tree.ts";

/** Goals of issue 37 item 5, as ratios to ripgrep in the same run. */
export const SEARCH_TARGET = { glob: 1.5, grep: 1.2 } as const;

/** Wall and CPU medians (ms). CPU is the process's own and its reaped children's: rg's threads, the
 * tool's rg for grep, the in-process walk for glob. */
type Pair = { tool: number; rg: number; toolCpu: number; rgCpu: number };
export type SearchFigures = { glob: Pair; grep: Pair; globLines: number; grepLines: number } | { skipped: string };
type Sample = { ms: number; cpu: number; lines: number };

/** CPU used so far by this process and the children it has reaped, in ms (children to 10 ms, from /proc). */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {}
  return (own.user + own.system) / 1000 + children;
}

async function measured(run: () => Promise<number>): Promise<Sample> {
  const cpu = cpuMs();
  const start = performance.now();
  const lines = await run();
  return { ms: performance.now() - start, cpu: cpuMs() - cpu, lines };
}

function toolRun(tool: Tool, input: unknown, cwd: string): Promise<Sample> {
  return measured(async () => {
    const result = await tool.run(v.parse(tool.input, input), toolContext(cwd));
    const output = typeof result === "string" ? result : result.output;
    if (typeof result !== "string" && result.isError) throw new Error(`${tool.name} failed: ${output}`);
    return output.split("\n").length;
  });
}

function rgRun(args: string[], cwd: string): Promise<Sample> {
  return measured(async () => {
    const proc = Bun.spawn(["rg", ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    await new Response(proc.stdout).arrayBuffer();
    if ((await proc.exited) !== 0) throw new Error(`rg ${args.join(" ")} failed`);
    return 0;
  });
}

export async function searchFigures(runs: number): Promise<SearchFigures> {
  if (!Bun.which("rg")) return { skipped: "not measured: ripgrep (rg) is not installed" };
  const root = benchTree();
  const samples = { globTool: [] as Sample[], globRg: [] as Sample[], grepTool: [] as Sample[], grepRg: [] as Sample[] };
  // One warm-up round reads the tree into the page cache. Then each pair in turn, the one that goes
  // first swapped every round: on a busy machine the second of two walks finds more of the tree's
  // inodes still cached.
  const pair = async <A, B>(first: boolean, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> => {
    if (first) {
      const x = await a();
      return [x, await b()];
    }
    const y = await b();
    return [await a(), y];
  };
  for (let i = -1; i < runs; i++) {
    const toolFirst = i % 2 === 0;
    const [g, gr] = await pair(toolFirst, () => toolRun(glob, { pattern: "**/*.md" }, root), () => rgRun(["--files", "-g", "*.md", "."], root));
    const [t, tr] = await pair(toolFirst, () => toolRun(grep, { pattern: "TODO" }, root), () => rgRun(["-l", "TODO", "."], root));
    if (i < 0) continue;
    samples.globTool.push(g);
    samples.globRg.push(gr);
    samples.grepTool.push(t);
    samples.grepRg.push(tr);
  }
  const pairOf = (tool: Sample[], rg: Sample[]): Pair => ({
    tool: median(tool.map((s) => s.ms)),
    rg: median(rg.map((s) => s.ms)),
    toolCpu: median(tool.map((s) => s.cpu)),
    rgCpu: median(rg.map((s) => s.cpu)),
  });
  const figures = {
    glob: pairOf(samples.globTool, samples.globRg),
    grep: pairOf(samples.grepTool, samples.grepRg),
    globLines: samples.globTool.at(-1)?.lines ?? 0,
    grepLines: samples.grepTool.at(-1)?.lines ?? 0,
  };
  console.error(`search: ${JSON.stringify(figures)}`);
  return figures;
}

export function searchRows(s: SearchFigures): Row[] {
  const tree = `a generated repository of ${TREE.files.toLocaleString("en")} files (~400 MB, scripts/bench-tree.ts)`;
  if ("skipped" in s) return [{ figure: `glob and grep on ${tree}`, shown: s.skipped }];
  return [
    {
      figure: `glob \`**/*.md\` (${TREE.md.toLocaleString("en")} matches, the first 100 shown) on ${tree}, in process`,
      shown: shown(s.glob),
      value: s.glob.tool,
      floor: { name: "`rg --files -g '*.md' .`", value: s.glob.rg, unit: "ms" },
      target: { ratio: SEARCH_TARGET.glob },
    },
    {
      figure: `grep \`TODO\` (files; ${(TREE.files / TREE.todoEvery).toLocaleString("en")} match, the first 100 shown) on that tree, in process`,
      shown: shown(s.grep),
      value: s.grep.tool,
      floor: { name: "`rg -l TODO .`", value: s.grep.rg, unit: "ms" },
      target: { ratio: SEARCH_TARGET.grep },
    },
  ];
}

/** Wall, then the CPU of both: on a loaded machine the wall ratio moves with the scheduler, the CPU one does not. */
function shown(p: Pair): string {
  return `${p.tool.toFixed(0)} ms (cpu ${p.toolCpu.toFixed(0)} ms; rg's ${p.rgCpu.toFixed(0)} ms, ${(p.toolCpu / p.rgCpu).toFixed(2)}x)`;
}

// `bun scripts/bench-search.ts`: only these rows.
if (import.meta.main) {
  const { reportTable } = await import("./bench-report.ts");
  console.log(reportTable(searchRows(await searchFigures(Number(process.env.BENCH_RUNS ?? 5)))).join("\n"));
}
