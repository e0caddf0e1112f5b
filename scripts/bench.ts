// `bun run bench`: measures the figures the issues name against the fake server (which answers at
// once) and writes BENCHMARKS.md with medians, the machine and the date.
import { cpus, totalmem } from "node:os";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer, type FakeStep } from "../test/fake/server.ts";

const ROOT = resolve(import.meta.dir, "..");
const BIN = join(ROOT, "dist/rein");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TURNS = 20;

type Sample = { ms: number; rssBytes: number };

async function runOnce(args: string[], env: Record<string, string>): Promise<Sample> {
  const start = performance.now();
  const proc = Bun.spawn([BIN, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`rein ${args.join(" ")} exited ${code}: ${err}${out}`);
  return { ms, rssBytes: proc.resourceUsage()?.maxRSS ?? 0 };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function measure(label: string, runs: number, once: () => Promise<Sample>): Promise<{ ms: number; rss: number }> {
  await once(); // warm the page cache
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  const result = { ms: median(samples.map((s) => s.ms)), rss: median(samples.map((s) => s.rssBytes)) };
  console.error(`${label}: ${result.ms.toFixed(1)} ms median, ${(result.rss / 2 ** 20).toFixed(1)} MiB peak RSS (${runs} runs)`);
  return result;
}

function toolTurns(n: number): FakeStep[] {
  const steps: FakeStep[] = [];
  for (let i = 1; i <= n; i++) steps.push({ reply: [{ type: "tool_use", name: "bash", input: { command: `echo ${i}` } }] });
  steps.push({ reply: [{ type: "text", text: "done" }] });
  return steps;
}

async function main() {
  if (!process.argv.includes("--no-build")) {
    const build = Bun.spawnSync(["bun", "build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) throw new Error("build failed");
  }
  const home = mkdtempSync(join(tmpdir(), "rein-bench-"));
  const fake: FakeServer = await startFakeAnthropic();
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    REIN_CONFIG_DIR: join(home, "config"),
    REIN_DATA_DIR: join(home, "data"),
    ANTHROPIC_API_KEY: "bench-key",
    ANTHROPIC_BASE_URL: fake.url,
  };
  try {
    const version = await measure("rein --version", RUNS * 2, () => runOnce(["--version"], env));

    const ok: FakeStep = { reply: [{ type: "text", text: "ok" }] };
    const oneShot = await measure("rein -p 'say ok'", RUNS, () => {
      fake.script(ok);
      return runOnce(["-p", "say ok"], env);
    });

    fake.reset();
    fake.script(ok);
    await runOnce(["-p", "say ok"], env);
    const first = fake.requests[0]!.body as { system: string; tools: unknown[] };
    const preamble = first.system.length + JSON.stringify(first.tools).length;

    const session = await measure(`session of ${TURNS} shell tool turns`, Math.max(5, Math.floor(RUNS / 2)), () => {
      fake.script(...toolTurns(TURNS));
      return runOnce(["-p", "run the echoes"], env);
    });
    const perTurn = (session.ms - oneShot.ms) / TURNS;
    const binaryMiB = statSync(BIN).size / 2 ** 20;

    const rows: [string, string, string][] = [
      ["`rein --version`", `${version.ms.toFixed(1)} ms`, "at most 10 ms"],
      ["one-shot `rein -p \"say ok\"`", `${oneShot.ms.toFixed(1)} ms`, "at most 60 ms"],
      ["one-shot peak memory (max RSS)", `${(oneShot.rss / 2 ** 20).toFixed(1)} MiB`, "at most 60 MiB"],
      [`per-turn harness time ((session of ${TURNS} \`echo N\` turns - one-shot) / ${TURNS})`, `${perTurn.toFixed(2)} ms`, "at most 5 ms"],
      [`session of ${TURNS} turns, total`, `${session.ms.toFixed(1)} ms`, ""],
      ["first request before the conversation (system + tools JSON)", `${preamble} characters (~${Math.round(preamble / 4)} tokens)`, "at most 8,000 characters"],
      ["binary size (dist/rein)", `${binaryMiB.toFixed(1)} MiB`, "at most 115 MiB"],
    ];
    const cpu = cpus()[0]?.model ?? "unknown CPU";
    const doc = [
      "# Benchmarks",
      "",
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform}-${process.arch}, bun ${Bun.version}.`,
      `Medians of ${RUNS} runs (the session: ${Math.max(5, Math.floor(RUNS / 2))}) after one warm-up, each a fresh process of the compiled binary, against the`,
      "fake Anthropic server of test/fake/ on 127.0.0.1, which answers at once. Wall time includes spawning the process.",
      "Regenerate with `bun run bench`.",
      "",
      "| figure | measured | target |",
      "| --- | --- | --- |",
      ...rows.map(([a, b, c]) => `| ${a} | ${b} | ${c} |`),
      "",
    ].join("\n");
    await Bun.write(join(ROOT, "BENCHMARKS.md"), doc);
    console.error("wrote BENCHMARKS.md");
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
