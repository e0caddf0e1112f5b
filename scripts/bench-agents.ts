// Subagent figures, in process against the fake server: the harness time a task call adds over its
// child's own one-shot work, and four children of five tool turns in parallel against one alone
// (each model reply takes a few milliseconds, as a model's would take longer: what the parallel
// children overlap is that wait).
import { join } from "node:path";
import * as v from "valibot";
import { builtinAgents } from "../src/agents/builtin.ts";
import type { Tool } from "../src/sdk.ts";
import { Session } from "../src/session/session.ts";
import { Store } from "../src/session/store.ts";
import { withSubagents } from "../src/session/subagents.ts";
import { startFakeAnthropic, type FakeStep } from "../test/fake/server.ts";
import { testSessionOptions } from "../test/support/session-kit.ts";
import { tempDir } from "../test/support/temp-dir.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

export type AgentFigures = { overheadMs: number; oneChildMs: number; fourChildrenMs: number };

const noop: Tool = { name: "noop", description: "does nothing", input: v.object({ n: v.optional(v.number()) }), run: () => "ok" };
type Body = { system?: unknown; messages: { role: string; content: unknown }[] };
const isChild = (body: Body) => JSON.stringify(body.system ?? "").includes("You are a subagent");
const toolTurnsSoFar = (body: Body) => body.messages.filter((m) => m.role === "user" && JSON.stringify(m.content).includes("tool_result")).length;
const text = (t: string, delayMs = 0): FakeStep => ({ reply: [{ type: "text", text: t }], ...(delayMs ? { delayMs } : {}) });
const call = (name: string, input: unknown, delayMs = 0): FakeStep => ({ reply: [{ type: "tool_use", name, input }], ...(delayMs ? { delayMs } : {}) });
const task = { description: "work", prompt: "do the work", subagent_type: "general" };

export async function agentFigures(runs: number): Promise<AgentFigures> {
  const dir = tempDir("rein-bench-agents-");
  let route: (body: Body) => FakeStep = () => text("ok");
  const fake = await startFakeAnthropic({ repeat: { respond: (body: Body) => route(body) } });
  const { store } = Store.open(join(dir.path, "rein.db"));
  const options = withSubagents(testSessionOptions({ store, baseURL: fake.url, dataDir: dir.path, tools: [noop] }), { agents: builtinAgents(dir.path) });
  const timed = async (prompt: string) => {
    const session = Session.create(dir.path, options);
    const start = performance.now();
    const result = await session.prompt(prompt);
    if (result.status !== "success") throw new Error(`bench run failed: ${result.error}`);
    return performance.now() - start;
  };
  const sample = async (how: (body: Body) => FakeStep) => {
    route = how;
    await timed("warm up");
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await timed("go"));
    return median(times);
  };
  try {
    const oneShot = await sample(() => text("ok"));
    const plainTool = await sample((body) => (toolTurnsSoFar(body) ? text("done") : call("noop", {})));
    const withTask = await sample((body) => (isChild(body) ? text("child ok") : toolTurnsSoFar(body) ? text("done") : call("task", task)));
    // Children of five tool turns; every reply takes ~8 ms (two SSE gaps of 4 ms).
    // Distinct inputs: the same call four times in a row would make the loop ask a person.
    const child = (body: Body) => (toolTurnsSoFar(body) < 5 ? call("noop", { n: toolTurnsSoFar(body) }, 4) : text("child done", 4));
    const parent = (n: number) => (body: Body): FakeStep =>
      toolTurnsSoFar(body) ? text("done") : { reply: Array.from({ length: n }, (_, i) => ({ type: "tool_use" as const, name: "task", input: { ...task, prompt: `part ${i}` } })) };
    const one = await sample((body) => (isChild(body) ? child(body) : parent(1)(body)));
    const four = await sample((body) => (isChild(body) ? child(body) : parent(4)(body)));
    return { overheadMs: withTask - plainTool - oneShot, oneChildMs: one, fourChildrenMs: four };
  } finally {
    await fake.close();
    store.close();
    dir.remove();
  }
}

/** A task call's harness time, and four subagents in parallel against one (in process). */
export function agentRows(a: AgentFigures): Row[] {
  return [
    {
      figure: "a task call whose child answers in one turn: harness time over the child's own one-shot run (in process)",
      shown: `${a.overheadMs.toFixed(2)} ms`,
      value: a.overheadMs,
      target: { max: 10, text: "at most 10 ms" },
    },
    {
      figure: "four subagents of five tool turns each in parallel, against one alone (wall time, in process, ~30 ms a model reply)",
      shown: `${a.fourChildrenMs.toFixed(0)} ms / ${a.oneChildMs.toFixed(0)} ms = ${(a.fourChildrenMs / a.oneChildMs).toFixed(2)}x`,
      value: a.fourChildrenMs / a.oneChildMs,
      target: { max: 1.5, text: "at most 1.5x" },
    },
  ];
}

if (import.meta.main) console.log(await agentFigures(Number(process.env.BENCH_RUNS ?? 11)));
