// Start-up with 50 installed plugins (issue 33) against start-up with none, interleaved in one run:
// a one-shot `-p "say ok"` each way. Each plugin is made of real files (test/fixtures/real): two of
// commit-commands' commands (with !`cmd` lines, which run only when the command is used), a skill of
// anthropics/skills, pr-review-toolkit's code-simplifier agent (its <example> description needs the
// lenient front-matter reading) and a hooks.json with a PreToolUse hook (no tool runs in the run).
// They are installed with rein plugin install, so each has its copy, its record and its enabling.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeServer } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median, runCommand } from "./bench-run.ts";

const PLUGINS = 50;
const REAL = resolve(import.meta.dir, "../test/fixtures/real");
const GNU_TIME = "/usr/bin/time";

/** `*Faults`: minor page faults of a run (GNU time's %R; absent without it): on a VM where one costs about 16 us, the memory a start touches is much of its time, and the count does not move with the machine's load */
export type PluginFigures = { plugins: number; noneMs: number; manyMs: number; noneCpuMs: number; manyCpuMs: number; noneFaults?: number; manyFaults?: number };

export async function pluginFigures(bin: string, fake: FakeServer, runs: number): Promise<PluginFigures> {
  const root = mkdtempSync(join(tmpdir(), "rein-bench-plugins-"));
  try {
    const none = setup(root, "none", 0, bin, fake);
    const many = setup(root, "many", PLUGINS, bin, fake);
    const samples = { none: [] as number[], many: [] as number[] };
    const cpu = { none: [] as number[], many: [] as number[] };
    // The first run after the installs writes the installed plugins' index (plugins/index.json): a warm-up, not counted.
    for (let i = -1; i < runs; i++) {
      for (const [name, s] of [["none", none], ["many", many]] as const) {
        fake.script({ reply: [{ type: "text", text: "ok" }] });
        const { ms, cpuMs } = await runCommand([bin, "-p", "say ok"], s.env, s.cwd);
        if (i >= 0) samples[name].push(ms);
        if (i >= 0) cpu[name].push(cpuMs);
      }
    }
    const faults = { none: [] as number[], many: [] as number[] };
    for (let i = 0; i < 5 && existsSync(GNU_TIME); i++) {
      for (const [name, s] of [["none", none], ["many", many]] as const) {
        fake.script({ reply: [{ type: "text", text: "ok" }] });
        const proc = Bun.spawn([GNU_TIME, "-f", "minflt=%R", bin, "-p", "say ok"], { env: s.env, cwd: s.cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
        const [, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
        const count = /minflt=(\d+)/.exec(err)?.[1];
        if (count) faults[name].push(Number(count));
      }
    }
    const counted = faults.none.length && faults.many.length ? { noneFaults: median(faults.none), manyFaults: median(faults.many) } : {};
    return { plugins: PLUGINS, noneMs: median(samples.none), manyMs: median(samples.many), noneCpuMs: median(cpu.none), manyCpuMs: median(cpu.many), ...counted };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function setup(root: string, name: string, count: number, bin: string, fake: FakeServer) {
  const home = join(root, name);
  const cwd = join(home, "work");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const env = benchEnv(home, fake.url);
  for (let i = 0; i < count; i++) {
    const src = join(home, "src", `kit-${String(i + 1).padStart(2, "0")}`);
    const commands = join(REAL, "claude-code/plugins/commit-commands/commands");
    cpSync(join(commands, "commit.md"), join(src, "commands/commit.md"));
    cpSync(join(commands, "commit-push-pr.md"), join(src, "commands/commit-push-pr.md"));
    cpSync(join(REAL, "skills-market/skills/brand-guidelines"), join(src, "skills/brand-guidelines"), { recursive: true });
    cpSync(join(REAL, "claude-code/plugins/pr-review-toolkit/agents/code-simplifier.md"), join(src, "agents/code-simplifier.md"));
    mkdirSync(join(src, "hooks"), { recursive: true });
    writeFileSync(join(src, "hooks/hooks.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }));
    const installed = Bun.spawnSync([bin, "plugin", "install", src, "--yes"], { env, cwd, stdout: "pipe", stderr: "pipe" });
    if (installed.exitCode !== 0) throw new Error(`rein plugin install failed: ${installed.stderr.toString()}`);
  }
  return { env, cwd };
}

export function pluginRows(f: PluginFigures): Row[] {
  const ratio = f.manyMs / f.noneMs;
  return [
    {
      figure: `one-shot with ${f.plugins} installed plugins (2 commands, a skill, an <example> agent, a hook each) / with none (interleaved)`,
      shown: `${f.manyMs.toFixed(1)} ms / ${f.noneMs.toFixed(1)} ms = ${ratio.toFixed(2)}x (CPU ${f.manyCpuMs.toFixed(1)} / ${f.noneCpuMs.toFixed(1)} ms = ${(f.manyCpuMs / f.noneCpuMs).toFixed(2)}x${f.manyFaults !== undefined ? `; page faults ${f.manyFaults} / ${f.noneFaults}` : ""})`,
      value: ratio,
      target: { max: 1.2, text: "within 1.2x of none" },
    },
  ];
}

if (import.meta.main) {
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const fake = await startFakeAnthropic();
  try {
    console.log(await pluginFigures(join(import.meta.dir, "../dist/rein"), fake, Number(process.env.BENCH_RUNS ?? 11)));
  } finally {
    await fake.close();
  }
}
