// What hooks add to a tool call, measured in the same run and interleaved: a session of shell tool
// turns with no hooks, and the same with one PreToolUse and one PostToolUse command hook running
// `true` on every call; the floor is spawning `sh -c true` twice from Bun. Then a PostToolUse hook
// alone, from rein's config (rein's payload and transcript) and from a Claude Code settings file
// (Claude Code's structured payload and its JSONL transcript written as the session goes): per
// tool turn, the second within 1.1x of the first.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeServer } from "../test/fake/server.ts";
import type { Row } from "./bench-report.ts";
import { echoTurns, median, timed } from "./bench-run.ts";

export type HookFigures = { perTurnPlainMs: number; perCallAddedMs: number; spawnTwiceMs: number; perTurnReinPostMs: number; perTurnClaudePostMs: number; turns: number };

export async function hookFigures(bin: string, env: Record<string, string>, fake: FakeServer, home: string, runs: number, turns: number): Promise<HookFigures> {
  const hooked = join(home, "hooked-config");
  mkdirSync(hooked, { recursive: true });
  const always = [{ matcher: "*", hooks: [{ type: "command", command: "true" }] }];
  writeFileSync(join(hooked, "config.json"), JSON.stringify({ hooks: { PreToolUse: always, PostToolUse: always } }));
  // A PostToolUse hook alone: in rein's config, and in Claude Code's user settings (~/.claude/settings.json).
  const reinPost = join(home, "post-config");
  mkdirSync(reinPost, { recursive: true });
  writeFileSync(join(reinPost, "config.json"), JSON.stringify({ hooks: { PostToolUse: always } }));
  // Each in a HOME of its own, alike but for that file, so the two differ only in the hook's shape.
  const [reinHome, claudeHome] = [join(home, "rein-home"), join(home, "claude-home")];
  for (const h of [reinHome, claudeHome]) mkdirSync(join(h, ".claude"), { recursive: true });
  writeFileSync(join(claudeHome, ".claude", "settings.json"), JSON.stringify({ hooks: { PostToolUse: always } }));
  const variants = { plain: env, hooked: { ...env, REIN_CONFIG_DIR: hooked }, reinPost: { ...env, HOME: reinHome, REIN_CONFIG_DIR: reinPost }, claudePost: { ...env, HOME: claudeHome } };
  const samples = { plain: [] as number[], hooked: [] as number[], one: [] as number[], spawn: [] as number[], reinPost: [] as number[], claudePost: [] as number[] };
  for (let i = -1; i < runs; i++) {
    fake.script({ reply: [{ type: "text", text: "ok" }] });
    const one = await timed(bin, ["-p", "say ok"], env);
    const session: Record<string, number> = {};
    for (const name of ["plain", "hooked", "reinPost", "claudePost"] as const) {
      fake.script(...echoTurns(turns));
      session[name] = await timed(bin, ["-p", "run the echoes"], variants[name]);
    }
    // The floor is the median of a few pairs a round: one pair is as noisy as a whole session.
    const pairs: number[] = [];
    for (let j = 0; j < 5; j++) pairs.push((await timed("sh", ["-c", "true"], env)) + (await timed("sh", ["-c", "true"], env)));
    const spawn = median(pairs);
    // The first round warms the page cache and is not counted.
    if (i < 0) continue;
    samples.one.push(one), samples.plain.push(session.plain!), samples.hooked.push(session.hooked!), samples.spawn.push(spawn);
    samples.reinPost.push(session.reinPost!), samples.claudePost.push(session.claudePost!);
  }
  return {
    perTurnPlainMs: (median(samples.plain) - median(samples.one)) / turns,
    perCallAddedMs: (median(samples.hooked) - median(samples.plain)) / turns,
    spawnTwiceMs: median(samples.spawn),
    perTurnReinPostMs: (median(samples.reinPost) - median(samples.one)) / turns,
    perTurnClaudePostMs: (median(samples.claudePost) - median(samples.one)) / turns,
    turns,
  };
}

export function hookRows(h: HookFigures): Row[] {
  return [
    { figure: `per-turn harness time with no hooks configured (${h.turns} \`echo N\` turns, interleaved with the hooked runs)`, shown: `${h.perTurnPlainMs.toFixed(2)} ms` },
    {
      figure: "time one PreToolUse and one PostToolUse command hook (`true`) add to a tool call",
      shown: `${h.perCallAddedMs.toFixed(2)} ms`,
      value: h.perCallAddedMs,
      floor: { name: "spawning `sh -c true` twice from Bun", value: h.spawnTwiceMs, unit: "ms" },
      target: { ratio: 1.5 },
    },
    {
      figure: "per tool turn with a PostToolUse hook from a Claude Code settings file: Claude Code's structured payload and its JSONL transcript written",
      shown: `${h.perTurnClaudePostMs.toFixed(2)} ms`,
      value: h.perTurnClaudePostMs,
      floor: { name: "the same hook in rein's config (rein's payload and transcript), same run", value: h.perTurnReinPostMs, unit: "ms" },
      target: { ratio: 1.1 },
    },
  ];
}

// Run alone (`bun scripts/bench-hooks.ts`) against an already built dist/rein.
if (import.meta.main) {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const { benchEnv } = await import("./bench-proc.ts");
  const home = mkdtempSync(join(tmpdir(), "rein-bench-hooks-"));
  const fake = await startFakeAnthropic();
  try {
    const figures = await hookFigures(join(import.meta.dir, "../dist/rein"), benchEnv(home, fake.url), fake, home, Number(process.env.BENCH_RUNS ?? 11), 20);
    console.log(JSON.stringify(figures));
  } finally {
    await fake.close();
  }
}
