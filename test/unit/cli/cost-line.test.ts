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
  expect(spend).toEqual({ usage: usage(101, 12, 1003, 34), cost_usd: 0.3, runs: 2, compactions: 0 });
  expect(sessionSpend([result(0.1), result(null)]).cost_usd).toBeNull();
  expect(sessionSpend([])).toMatchObject({ cost_usd: 0, runs: 0 });
});

let seq = 100;
const user = (): StampedEvent => ({ type: "user", session_id: "s_1", seq: ++seq, text: "go" });
const compaction = (u?: ReturnType<typeof usage>, cost_usd?: number | null): StampedEvent => ({
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
  ...(u ? { usage: u } : {}),
  ...(cost_usd !== undefined ? { cost_usd } : {}),
});

test("a compaction inside a run is in that run's result already: counted once", () => {
  const spend = sessionSpend([user(), compaction(usage(50, 5), 0.01), result(0.1, usage(150, 15))]);
  expect(spend).toEqual({ usage: usage(150, 15), cost_usd: 0.1, runs: 1, compactions: 0 });
});

test("a compaction outside any run (/compact) counts on its own: its summary call's tokens and cost", () => {
  const events = [user(), result(0.1), compaction(usage(50, 5, 10, 2), 0.02), user(), result(0.2, usage(1, 1))];
  expect(sessionSpend(events)).toEqual({ usage: usage(151, 16, 1010, 32), cost_usd: 0.32, runs: 2, compactions: 1 });
  // the last thing in the session
  expect(sessionSpend([user(), result(0.1), compaction(usage(50, 5), 0.02)])).toMatchObject({ cost_usd: 0.12, compactions: 1 });
});

test("a compaction in a run that never ended (a crash) has no result to hold it: it counts on its own", () => {
  const events = [user(), compaction(usage(50, 5), 0.02), user(), result(0.1)];
  expect(sessionSpend(events)).toMatchObject({ usage: usage(150, 15, 1000, 30), cost_usd: 0.12, runs: 1, compactions: 1 });
});

test("a prune (no summary call) costs nothing; a stored compaction without its cost (older rein) makes the total unknown", () => {
  expect(sessionSpend([user(), result(0.1), compaction()])).toMatchObject({ cost_usd: 0.1, compactions: 0 });
  expect(sessionSpend([user(), result(0.1), compaction(usage(50, 5))])).toMatchObject({ usage: usage(150, 15, 1000, 30), cost_usd: null, compactions: 1 });
  expect(sessionSpend([user(), result(0.1), compaction(usage(50, 5), null)]).cost_usd).toBeNull();
});
