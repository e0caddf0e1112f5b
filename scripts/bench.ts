// `bun run bench`: measures the figures the issues name against the fake server (which answers at
// once) and writes BENCHMARKS.md with medians, the machine and the date. Each figure is measured by
// its own file (scripts/bench-*.ts); this one runs them in order and writes the table.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../test/fake/server.ts";
import { compactionFigures } from "../test/support/long-session.ts";
import { acpFigures, acpRows } from "./bench-acp.ts";
import { acpLoadFigure, acpLoadRows } from "./bench-acp-load.ts";
import { agentFigures, agentRows } from "./bench-agents.ts";
import { BASELINE, baselineBinary, leanFigures, leanRows, withBaseline, type LeanFigures } from "./bench-baseline.ts";
import { teamFigures, teamRows } from "./bench-teams.ts";
import { analysisFigures, analysisRows } from "./bench-analysis.ts";
import { checkpointFigures, checkpointRows } from "./bench-checkpoint.ts";
import { compactionRows } from "./bench-compaction.ts";
import { extensionFigures, extensionRows } from "./bench-extensions.ts";
import { peerConfigFigures, peerConfigRows } from "./bench-peer-config.ts";
import { pluginFigures, pluginRows } from "./bench-plugins.ts";
import { hookFigures, hookRows } from "./bench-hooks.ts";
import { instructionStartup, instructionStartupRows } from "./bench-memory.ts";
import { mcpFigures, mcpRows } from "./bench-mcp.ts";
import { lspFigures, lspRows } from "./bench-lsp.ts";
import { taintFigures, taintRows } from "./bench-taint.ts";
import { benchEnv } from "./bench-proc.ts";
import { providerFigures, providerRows } from "./bench-providers.ts";
import { toolReload } from "./bench-reload.ts";
import { reportTable, type Row } from "./bench-report.ts";
import { resumeLarge, resumeRows } from "./bench-resume.ts";
import { RUNS, TURNS } from "./bench-run.ts";
import { peerFigures, peerNote, peerRows, type PeerFigures } from "./bench-peers.ts";
import { searchFigures, searchRows } from "./bench-search.ts";
import { serverClientFigures, serverClientRows } from "./bench-server-clients.ts";
import { serverIdle, serverLoad, serverRows } from "./bench-server.ts";
import { skillCatalogFigures, skillCatalogRows } from "./bench-skills.ts";
import { startupFigures, startupFloors, startupRows } from "./bench-startup.ts";
import { TARGET } from "./bench-targets.ts";
import { terminalFigures, terminalRows } from "./bench-terminal.ts";
import { bunFloor, turnFigures, turnRows } from "./bench-turns.ts";

const ROOT = resolve(import.meta.dir, "..");
const BIN = join(ROOT, "dist/rein");
/** Runs of the figures that take a whole session each. */
const SESSION_RUNS = Math.max(5, Math.floor(RUNS / 2));

async function main() {
  if (!process.argv.includes("--no-build")) {
    const build = Bun.spawnSync(["bun", "build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) throw new Error("build failed");
  }
  const home = mkdtempSync(join(tmpdir(), "rein-bench-"));
  const fake = await startFakeAnthropic();
  const env = benchEnv(home, fake.url);
  try {
    const startup = await startupFigures(BIN, home, env, fake);
    const floors = startupFloors(startup);
    const turns = await turnFigures(BIN, env, fake, startup.oneShotMs);
    const baseline = await baselineFigures(env, fake);
    const reload = await toolReload(home, RUNS);
    const analysis = await analysisFigures();
    const resume = await resumeLarge(BIN, home);
    const load = await serverLoad(BIN, env);
    const idle = await serverIdle(BIN, env);
    const clients = await serverClientFigures(BIN, env);
    const hasTmux = Bun.spawnSync(["sh", "-c", "command -v tmux"]).exitCode === 0;
    const terminal = hasTmux ? await terminalFigures(BIN, home, env) : undefined;
    if (terminal) console.error(`terminal: ${JSON.stringify(terminal)}`);
    fake.reset();
    const agents = await agentFigures(SESSION_RUNS);
    const teams = await teamFigures(SESSION_RUNS);
    console.error(`teams: ${JSON.stringify(teams)}`);
    const providers = await providerFigures(BIN, env, fake, SESSION_RUNS, TURNS);
    console.error(`providers: ${JSON.stringify(providers)}`);
    const acpRun = await acpFigures(BIN, env, fake, SESSION_RUNS);
    const acpLoad = await acpLoadFigure(BIN, home);
    const skillCatalog = await skillCatalogFigures(BIN, fake);
    const extensions = await extensionFigures(BIN, fake, SESSION_RUNS);
    const peerConfig = await peerConfigFigures(BIN, fake, RUNS);
    const plugins = await pluginFigures(BIN, fake, SESSION_RUNS);
    console.error(`plugins: ${JSON.stringify(plugins)}`);
    const instructions = instructionStartup();
    const hooks = await hookFigures(BIN, env, fake, home, SESSION_RUNS, TURNS);
    console.error(`hooks: ${JSON.stringify(hooks)}`);
    const checkpoints = await checkpointFigures();
    console.error(`checkpoints: ${JSON.stringify(checkpoints)}`);
    const mcp = await mcpFigures(BIN, fake, SESSION_RUNS);
    console.error(`mcp: ${JSON.stringify(mcp)}`);
    const taint = taintFigures();
    console.error(`taint: ${JSON.stringify(taint)}`);
    const lsp = await lspFigures(BIN, fake);
    console.error(`lsp: ${JSON.stringify(lsp)}`);
    const search = await searchFigures(SESSION_RUNS);
    const compaction = await compactionFigures();
    console.error(`compaction: ${JSON.stringify(compaction)}`);
    const peers = process.argv.includes("--peers") ? await peerFigures(BIN) : undefined;

    const rows: Row[] = [
      ...leanRows(baseline.lean),
      ...withBaseline([...startupRows(startup), ...turnRows(turns)], baseline.rows),
      {
        figure: "reloading a changed user tool (change seen -> tool usable, in process)",
        shown: `${reload.toFixed(2)} ms`,
        value: reload,
        floor: bunFloor(turns),
        target: { ratio: TARGET.reload },
      },
      ...analysisRows(analysis, bunFloor(turns)),
      ...resumeRows(resume, floors.printer),
      ...serverRows(load, idle),
      ...serverClientRows(clients, floors.printerRss),
      ...compactionRows(compaction),
      ...checkpointRows(checkpoints),
      ...providerRows(providers, TURNS),
      ...acpRows(acpRun),
      ...acpLoadRows(acpLoad),
      ...skillCatalogRows(skillCatalog),
      ...extensionRows(extensions),
      ...peerConfigRows(peerConfig),
      ...pluginRows(plugins),
      ...instructionStartupRows(instructions),
      ...agentRows(agents),
      ...teamRows(teams),
      ...hookRows(hooks),
      ...mcpRows(mcp),
      ...lspRows(lsp),
      ...taintRows(taint, turns.perTurnMs),
      ...searchRows(search),
      ...terminalRows(terminal, floors.printerRss),
    ];
    await Bun.write(join(ROOT, "BENCHMARKS.md"), document(rows, peers, baseline.rows.length > 0));
    console.error("wrote BENCHMARKS.md");
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * rein at BASELINE in the same run: its start-up and turn figures (a home and data folder of its
 * own), and the lean figures, alternating with today's build.
 */
async function baselineFigures(env: Record<string, string>, fake: FakeServer): Promise<{ rows: Row[]; lean: LeanFigures | { skipped: string } }> {
  const bin = baselineBinary();
  if (typeof bin !== "string") return { rows: [], lean: bin };
  const home = mkdtempSync(join(tmpdir(), "rein-bench-baseline-home-"));
  try {
    const baseEnv = benchEnv(home, fake.url);
    const startup = await startupFigures(bin, home, baseEnv, fake);
    const turns = await turnFigures(bin, baseEnv, fake, startup.oneShotMs);
    const lean = await leanFigures({ bin: BIN, env }, { bin, env: baseEnv }, fake, SESSION_RUNS);
    // The floors are the same programs; the parser's load is measured in process, today's only.
    const rows = [...startupRows(startup), ...turnRows(turns)].filter((r) => !r.figure.startsWith("floor:") && !r.figure.startsWith("... and without"));
    return { rows, lean };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function document(rows: Row[], peers: PeerFigures | { skipped: string } | undefined, baseline: boolean): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return [
    "# Benchmarks",
    "",
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform}-${process.arch}, bun ${Bun.version}.`,
    `Medians of ${RUNS} runs (the session: ${SESSION_RUNS}) after one warm-up, each a fresh process of the compiled binary, against the`,
    "fake Anthropic server of test/fake/ on 127.0.0.1, which answers at once. Wall time includes spawning the process.",
    "Absolute times move by 2x between runs on these machines: a time's target is a ratio to a floor measured in the same",
    "run (the one-line program, `bun -e 1`, a bash spawn), and \"x floor\" is this run's ratio. Regenerate with `bun run bench`",
    "(`bun run bench --peers` adds rein beside Claude Code, OpenCode and pi, measured in the same run: scripts/bench-peers.ts).",
    `The ${BASELINE} column is rein at ${BASELINE}, the last commit before the extension wave, built by the bench from a \`git worktree\``,
    "in a scratch folder (scripts/bench-baseline.ts) and measured in the same run with a data folder of its own; \"x " + BASELINE + "\" is",
    "each row's ratio to it. It is blank where that commit has no such feature or the figure is measured in process.",
    "",
    ...reportTable(rows, baseline ? BASELINE : undefined),
    "",
    ...(peers ? ["## Beside the peers", "", ...reportTable(peerRows(peers)), "", peerNote(peers), ""] : []),
  ].join("\n");
}

await main();
