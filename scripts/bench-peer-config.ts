// Start-up with a Claude Code team's and an OpenCode team's files (a .claude/settings.json and an
// opencode.json of 20 rules each, a ~/.claude/settings.json beside them) against the same
// workspace without them: the one-shot `rein -p "say ok"`, interleaved, in the same run (issue 29:
// within 1.05x). Runs alone too: `bun scripts/bench-peer-config.ts` (after `bun run build`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median, RUNS, runCommand } from "./bench-run.ts";

export type PeerConfigFigures = { withMs: number; withoutMs: number };

const RULES = 20;

export async function peerConfigFigures(bin: string, fake: FakeServer, runs: number): Promise<PeerConfigFigures> {
  const root = mkdtempSync(join(tmpdir(), "rein-bench-peercfg-"));
  try {
    const setup = (name: string, files: boolean) => {
      const home = join(root, name);
      const cwd = join(home, "work");
      mkdirSync(join(cwd, ".git"), { recursive: true });
      if (files) write(home, cwd);
      return { env: benchEnv(home, fake.url), cwd };
    };
    const cases = { with: setup("with", true), without: setup("without", false) };
    const samples = { with: [] as number[], without: [] as number[] };
    for (let i = -1; i < runs; i++) {
      for (const name of ["with", "without"] as const) {
        fake.script({ reply: [{ type: "text", text: "ok" }] });
        const ms = (await runCommand([bin, "-p", "say ok"], cases[name].env, cases[name].cwd)).ms;
        if (i >= 0) samples[name].push(ms);
      }
    }
    const figures = { withMs: median(samples.with), withoutMs: median(samples.without) };
    console.error(`one-shot with Claude/OpenCode config: ${figures.withMs.toFixed(1)} ms, without: ${figures.withoutMs.toFixed(1)} ms (${runs} runs each, interleaved)`);
    return figures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function write(home: string, cwd: string): void {
  const claudeRules = Array.from({ length: RULES }, (_, i) => (i % 2 ? `Bash(npm run task${i}:*)` : `Read(./secrets/part${i}/**)`));
  const settings = { permissions: { allow: claudeRules.filter((_, i) => i % 2), deny: claudeRules.filter((_, i) => !(i % 2)), defaultMode: "default" }, env: { BENCH: "1" } };
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["WebFetch(domain:example.com)"] } }));
  const bash = Object.fromEntries(Array.from({ length: RULES - 2 }, (_, i) => [`make target${i} *`, i % 3 ? "allow" : "ask"]));
  const opencode = `{\n  // an OpenCode team's file\n  "$schema": "https://opencode.ai/config.json",\n  "permission": { "edit": "ask", "webfetch": "ask", "bash": ${JSON.stringify(bash)} },\n}\n`;
  writeFileSync(join(cwd, "opencode.jsonc"), opencode);
}

export function peerConfigRows(f: PeerConfigFigures): Row[] {
  return [
    {
      figure: `one-shot \`rein -p "say ok"\` with a .claude/settings.json and an opencode.jsonc of ${RULES} rules each (and ~/.claude/settings.json)`,
      shown: `${f.withMs.toFixed(1)} ms`,
      value: f.withMs,
      floor: { name: "the same workspace without them", value: f.withoutMs, unit: "ms" },
      target: { ratio: 1.05 },
    },
  ];
}

if (import.meta.main) {
  const bin = resolve(import.meta.dir, "../dist/rein");
  const fake = await startFakeAnthropic();
  try {
    const f = await peerConfigFigures(bin, fake, RUNS);
    console.log(`with: ${f.withMs.toFixed(2)} ms  without: ${f.withoutMs.toFixed(2)} ms  ratio: ${(f.withMs / f.withoutMs).toFixed(3)} (target <= 1.05)`);
  } finally {
    await fake.close();
  }
}
