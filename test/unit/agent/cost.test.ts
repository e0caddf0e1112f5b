// Cost per turn and per run, and the --max-cost budget, through a real Session against the fake
// server: each scripted step reports its own usage, priced from the model table.
import { beforeEach, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { costUsd } from "../../../src/llm/providers.ts";
import { defineTool } from "../../../src/sdk.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

// claude-haiku-4-5: $1 per million input tokens, $5 per million output tokens.
const PRICED = "claude-haiku-4-5";
const usage = { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
const TURN_COST = 0.0015;

const look = defineTool({ name: "look", description: "Looks", input: v.object({}), permissions: () => [], run: () => "seen" });
const again = (n: number) => ({ reply: [{ type: "tool_use" as const, id: `toolu_${n}`, name: "look", input: {} }], usage });
const done = { reply: [{ type: "text" as const, text: "Done." }], usage };

describe("the cost budget", () => {
  test("no turn starts once the run has spent the budget; the result carries what was spent", async () => {
    const { session, log } = kit.create({ tools: [look], model: PRICED, maxCost: 2 * TURN_COST });
    kit.fake.script(again(1), again(2));

    const result = await session.prompt("look around");

    expect(kit.fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ status: "max_turns", turns: 2, cost_usd: 2 * TURN_COST });
    expect(result.error).toBe("stopped: the cost budget of $0.003 was reached ($0.0030 spent) (--max-cost)");
    expect(log.of("tool_end")).toHaveLength(2);
  });

  test("not earlier: a turn starts while the run is still under the budget", async () => {
    const { session } = kit.create({ tools: [look], model: PRICED, maxCost: 2 * TURN_COST + 0.000001 });
    kit.fake.script(again(1), again(2), done);

    const result = await session.prompt("look around");

    expect(kit.fake.requests).toHaveLength(3);
    expect(result).toMatchObject({ status: "success", turns: 3, cost_usd: 0.0045 });
  });

  test("the budget is per run: the next prompt starts from nothing", async () => {
    const { session } = kit.create({ model: PRICED, maxCost: TURN_COST });
    kit.fake.script(done, done);

    expect(await session.prompt("one")).toMatchObject({ status: "success", cost_usd: TURN_COST });
    expect(await session.prompt("two")).toMatchObject({ status: "success", cost_usd: TURN_COST });
  });
});

describe("cost per turn", () => {
  test("each assistant event carries its turn's cost, and they add up to the result's", async () => {
    const { session, log } = kit.create({ tools: [look], model: PRICED });
    const cached = { input_tokens: 300, output_tokens: 42, cache_read_input_tokens: 5000, cache_creation_input_tokens: 1200 };
    kit.fake.script({ ...again(1), usage: cached }, again(2), { ...done, usage: { ...cached, output_tokens: 7 } });

    const result = await session.prompt("look around");

    const turns = log.of("assistant");
    expect(turns.map((t) => t.cost_usd)).toEqual([costUsd(PRICED, cached), TURN_COST, costUsd(PRICED, { ...cached, output_tokens: 7 })]);
    const sum = turns.reduce((total, t) => total + t.cost_usd!, 0);
    expect(result.cost_usd).toBeCloseTo(sum, 9);
    expect(result.cost_usd).toBe(costUsd(PRICED, result.usage));
    expect(result.usage).toEqual({ input_tokens: 1600, output_tokens: 149, cache_read_input_tokens: 10000, cache_creation_input_tokens: 2400 });
  });

  test("a model without prices: tokens are counted, the cost is null (not $0), and a budget cannot stop it", async () => {
    const { session, log } = kit.create({ tools: [look], maxCost: 0.000001 });
    kit.fake.script(again(1), done);

    const result = await session.prompt("look around");

    expect(log.of("assistant").map((t) => t.cost_usd)).toEqual([null, null]);
    expect(result).toMatchObject({ status: "success", turns: 2, cost_usd: null });
    expect(result.usage.input_tokens).toBe(2000);
  });
});
