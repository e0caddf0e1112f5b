// How the benchmarks time a process: wall time of a fresh process (spawn included), its peak RSS
// from GNU time, and medians over runs after a warm-up.
import { existsSync } from "node:fs";

/** `cpuMs`: user and system time of the process (its threads included), less at the mercy of a busy machine than the wall time */
export type Sample = { ms: number; rssBytes: number; cpuMs: number };

export const RUNS = Number(process.env.BENCH_RUNS ?? 21);
/** Tool turns in a measured session. */
export const TURNS = 20;

// GNU time reports the child's own peak RSS; Bun's resourceUsage() can include the parent's image
// from before exec. Time is measured without the wrapper.
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

export async function runCommand(command: string[], env: Record<string, string>, cwd?: string): Promise<Sample> {
  const start = performance.now();
  const proc = Bun.spawn(command, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}: ${err}${out}`);
  const usage = proc.resourceUsage();
  const cpuMs = usage ? (Number(usage.cpuTime.user) + Number(usage.cpuTime.system)) / 1000 : 0;
  return { ms, rssBytes: GNU_TIME ? 0 : (usage?.maxRSS ?? 0), cpuMs };
}

/** Peak RSS of one run, in bytes, from GNU time when it is installed. */
export async function peakRss(command: string[], env: Record<string, string>, cwd?: string): Promise<number | undefined> {
  if (!GNU_TIME) return undefined;
  const proc = Bun.spawn([GNU_TIME, "-f", "rss=%M", ...command], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [err] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const kb = /rss=(\d+)/.exec(err)?.[1];
  return kb ? Number(kb) * 1024 : undefined;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function measure(label: string, runs: number, once: () => Promise<Sample>): Promise<{ ms: number; rss: number }> {
  await once(); // warm the page cache
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  const result = { ms: median(samples.map((s) => s.ms)), rss: median(samples.map((s) => s.rssBytes)) };
  console.error(`${label}: ${result.ms.toFixed(1)} ms median (${runs} runs)`);
  return result;
}

/** Like measure, for commands compared with each other: one run of each in turn, `runs` rounds after a warm-up round. */
export async function measureInTurn(runs: number, commands: readonly (readonly [label: string, once: () => Promise<Sample>])[]): Promise<{ ms: number; rss: number }[]> {
  for (const [, once] of commands) await once(); // warm the page cache
  const samples = commands.map(() => [] as Sample[]);
  for (let i = 0; i < runs; i++) for (const [at, [, once]] of commands.entries()) samples[at]!.push(await once());
  return commands.map(([label], at) => {
    const result = { ms: median(samples[at]!.map((s) => s.ms)), rss: median(samples[at]!.map((s) => s.rssBytes)) };
    console.error(`${label}: ${result.ms.toFixed(1)} ms median (${runs} runs, in turn)`);
    return result;
  });
}

/** A script of `n` shell tool turns (`echo 1` ... `echo n`) and a final text. */
export const echoTurns = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({ reply: [{ type: "tool_use" as const, name: "bash", input: { command: `echo ${i + 1}` } }] })),
  { reply: [{ type: "text" as const, text: "done" }] },
];

/** Wall time of one run of `bin args` that must exit 0. */
export async function timed(bin: string, args: string[], env: Record<string, string>): Promise<number> {
  return (await runCommand([bin, ...args], env)).ms;
}
