// Team figures, in process against the fake server: a background task call's time from the tool
// call to the parent's next request (over an instant worker), and four background workers of five
// tool turns each against one (each model reply takes a few milliseconds: what the workers overlap
// is that wait); the lead waits for them as print mode does.
import { join } from "node:path";
import * as v from "valibot";
import { builtinAgents } from "../src/agents/builtin.ts";
import type { StampedEvent } from "../src/agent/types.ts";
import type { Tool } from "../src/sdk.ts";
import { Session } from "../src/session/session.ts";
import { Store } from "../src/session/store.ts";
import { withSubagents } from "../src/session/subagents.ts";
import { startFakeAnthropic, type FakeStep } from "../test/fake/server.ts";
import { testSessionOptions } from "../test/support/session-kit.ts";
import { tempDir } from "../test/support/temp-dir.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";
import { worktreeFigures, worktreeRows, type WorktreeFigures } from "./bench-worktree.ts";

export type TeamFigures = { callToNextMs: number; oneWorkerMs: number; fourWorkersMs: number; worktree?: WorktreeFigures };

const noop: Tool = { name: "noop", description: "does nothing", input: v.object({ n: v.optional(v.number()) }), run: () => "ok" };
type Body = { system?: unknown; messages: { role: string; content: unknown }[] };
const isWorker = (body: Body) => JSON.stringify(body.system ?? "").includes("You are a subagent");
const toolTurns = (body: Body) => body.messages.filter((m) => m.role === "user" && JSON.stringify(m.content).includes("tool_result")).length;
const notified = (body: Body) => (JSON.stringify(body.messages).match(/<task-id>/g) ?? []).length;
const text = (t: string, delayMs = 0): FakeStep => ({ reply: [{ type: "text", text: t }], ...(delayMs ? { delayMs } : {}) });
const call = (name: string, input: unknown, delayMs = 0): FakeStep => ({ reply: [{ type: "tool_use", name, input }], ...(delayMs ? { delayMs } : {}) });
const bg = (i: number) => ({ type: "tool_use" as const, name: "task", input: { description: "work", prompt: `part ${i}`, subagent_type: "general", run_in_background: true } });

export async function teamFigures(runs: number): Promise<TeamFigures> {
  const dir = tempDir("rein-bench-teams-");
  let route: (body: Body) => FakeStep = () => text("ok");
  const fake = await startFakeAnthropic({ repeat: { respond: (body: Body) => route(body) } });
  const { store } = Store.open(join(dir.path, "rein.db"));
  const options = withSubagents(testSessionOptions({ store, baseURL: fake.url, dataDir: dir.path, tools: [noop] }), { agents: builtinAgents(dir.path) });
  const run = async (prompt: string, during?: (session: Session) => () => number) => {
    const session = Session.create(dir.path, options);
    session.waitsForWorkers = true;
    const measure = during?.(session);
    const start = performance.now();
    const result = await session.prompt(prompt);
    if (result.status !== "success") throw new Error(`bench run failed: ${result.error}`);
    return measure ? measure() : performance.now() - start;
  };
  const sample = async (how: (body: Body) => FakeStep, during?: (session: Session) => () => number) => {
    route = how;
    await run("warm up", during);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await run("go", during));
    return median(times);
  };
  try {
    // From the task call's tool_start to the arrival of the parent's next request (the fake runs in this process: one clock).
    const callToNext = await sample(
      (body) => (isWorker(body) ? text("worker ok") : notified(body) ? text("done") : toolTurns(body) ? text("started") : { reply: [bg(0)] }),
      (session) => {
        let called = 0;
        const before = fake.requests.length;
        session.subscribe((e: StampedEvent) => {
          if (e.type === "tool_start" && e.name === "task" && !e.parent_tool_use_id) called = performance.now();
        });
        return () => {
          const next = fake.requests.slice(before).find((r) => r.arrivedAt > called && !isWorker(r.body as Body));
          return next ? next.arrivedAt - called : Number.NaN;
        };
      },
    );
    // Workers of five tool turns; every reply takes ~8 ms (two SSE gaps of 4 ms). Distinct inputs: four identical calls in a row ask.
    const worker = (body: Body) => (toolTurns(body) < 5 ? call("noop", { n: toolTurns(body) }, 4) : text("worker done", 4));
    const lead = (n: number) => (body: Body): FakeStep => (notified(body) >= n ? text("all done") : toolTurns(body) ? text("waiting") : { reply: Array.from({ length: n }, (_, i) => bg(i)) });
    const one = await sample((body) => (isWorker(body) ? worker(body) : lead(1)(body)));
    const four = await sample((body) => (isWorker(body) ? worker(body) : lead(4)(body)));
    const worktree = await worktreeFigures(Math.max(3, Math.floor(runs / 2))).catch((error: unknown) => (console.error(`worktree figure skipped: ${error}`), undefined));
    return { callToNextMs: callToNext, oneWorkerMs: one, fourWorkersMs: four, ...(worktree ? { worktree } : {}) };
  } finally {
    await fake.close();
    store.close();
    dir.remove();
  }
}

export function teamRows(t: TeamFigures): Row[] {
  return [
    {
      figure: "a background task call: from the tool call to the parent's next request, over an instant worker (in process)",
      shown: `${t.callToNextMs.toFixed(2)} ms`,
      value: t.callToNextMs,
      target: { max: 10, text: "at most 10 ms" },
    },
    {
      figure: "four background workers of five tool turns each, against one (the lead waits for their notifications; in process)",
      shown: `${t.fourWorkersMs.toFixed(0)} ms / ${t.oneWorkerMs.toFixed(0)} ms = ${(t.fourWorkersMs / t.oneWorkerMs).toFixed(2)}x`,
      value: t.fourWorkersMs / t.oneWorkerMs,
      target: { max: 1.5, text: "at most 1.5x" },
    },
    ...(t.worktree ? worktreeRows(t.worktree) : []),
  ];
}

if (import.meta.main) console.log(await teamFigures(Number(process.env.BENCH_RUNS ?? 11)));
