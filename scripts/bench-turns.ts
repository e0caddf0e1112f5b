// Harness time per tool turn: a session of TURNS shell tool turns (`echo N`) less the one-shot, per
// turn, beside spawning bash from Bun; and the share of the session's input inside the cached prefix.
import type { FakeServer } from "../test/fake/server.ts";
import type { Floor, Row } from "./bench-report.ts";
import { echoTurns, measure, runCommand, RUNS, TURNS } from "./bench-run.ts";
import { TARGET } from "./bench-targets.ts";

export type TurnFigures = { sessionMs: number; perTurnMs: number; bunMs: number; bashMs: number; cachedShare: number };

type CacheProbe = { system: unknown; tools: unknown; messages: { role: string; content: unknown }[] };

export async function turnFigures(bin: string, env: Record<string, string>, fake: FakeServer, oneShotMs: number): Promise<TurnFigures> {
  const session = await measure(`session of ${TURNS} shell tool turns`, Math.max(5, Math.floor(RUNS / 2)), () => {
    fake.script(...echoTurns(TURNS));
    return runCommand([bin, "-p", "run the echoes"], env);
  });
  // Context for the figures: what any Bun program and any bash call cost on this machine.
  const bun = await measure("bun -e 1 (runtime floor)", RUNS * 2, () => runCommand([process.execPath, "-e", "1"], env));
  const bash = await measure("bash -c 'echo 1' spawned from Bun", RUNS * 2, () => runCommand(["bash", "-c", "echo 1"], env));
  fake.reset();
  fake.script(...echoTurns(TURNS));
  await runCommand([bin, "-p", "run the echoes"], env);
  const cached = cachedShare(fake.requests.map((r) => r.body as CacheProbe));
  return { sessionMs: session.ms, perTurnMs: (session.ms - oneShotMs) / TURNS, bunMs: bun.ms, bashMs: bash.ms, cachedShare: cached };
}

/**
 * The share of what a session's requests send that lies before the previous request's last cache
 * mark (system, tools and the conversation up to that request's last user turn): what the API can
 * read from cache. The first request has nothing cached.
 */
function cachedShare(requests: CacheProbe[]): number {
  let total = 0;
  let cached = 0;
  let previousMessages = -1;
  for (const body of requests) {
    const fixed = JSON.stringify(body.system).length + JSON.stringify(body.tools).length;
    const sizes = body.messages.map((m) => JSON.stringify(m).length);
    total += fixed + sizes.reduce((a, b) => a + b, 0);
    if (previousMessages >= 0) cached += fixed + sizes.slice(0, previousMessages).reduce((a, b) => a + b, 0);
    previousMessages = body.messages.length;
  }
  return total ? cached / total : 0;
}

export const bunFloor = (t: TurnFigures): Floor => ({ name: "`bun -e 1`", value: t.bunMs, unit: "ms" });

// No row takes the shell parser's load out: an `echo N` line is plain words, analysed without the
// parser (src/permission/shell/literal-line.ts), so a session of them never loads it.
export function turnRows(t: TurnFigures): Row[] {
  return [
    {
      figure: `per-turn harness time ((session of ${TURNS} \`echo N\` turns - one-shot) / ${TURNS})`,
      shown: `${t.perTurnMs.toFixed(2)} ms`,
      value: t.perTurnMs,
      floor: { name: "a bash spawn", value: t.bashMs, unit: "ms" },
      target: { ratio: TARGET.perTurn },
    },
    { figure: `session of ${TURNS} turns, total`, shown: `${t.sessionMs.toFixed(1)} ms`, value: t.sessionMs },
    { figure: "per-turn harness time without the bash process start (per-turn - bash spawn below)", shown: `${(t.perTurnMs - t.bashMs).toFixed(2)} ms` },
    { figure: "floor: `bun -e 1`, any program on the Bun runtime", shown: `${t.bunMs.toFixed(1)} ms` },
    { figure: "floor: spawning `bash -c 'echo 1'` from Bun (the bash tool's own cost)", shown: `${t.bashMs.toFixed(2)} ms` },
    {
      figure: `input sent inside the cached prefix over a ${TURNS}-turn session (by characters)`,
      shown: `${(t.cachedShare * 100).toFixed(1)}%`,
      value: t.cachedShare,
      target: { min: 0.9, text: "at least 90%" },
    },
  ];
}
