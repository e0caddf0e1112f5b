import { expect, test } from "bun:test";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { costLine, sessionSpend } from "../../../src/cli/cost-line.ts";

const usage = (input: number, output: number, read = 0, write = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
});
const result = (cost_usd: number | null, u = usage(100, 10, 1000, 30)): StampedEvent => ({
  type: "result",
  session_id: "s_1",
  seq: 1,
  status: "success",
  text: "",
  usage: u,
  cost_usd,
  turns: 1,
  duration_ms: 1,
});

test("one answer: every kind of token and the money to four decimals", () => {
  expect(costLine({ usage: usage(1200, 7, 1000, 30), cost_usd: 0.00421 })).toBe("tokens: in 1200 (cache read 1000, write 30) · out 7 · $0.0042");
});

test("a model without prices: the tokens, and the cost is unknown rather than $0", () => {
  expect(costLine({ usage: usage(5, 1), cost_usd: null })).toBe("tokens: in 5 (cache read 0, write 0) · out 1 · cost unknown");
});

test("the session's totals add up every run's result, ignoring other events", () => {
  const other: StampedEvent = { type: "user", session_id: "s_1", seq: 2, text: "hi" };
  const spend = sessionSpend([result(0.1), other, result(0.2, usage(1, 2, 3, 4))]);
  expect(spend).toEqual({ usage: usage(101, 12, 1003, 34), cost_usd: 0.3, runs: 2, unfinished: 0, compactions: 0 });
  expect(sessionSpend([result(0.1), result(null)]).cost_usd).toBeNull();
  expect(sessionSpend([])).toMatchObject({ cost_usd: 0, runs: 0 });
});

let seq = 100;
const compaction = (fields: { usage?: ReturnType<typeof usage>; cost_usd?: number | null; outside_run?: boolean } = {}): StampedEvent => ({
  type: "compaction",
  session_id: "s_1",
  seq: ++seq,
  summary: "s",
  method: "summary",
  tokens_before: 1000,
  tokens_after: 100,
  first_kept: 2,
  head: "[summary]",
  pruned: [],
  ...fields,
});

test("a compaction outside any run (/compact) counts on its own: its summary call's tokens and cost", () => {
  const events = [result(0.1), compaction({ usage: usage(50, 5, 10, 2), cost_usd: 0.02, outside_run: true }), result(0.2, usage(1, 1))];
  expect(sessionSpend(events)).toEqual({ usage: usage(151, 16, 1010, 32), cost_usd: 0.32, runs: 2, unfinished: 0, compactions: 1 });
  expect(sessionSpend([compaction({ usage: usage(50, 5), cost_usd: null, outside_run: true })]).cost_usd).toBeNull();
});

test("a compaction inside a run is in that run's result already; one stored before the field existed too; a prune costs nothing", () => {
  const inRun = compaction({ usage: usage(50, 5), cost_usd: 0.01, outside_run: false });
  expect(sessionSpend([inRun, result(0.1, usage(150, 15))])).toEqual({ usage: usage(150, 15), cost_usd: 0.1, runs: 1, unfinished: 0, compactions: 0 });
  expect(sessionSpend([result(0.1), compaction({ usage: usage(50, 5) })])).toMatchObject({ cost_usd: 0.1, compactions: 0 });
  expect(sessionSpend([result(0.1), compaction({ outside_run: true })])).toMatchObject({ cost_usd: 0.1, compactions: 0 });
});

const turn = (cost_usd: number | null, u = usage(100, 10)): StampedEvent => ({
  type: "assistant",
  session_id: "s_1",
  seq: ++seq,
  content: [],
  stop_reason: "tool_use",
  usage: u,
  cost_usd,
  model: "claude-sonnet-5-5",
});
const prompt = (): StampedEvent => ({ type: "user", session_id: "s_1", seq: ++seq, text: "" });

test("a run killed before its result counts its turns and summary calls, and is counted as a run without a result", () => {
  const killed = [prompt(), turn(0.01), compaction({ usage: usage(50, 5), cost_usd: 0.002, outside_run: false }), turn(0.02, usage(200, 20))];
  const finished = [prompt(), turn(0.5, usage(1, 1)), result(0.5, usage(1, 1))];
  expect(sessionSpend([...killed, ...finished])).toEqual({ usage: usage(351, 36), cost_usd: 0.532, runs: 2, unfinished: 1, compactions: 0 });
  // killed as the last run (or still going)
  expect(sessionSpend([...finished, ...killed])).toMatchObject({ cost_usd: 0.532, runs: 2, unfinished: 1 });
});

test("a failed run whose result lost its usage (an internal error) counts its turns instead", () => {
  const failed = { ...result(0, usage(0, 0)), status: "error" } as StampedEvent;
  expect(sessionSpend([prompt(), turn(0.01), turn(0.02), failed])).toMatchObject({ usage: usage(200, 20), cost_usd: 0.03, runs: 1, unfinished: 0 });
});
