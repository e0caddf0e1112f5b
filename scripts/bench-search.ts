// Searching a large tree: the glob and grep tools (in process, their whole run as the model's call
// makes it) against ripgrep alone on the same tree in the same run, alternating: `glob` of
// `**/*.md` against `rg --files -g '*.md' .`, `grep TODO` (files) against `rg -l TODO .`. The tree is
// scripts/bench-tree.ts's (100,000 files, about 400 MB; how it is made is written there).
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

type Pair = { tool: number; rg: number };
export type SearchFigures = { glob: Pair; grep: Pair; globLines: number; grepLines: number } | { skipped: string };

async function toolMs(tool: Tool, input: unknown, cwd: string): Promise<{ ms: number; lines: number }> {
  const start = performance.now();
  const result = await tool.run(v.parse(tool.input, input), toolContext(cwd));
  const ms = performance.now() - start;
  const output = typeof result === "string" ? result : result.output;
  if (typeof result !== "string" && result.isError) throw new Error(`${tool.name} failed: ${output}`);
  return { ms, lines: output.split("\n").length };
}

async function rgMs(args: string[], cwd: string): Promise<number> {
  const start = performance.now();
  const proc = Bun.spawn(["rg", ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  await new Response(proc.stdout).arrayBuffer();
  if ((await proc.exited) !== 0) throw new Error(`rg ${args.join(" ")} failed`);
  return performance.now() - start;
}

export async function searchFigures(runs: number): Promise<SearchFigures> {
  if (!Bun.which("rg")) return { skipped: "not measured: ripgrep (rg) is not installed" };
  const root = benchTree();
  const samples = { globTool: [] as number[], globRg: [] as number[], grepTool: [] as number[], grepRg: [] as number[] };
  let globLines = 0;
  let grepLines = 0;
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
    const [g, gr] = await pair(toolFirst, () => toolMs(glob, { pattern: "**/*.md" }, root), () => rgMs(["--files", "-g", "*.md", "."], root));
    const [t, tr] = await pair(toolFirst, () => toolMs(grep, { pattern: "TODO" }, root), () => rgMs(["-l", "TODO", "."], root));
    if (i < 0) continue;
    samples.globTool.push(g.ms);
    samples.globRg.push(gr);
    samples.grepTool.push(t.ms);
    samples.grepRg.push(tr);
    globLines = g.lines;
    grepLines = t.lines;
  }
  const figures = {
    glob: { tool: median(samples.globTool), rg: median(samples.globRg) },
    grep: { tool: median(samples.grepTool), rg: median(samples.grepRg) },
    globLines,
    grepLines,
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
      shown: `${s.glob.tool.toFixed(0)} ms`,
      value: s.glob.tool,
      floor: { name: "`rg --files -g '*.md' .`", value: s.glob.rg, unit: "ms" },
      target: { ratio: SEARCH_TARGET.glob },
    },
    {
      figure: `grep \`TODO\` (files; ${(TREE.files / TREE.todoEvery).toLocaleString("en")} match, the first 100 shown) on that tree, in process`,
      shown: `${s.grep.tool.toFixed(0)} ms`,
      value: s.grep.tool,
      floor: { name: "`rg -l TODO .`", value: s.grep.rg, unit: "ms" },
      target: { ratio: SEARCH_TARGET.grep },
    },
  ];
}

// `bun scripts/bench-search.ts`: only these rows.
if (import.meta.main) {
  const { reportTable } = await import("./bench-report.ts");
  console.log(reportTable(searchRows(await searchFigures(Number(process.env.BENCH_RUNS ?? 5)))).join("\n"));
}
