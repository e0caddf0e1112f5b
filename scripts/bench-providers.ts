// The OpenAI-compatible path against the Anthropic path, measured in the same run and interleaved
// (one run of each in turn), so the ratio holds on a slow day: one-shot `rein -p` and the per-turn
// harness time of a session of shell tool turns, each against its own fake server on 127.0.0.1.
import { startFakeOpenAI, type ChatStep } from "../test/fake/openai-server.ts";
import type { FakeServer, FakeStep } from "../test/fake/server.ts";
import type { Row } from "./bench-report.ts";
import { echoTurns, median, timed } from "./bench-run.ts";

export type PathFigures = { oneShotMs: number; perTurnMs: number };
export type ProviderFigures = { anthropic: PathFigures; openai: PathFigures };

export async function providerFigures(bin: string, env: Record<string, string>, anthropic: FakeServer, runs: number, turns: number): Promise<ProviderFigures> {
  const openai = await startFakeOpenAI();
  const chatEnv = { ...env, OPENAI_API_KEY: "bench-key", OPENAI_BASE_URL: openai.url };
  const chatArgs = ["-m", "openai/gpt-5.2"];
  const ok = { reply: [{ type: "text" as const, text: "ok" }] };
  const paths = {
    anthropic: { script: (steps: FakeStep[]) => anthropic.script(...steps), env, args: [] as string[] },
    openai: { script: (steps: ChatStep[]) => openai.script(...steps), env: chatEnv, args: chatArgs },
  };
  const samples = { anthropic: { one: [] as number[], session: [] as number[] }, openai: { one: [] as number[], session: [] as number[] } };
  try {
    for (let i = -1; i < runs; i++) {
      for (const name of ["anthropic", "openai"] as const) {
        const p = paths[name];
        p.script([ok]);
        const one = await timed(bin, ["-p", "say ok", ...p.args], p.env);
        p.script(echoTurns(turns));
        const session = await timed(bin, ["-p", "run the echoes", ...p.args], p.env);
        // The first round warms the page cache and is not counted.
        if (i >= 0) samples[name].one.push(one), samples[name].session.push(session);
      }
    }
  } finally {
    await openai.close();
  }
  const figures = (s: { one: number[]; session: number[] }): PathFigures => {
    const oneShotMs = median(s.one);
    return { oneShotMs, perTurnMs: (median(s.session) - oneShotMs) / turns };
  };
  return { anthropic: figures(samples.anthropic), openai: figures(samples.openai) };
}

/** The OpenAI-compatible path as a ratio to the Anthropic path, both measured interleaved in this run. */
export function providerRows(p: ProviderFigures, turns: number): Row[] {
  const within = { max: 1.1, text: "at most 1.1x the Anthropic path" };
  return [
    {
      figure: "one-shot through the OpenAI-compatible path (`-m openai/...` against the Chat Completions fake) / through the Anthropic path, interleaved",
      shown: `${p.openai.oneShotMs.toFixed(1)} ms / ${p.anthropic.oneShotMs.toFixed(1)} ms = ${(p.openai.oneShotMs / p.anthropic.oneShotMs).toFixed(2)}x`,
      value: p.openai.oneShotMs / p.anthropic.oneShotMs,
      target: within,
    },
    {
      figure: `per-turn harness time through the OpenAI-compatible path / through the Anthropic path (sessions of ${turns} \`echo N\` turns, interleaved)`,
      shown: `${p.openai.perTurnMs.toFixed(2)} ms / ${p.anthropic.perTurnMs.toFixed(2)} ms = ${(p.openai.perTurnMs / p.anthropic.perTurnMs).toFixed(2)}x`,
      value: p.openai.perTurnMs / p.anthropic.perTurnMs,
      target: within,
    },
  ];
}
