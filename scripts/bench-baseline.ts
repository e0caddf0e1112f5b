// rein at efee05c, the last commit before the extension wave, measured in the same run as today's
// build: the bench checks the commit out with `git worktree add` into a scratch folder, builds it
// there with its own build.ts (node_modules linked from this checkout: its dependencies are a subset
// of today's, at the same versions) and keeps the binary in a cache between runs
// ($REIN_BENCH_CACHE, else $XDG_CACHE_HOME/rein-bench, ~/.cache/rein-bench). Each binary gets a
// data folder of its own: today's schema is newer, and the old binary exits early on a newer one.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeServer } from "../test/fake/server.ts";
import type { Row } from "./bench-report.ts";
import { echoTurns, median, peakRss, RUNS, TURNS } from "./bench-run.ts";

export const BASELINE = "efee05c";
/** Item 1 of issue 37: with nothing configured, within this much of the baseline. */
export const LEAN_RATIO = 1.1;

const ROOT = resolve(import.meta.dir, "..");

const git = (...args: string[]) => Bun.spawnSync(["git", "-C", ROOT, ...args], { stdout: "pipe", stderr: "pipe" });

/**
 * rein's binary at `commit` (the baseline unless told; built now, or from the cache, keyed by the
 * commit's full id), or why it could not be built (one line).
 */
export function baselineBinary(commit = BASELINE): string | { skipped: string } {
  const cacheDir = process.env.REIN_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "rein-bench");
  const full = git("rev-parse", "--verify", `${commit}^{commit}`);
  if (full.exitCode !== 0) return { skipped: `${commit} is not a commit of this repository` };
  const id = full.stdout.toString().trim();
  const bin = join(cacheDir, commit === BASELINE ? `rein-${BASELINE}` : `rein-${id.slice(0, 12)}`);
  if (existsSync(bin) && Bun.spawnSync([bin, "--version"]).exitCode === 0) return bin;
  const scratch = mkdtempSync(join(tmpdir(), "rein-bench-baseline-"));
  const tree = join(scratch, id.slice(0, 12));
  try {
    const added = git("worktree", "add", "--detach", tree, id);
    if (added.exitCode !== 0) return { skipped: `could not check out ${commit}: ${added.stderr.toString().trim().split("\n").pop()}` };
    const missing = missingDependency(tree);
    if (missing) return { skipped: `${commit} needs ${missing}, which this checkout's node_modules lacks` };
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    console.error(`baseline: building ${commit} in ${tree}`);
    const build = Bun.spawnSync(["bun", "build.ts"], { cwd: tree, stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) return { skipped: `the build of ${commit} failed (exit ${build.exitCode})` };
    mkdirSync(cacheDir, { recursive: true });
    copyFileSync(join(tree, "dist/rein"), bin);
    return bin;
  } finally {
    git("worktree", "remove", "--force", tree);
    rmSync(scratch, { recursive: true, force: true });
    git("worktree", "prune");
  }
}

/** A dependency of the baseline that node_modules here does not hold at the version it names. */
function missingDependency(tree: string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(tree, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const wanted = { ...pkg.dependencies, ...pkg.devDependencies };
  for (const [name, version] of Object.entries(wanted)) {
    const file = join(ROOT, "node_modules", name, "package.json");
    const have = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version : undefined;
    if (!version.startsWith("npm:") && (have === undefined || !Bun.semver.satisfies(have, version))) return `${name}@${version}`;
  }
  return undefined;
}

type Run = { ms: number; cpuMs: number };
type Pair = { now: number; base: number };
export type LeanFigures = { oneShotMs: Pair; oneShotCpuMs: Pair; peakMiB: Pair; sessionMs: Pair; sessionCpuMs: Pair; optimized: Pair };

/** One run of `bin args` against the fake after scripting it: wall and CPU (user + system) time. */
async function run(bin: string, args: string[], env: Record<string, string>, script: () => void): Promise<Run> {
  script();
  const start = performance.now();
  const proc = Bun.spawn([bin, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`${bin} ${args.join(" ")} exited ${code}: ${err}${out}`);
  const cpu = proc.resourceUsage()?.cpuTime;
  return { ms, cpuMs: cpu ? Number(cpu.user + cpu.system) / 1000 : 0 };
}

/** Today's binary and the baseline's in turn (now, base, now, base, ...), medians of each. */
async function alternate(runs: number, once: (which: "now" | "base") => Promise<Run>): Promise<{ ms: Pair; cpuMs: Pair }> {
  await once("now");
  await once("base");
  const samples = { now: [] as Run[], base: [] as Run[] };
  for (let i = 0; i < runs; i++) {
    samples.now.push(await once("now"));
    samples.base.push(await once("base"));
  }
  const pick = (key: keyof Run): Pair => ({ now: median(samples.now.map((s) => s[key])), base: median(samples.base.map((s) => s[key])) });
  return { ms: pick("ms"), cpuMs: pick("cpuMs") };
}

/**
 * With nothing configured: the one-shot `-p "say ok"` (wall, CPU, peak memory) and a session of
 * TURNS `echo N` turns (wall, CPU), today's build against the baseline, alternating.
 */
export async function leanFigures(
  now: { bin: string; env: Record<string, string> },
  base: { bin: string; env: Record<string, string> },
  fake: FakeServer,
  sessionRuns: number,
): Promise<LeanFigures> {
  const ok = () => fake.script({ reply: [{ type: "text", text: "ok" }] });
  const echoes = () => fake.script(...echoTurns(TURNS));
  const side = (which: "now" | "base") => (which === "now" ? now : base);
  const oneShot = await alternate(RUNS, (w) => run(side(w).bin, ["-p", "say ok"], side(w).env, ok));
  const session = await alternate(sessionRuns, (w) => run(side(w).bin, ["-p", "run the echoes"], side(w).env, echoes));
  const rss = { now: [] as number[], base: [] as number[] };
  const fresh = freshCopies({ now: now.bin, base: base.bin });
  try {
    for (let i = 0; i < 5; i++) {
      for (const w of ["now", "base"] as const) {
        ok();
        const bytes = await peakRss([fresh.bins[w], "-p", "say ok"], side(w).env);
        if (bytes) rss[w].push(bytes / 2 ** 20);
      }
    }
  } finally {
    rmSync(fresh.dir, { recursive: true, force: true });
  }
  const optimized = { now: [] as number[], base: [] as number[] };
  for (let i = 0; i < 5; i++) {
    for (const w of ["now", "base"] as const) {
      ok();
      optimized[w].push(await optimizingCompiles(side(w).bin, side(w).env));
    }
  }
  const figures = {
    optimized: { now: mean(optimized.now), base: mean(optimized.base) },
    oneShotMs: oneShot.ms,
    oneShotCpuMs: oneShot.cpuMs,
    peakMiB: { now: rss.now.length ? median(rss.now) : 0, base: rss.base.length ? median(rss.base) : 0 },
    sessionMs: session.ms,
    sessionCpuMs: session.cpuMs,
  };
  console.error(`lean: ${JSON.stringify(figures)}`);
  return figures;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/**
 * How many functions JavaScriptCore compiled with its optimizing JIT (DFG) in one `-p "say ok"`, as
 * its own report says (BUN_JSC_reportDFGCompileTimes). The first such compile of a process costs a
 * one-shot about 2 MiB of peak memory (the compiler's code paged in, its work) and its CPU: a start
 * that runs a small function a few hundred times (a map callback per rule, a schema per field) pays it.
 */
async function optimizingCompiles(bin: string, env: Record<string, string>): Promise<number> {
  const proc = Bun.spawn([bin, "-p", "say ok"], { env: { ...env, BUN_JSC_reportDFGCompileTimes: "true" }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${bin} -p "say ok" exited ${code}: ${err}${out}`);
  return `${out}\n${err}`.split("\n").filter((line) => / using DFG with /.test(line)).length;
}

/**
 * Both binaries copied anew, so that both are wholly in the page cache when their peak is taken: most
 * of a one-shot's resident memory is the binary's own pages, and the kernel maps a touched page's
 * cached neighbours with it, so the same binary peaks ~5 MiB lower when part of it was evicted (a
 * baseline cached hours ago) than just written (today's fresh build).
 */
function freshCopies(bins: { now: string; base: string }): { dir: string; bins: { now: string; base: string } } {
  const dir = mkdtempSync(join(tmpdir(), "rein-bench-peak-"));
  const copy = (bin: string, name: string) => {
    const to = join(dir, name);
    copyFileSync(bin, to);
    chmodSync(to, 0o755);
    return to;
  };
  return { dir, bins: { now: copy(bins.now, "rein-now"), base: copy(bins.base, "rein-base") } };
}

/** Item 1's rows: each against the baseline's figure of the same run, within LEAN_RATIO. */
export function leanRows(l: LeanFigures | { skipped: string }, base = BASELINE, ratio = LEAN_RATIO): Row[] {
  if ("skipped" in l) return [{ figure: `nothing configured, against rein at ${base}`, shown: `not measured: ${l.skipped}` }];
  const row = (figure: string, pair: Pair, unit: "ms" | "MiB"): Row => {
    const floor = { name: base, value: pair.base, unit };
    return {
      figure,
      shown: `${pair.now.toFixed(1)} ${unit}`,
      value: pair.now,
      baseline: { shown: `${pair.base.toFixed(1)} ${unit}`, value: pair.base },
      floor,
      target: { ratio },
    };
  };
  return [
    row(`nothing configured: one-shot \`-p "say ok"\` wall (median of ${RUNS}, alternating with ${base})`, l.oneShotMs, "ms"),
    row("nothing configured: one-shot CPU (user + system)", l.oneShotCpuMs, "ms"),
    row("nothing configured: one-shot peak memory (max RSS, GNU time, median of 5)", l.peakMiB, "MiB"),
    row(`nothing configured: session of ${TURNS} \`echo N\` turns, CPU (user + system)`, l.sessionCpuMs, "ms"),
    { ...row(`nothing configured: session of ${TURNS} \`echo N\` turns, wall`, l.sessionMs, "ms"), target: undefined },
    {
      figure: "nothing configured: one-shot's functions compiled by JavaScriptCore's optimizing JIT (BUN_JSC_reportDFGCompileTimes, mean of 5)",
      shown: l.optimized.now.toFixed(1),
      value: l.optimized.now,
      baseline: { shown: l.optimized.base.toFixed(1), value: l.optimized.base },
      target: { max: 0, text: "none (the first costs a one-shot ~2 MiB of peak memory)" },
    },
  ];
}

/** `rows` with the baseline's figure of the row of the same name, where the baseline measured it. */
export function withBaseline(rows: Row[], baseRows: Row[]): Row[] {
  const byFigure = new Map(baseRows.map((r) => [r.figure, r]));
  return rows.map((r) => {
    const base = byFigure.get(r.figure);
    if (!base || r.baseline) return r;
    return { ...r, baseline: { shown: base.shown, ...(base.value !== undefined ? { value: base.value } : {}) } };
  });
}

// `bun scripts/bench-baseline.ts`: only these rows, dist/rein as built (no build here) against the
// baseline. `bun scripts/bench-baseline.ts OLD NEW`: the same rows for commit NEW against commit OLD
// (both built, or taken from the cache), each within 1.05x: a step that must not make rein slower.
if (import.meta.main) {
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const { benchEnv } = await import("./bench-proc.ts");
  const { reportTable } = await import("./bench-report.ts");
  const [old, young] = process.argv.slice(2);
  const pair = old && young ? { base: old, now: baselineBinary(young), bin: baselineBinary(old), ratio: 1.05 } : { base: BASELINE, now: join(ROOT, "dist/rein"), bin: baselineBinary(), ratio: LEAN_RATIO };
  const fake = await startFakeAnthropic();
  const homes = [mkdtempSync(join(tmpdir(), "rein-bench-now-")), mkdtempSync(join(tmpdir(), "rein-bench-base-"))] as const;
  try {
    const lean = typeof pair.bin !== "string" ? pair.bin
      : typeof pair.now !== "string" ? pair.now
      : await leanFigures({ bin: pair.now, env: benchEnv(homes[0], fake.url) }, { bin: pair.bin, env: benchEnv(homes[1], fake.url) }, fake, Math.max(5, Math.floor(RUNS / 2)));
    console.log(reportTable(leanRows(lean, pair.base, pair.ratio), pair.base).join("\n"));
  } finally {
    await fake.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  }
}
