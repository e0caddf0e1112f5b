// The OpenAI-compatible path against the Anthropic path, measured in the same run and interleaved
// (one run of each in turn), so the ratio holds on a slow day: one-shot `rein -p` and the per-turn
// harness time of a session of shell tool turns, each against its own fake server on 127.0.0.1.
import { startFakeOpenAI, type ChatStep } from "../test/fake/openai-server.ts";
import type { FakeServer, FakeStep } from "../test/fake/server.ts";

export type PathFigures = { oneShotMs: number; perTurnMs: number };
export type ProviderFigures = { anthropic: PathFigures; openai: PathFigures };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function timed(bin: string, args: string[], env: Record<string, string>): Promise<number> {
  const start = performance.now();
  const proc = Bun.spawn([bin, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${err}${out}`);
  return performance.now() - start;
}

const echoTurns = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({ reply: [{ type: "tool_use" as const, name: "bash", input: { command: `echo ${i + 1}` } }] })),
  { reply: [{ type: "text" as const, text: "done" }] },
];

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
