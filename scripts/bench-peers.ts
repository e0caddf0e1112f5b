// `bun run bench --peers`: rein beside Claude Code, OpenCode and pi in one run, alternating (rein,
// cc, oc, pi, rein, cc, ...), offline next to the scripted fake of ../shared/peers (README there).
// The peers are installed from npm by its setup.sh into a cache outside the repository, kept
// between runs: $REIN_BENCH_PEERS, else $XDG_CACHE_HOME/rein-bench/peers (~/.cache/rein-bench/peers).
// offline.sh runs this file again inside a network namespace with loopback only (`--inner`),
// which measures and writes its figures as JSON; the outer run turns them into rows.
// Needs root for `unshare -n` (or OFFLINE_UNSHARE="unshare -rn" where user namespaces are allowed).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Row } from "./bench-report.ts";
import { median, peakRss, runCommand, TURNS } from "./bench-run.ts";

const ROOT = resolve(import.meta.dir, "..");
const PORT = Number(process.env.REIN_BENCH_PEERS_PORT ?? 18787);
const ROUNDS = Number(process.env.BENCH_PEER_RUNS ?? 3);
/** Rounds of the per-turn figure (and the one-shot's, taken in the same rounds). */
const TURN_ROUNDS = Math.max(ROUNDS, 5);
const NAMES = { rein: "rein", cc: "Claude Code", oc: "OpenCode", pi: "pi" } as const;
type Harness = keyof typeof NAMES;
const PEERS = ["cc", "oc", "pi"] as const;
const ALL: Harness[] = ["rein", ...PEERS];

type PerHarness = Record<Harness, number>;
export type PeerFigures = {
  versions: Record<(typeof PEERS)[number], string>;
  versionMs: PerHarness;
  oneShotMs: PerHarness;
  perTurnMs: PerHarness;
  peakMiB: PerHarness;
  chars: PerHarness;
  tools: PerHarness;
};

/** The peers' figures, or why they were not measured (one line). */
export async function peerFigures(bin: string): Promise<PeerFigures | { skipped: string }> {
  if (process.getuid?.() !== 0 && !process.env.OFFLINE_UNSHARE) {
    return { skipped: 'not measured: offline.sh needs root for `unshare -n` (or OFFLINE_UNSHARE="unshare -rn" where user namespaces are allowed)' };
  }
  const peers = peersDir();
  if (!peers) return { skipped: "not measured: no peers/ folder (../shared/peers beside the repository, or REIN_PEERS_DIR)" };
  const cache = process.env.REIN_BENCH_PEERS ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "rein-bench", "peers");
  console.error(`peers: setting up in ${cache} (npm installs are kept there between runs)`);
  const setup = Bun.spawnSync(["sh", join(peers, "setup.sh"), cache, String(PORT)], { stdout: "inherit", stderr: "inherit" });
  if (setup.exitCode !== 0) return { skipped: `not measured: ${join(peers, "setup.sh")} failed (exit ${setup.exitCode}); it needs npm and the registry` };
  const work = join(tmpdir(), `rein-bench-peers-${process.pid}`);
  mkdirSync(work, { recursive: true });
  try {
    const script = join(work, "script.json");
    writeFileSync(script, JSON.stringify(fakeScript()));
    const out = join(work, "figures.json");
    const dump = join(work, "dump");
    const inner = Bun.spawnSync(
      ["sh", join(peers, "offline.sh"), "--script", script, "--port", String(PORT), "--dump", dump, "--", process.execPath, import.meta.path, "--inner", out],
      { env: { ...process.env, REIN_BENCH_BIN: bin, REIN_BENCH_PEERS: cache, REIN_PEERS_DIR: peers, REIN_BENCH_WORK: work }, stdout: "inherit", stderr: "inherit" },
    );
    if (inner.exitCode !== 0 || !existsSync(out)) return { skipped: `not measured: the offline run failed (exit ${inner.exitCode})` };
    return JSON.parse(readFileSync(out, "utf8")) as PeerFigures;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function peersDir(): string | undefined {
  const candidates = [process.env.REIN_PEERS_DIR, resolve(ROOT, "../shared/peers"), resolve(ROOT, "../../shared/peers")];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, "offline.sh")));
}

/** TURNS `echo N` calls then "done" for "run the echoes" (by turn); "ok" for "say ok" whatever its turn. */
function fakeScript() {
  return {
    turns: [
      { tool_use: [{ name: ["bash"], input: { command: "echo {n}", description: "print a number" } }], repeat: TURNS },
      { text: "done" },
      { when: "say ok", text: "ok" },
    ],
    fallback: "ok",
  };
}

type Commands = { version: string[]; run: (prompt: string) => string[]; env: Record<string, string>; cwd?: string };

/** Inside the namespace: every figure for every harness, in rounds that alternate the harnesses. */
async function inner(out: string): Promise<void> {
  const cache = process.env.REIN_BENCH_PEERS!;
  const work = process.env.REIN_BENCH_WORK!;
  const dump = join(work, "dump");
  const env = { ...(process.env as Record<string, string>) };
  const reinHome = join(work, "rein-home");
  const proj = join(work, "rein-proj");
  mkdirSync(reinHome, { recursive: true });
  mkdirSync(proj, { recursive: true });
  Bun.spawnSync(["sh", "-c", "git init -q && echo '# scratch project' > README.md && git add README.md && git -c user.name=bench -c user.email=bench@localhost commit -qm init"], { cwd: proj });
  const reinEnv = {
    PATH: env.PATH ?? "/usr/bin:/bin",
    HOME: reinHome,
    REIN_CONFIG_DIR: join(reinHome, "config"),
    REIN_DATA_DIR: join(reinHome, "data"),
    ANTHROPIC_API_KEY: "sk-ant-fake",
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${PORT}`,
  };
  const bin = process.env.REIN_BENCH_BIN!;
  const commands: Record<Harness, Commands> = {
    rein: { version: [bin, "--version"], run: (p) => [bin, "-p", p], env: reinEnv, cwd: proj },
    cc: { version: [join(cache, "cc"), "--version"], run: (p) => [join(cache, "cc"), "--allowedTools", "Bash", "-p", p], env },
    oc: { version: [join(cache, "oc"), "--version"], run: (p) => [join(cache, "oc"), "run", p], env },
    pi: { version: [join(cache, "pi"), "--version"], run: (p) => [join(cache, "pi"), "-p", p], env },
  };
  const time = async (h: Harness, argv: string[]) => (await runCommand(argv, commands[h].env, commands[h].cwd)).ms;
  const noop = median(await Promise.all([1, 2, 3, 4, 5].map(() => time("cc", [join(cache, "noop")]))));
  const peerOnly = (h: Harness, ms: number) => (h === "rein" ? ms : Math.max(0, ms - noop)); // the wrapper's own start left out

  // What each sends: its one-shot's requests, told apart by the dump files it added.
  const chars = {} as PerHarness;
  const tools = {} as PerHarness;
  for (const h of ALL) {
    const before = new Set(existsSync(dump) ? readdirSync(dump) : []);
    await time(h, commands[h].run("say ok"));
    const added = readdirSync(dump).filter((f) => !before.has(f)).map((f) => join(dump, f));
    [chars[h], tools[h]] = carried(added);
  }
  const rounds = async (label: string, runs: number, once: (h: Harness) => Promise<number>) => {
    const samples = Object.fromEntries(ALL.map((h) => [h, [] as number[]])) as Record<Harness, number[]>;
    for (let round = -1; round < runs; round++) for (const h of ALL) {
      const value = await once(h);
      if (round >= 0) samples[h].push(value);
    }
    const result = Object.fromEntries(ALL.map((h) => [h, median(samples[h])])) as PerHarness;
    console.error(`peers ${label}: ${ALL.map((h) => `${h} ${result[h].toFixed(1)}`).join(", ")}`);
    return result;
  };
  const versionMs = await rounds("--version ms", ROUNDS * 3, async (h) => peerOnly(h, await time(h, commands[h].version)));
  // The per-turn figure is a difference of two runs of seconds for the peers: each round takes it from a
  // one-shot and a session run back to back, so the machine's drift between phases cannot enter it.
  const oneShots = Object.fromEntries(ALL.map((h) => [h, [] as number[]])) as Record<Harness, number[]>;
  const perTurnMs = await rounds(`per tool turn ms (one-shot, then a session of ${TURNS} tool turns)`, TURN_ROUNDS, async (h) => {
    const oneShot = peerOnly(h, await time(h, commands[h].run("say ok")));
    const session = peerOnly(h, await time(h, commands[h].run("run the echoes")));
    oneShots[h].push(oneShot);
    return (session - oneShot) / TURNS;
  });
  // (the warm-up round's one-shot is the first of each list)
  const oneShotMs = Object.fromEntries(ALL.map((h) => [h, median(oneShots[h].slice(1))])) as PerHarness;
  const peakMiB = await rounds("one-shot peak MiB", 1, async (h) => ((await peakRss(commands[h].run("say ok"), commands[h].env, commands[h].cwd)) ?? 0) / 2 ** 20);
  const versions = Object.fromEntries(
    PEERS.map((h) => [h, versionLine(Bun.spawnSync(commands[h].version, { env }))]),
  ) as PeerFigures["versions"];
  writeFileSync(out, JSON.stringify({ versions, versionMs, oneShotMs, perTurnMs, peakMiB, chars, tools } satisfies PeerFigures));
}

/** The harness characters of its main request (the one offering the most tools), from request-stats.ts. */
function carried(files: string[]): [number, number] {
  if (files.length === 0) return [0, 0];
  const stats = Bun.spawnSync([process.execPath, join(process.env.REIN_PEERS_DIR!, "request-stats.ts"), ...files], { stdout: "pipe", stderr: "pipe" });
  const rows = stats.stdout
    .toString()
    .split("\n")
    .filter((line) => line.startsWith("| /"))
    .map((line) => line.split("|").map((cell) => cell.trim()));
  // columns: request, model, bytes, system, context, tools, description, schema, tool chars, all
  const main = rows.sort((a, b) => Number(b[6]) - Number(a[6]) || Number.parseInt(b[10]!) - Number.parseInt(a[10]!))[0];
  return main ? [Number.parseInt(main[10]!), Number(main[6])] : [0, 0];
}

export function peerRows(p: PeerFigures | { skipped: string }): Row[] {
  if ("skipped" in p) return [{ figure: "rein beside Claude Code, OpenCode and pi (`bun run bench --peers`)", shown: p.skipped }];
  const listed = (f: PerHarness, digits: number, unit: string) => ALL.map((h) => `${NAMES[h]} ${f[h].toFixed(digits)}`).join(" / ") + ` ${unit}`;
  // A difference of two medians can come out at or below zero on a noisy machine: such a peer is not a floor.
  const fastest = (f: PerHarness) => PEERS.filter((h) => f[h] > 0).reduce((best, h) => (f[h] < f[best] ? h : best), PEERS.find((h) => f[h] > 0) ?? PEERS[0]);
  const beside = (label: string, f: PerHarness, unit: "ms" | "MiB", digits: number, ratio?: number): Row => {
    const best = fastest(f);
    return {
      figure: `${label}: rein / Claude Code / OpenCode / pi, against the ${unit === "MiB" ? "smallest" : "fastest"} peer`,
      shown: listed(f, digits, unit),
      value: f.rein,
      floor: { name: NAMES[best], value: f[best], unit },
      ...(ratio ? { target: { ratio } } : {}),
    };
  };
  return [
    beside("`--version`", p.versionMs, "ms", 1),
    beside('one-shot `-p "say ok"`', p.oneShotMs, "ms", 0, 0.1),
    beside(`harness time per tool turn ((session of ${TURNS} \`echo N\` turns - one-shot) / ${TURNS}, median of ${TURN_ROUNDS} rounds' pairs)`, p.perTurnMs, "ms", 2, 0.5),
    beside("one-shot peak memory (max RSS, GNU time)", p.peakMiB, "MiB", 1),
    {
      figure: "carried on every request (system, context in messages, tool descriptions and schemas; request-stats.ts): rein / Claude Code / OpenCode / pi",
      shown: `${ALL.map((h) => `${NAMES[h]} ${p.chars[h].toLocaleString("en")} (${p.tools[h]} tools)`).join(" / ")} characters`,
      value: p.chars.rein,
      target: { max: 4_900, text: "at most 4,900 characters (pi's total with 4 tools)" },
    },
  ];
}

/** The line under the peers' table: their versions and how they ran. */
export function peerNote(p: PeerFigures | { skipped: string }): string {
  if ("skipped" in p) return "";
  return (
    `Peers: Claude Code ${p.versions.cc}, OpenCode ${p.versions.oc}, pi ${p.versions.pi}; each offline (a network namespace with loopback only) against ` +
    `../shared/peers/fake-anthropic.ts, in rounds alternating rein and the peers (medians of ${ROUNDS}, --version ${ROUNDS * 3}, after a warm-up round); ` +
    `the one-shot and the per-turn figures come from the same ${TURN_ROUNDS} rounds, each a one-shot and then a session run back to back, ` +
    "the per-turn figure the median of the rounds' differences; " +
    "the peers' times leave out their wrapper script's own start (SCRATCH/noop)."
  );
}

if (import.meta.main) {
  const at = process.argv.indexOf("--inner");
  if (at >= 0) await inner(process.argv[at + 1]!);
  else console.log(JSON.stringify(await peerFigures(join(ROOT, "dist/rein")), null, 1));
}

/** The first line a `--version` printed, on stdout or (pi) on stderr. */
function versionLine(run: { stdout: Buffer; stderr: Buffer }): string {
  return (run.stdout.toString().trim() || run.stderr.toString().trim()).split("\n")[0] || "?";
}
