// --max-cost holds for the whole run: a parent and the children its task calls run at once share one
// budget. Once the run has spent it, no model call starts, in a child or in the parent, and the run
// ends with exit 4.
import { expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { parseEvents, text, world } from "./harness.ts";

// claude-sonnet-5-5: $2 / $10 per million tokens; 1000 in and 100 out cost $0.003 a call.
const MODEL = "claude-sonnet-5-5";
const usage = { input_tokens: 1000, output_tokens: 100 };
const CALL = 0.003;
const isChild = (body: { system?: unknown }) => JSON.stringify(body.system).includes("explore agent");
const task = (n: number) => ({ type: "tool_use" as const, name: "task", id: `toolu_task_${n}`, input: { description: `look ${n}`, prompt: `read notes.txt (${n})`, subagent_type: "explore" } });

test.concurrent("--max-cost 0.01 with four children at once: no model call starts once the run spent it; exit 4", async () => {
  // Each child's first reply waits until all four children have asked, so their first calls are in
  // flight together: after them the run has spent 5 x $0.003, over the cap. A child that went on would
  // keep reading for ever.
  let childCalls = 0;
  let release!: () => void;
  const allAsked = new Promise<void>((resolve) => (release = resolve));
  await using w = await world({
    repeat: {
      respond: (body) => {
        if (!isChild(body)) return { reply: [text("the parent went on")], usage };
        if (++childCalls === 4) release();
        return { reply: [{ type: "tool_use", name: "read", input: { path: "notes.txt" } }], usage, ...(childCalls <= 4 ? { waitFor: allAsked } : {}) };
      },
    },
  });
  await writeFile(w.path("notes.txt"), "notes\n");
  w.fake.script({ reply: [task(1), task(2), task(3), task(4)], usage });

  const r = await w.run(["-m", MODEL, "-p", "look four ways", "--max-cost", "0.01", "--output-format", "stream-json"], { timeoutMs: 60_000 });

  const events = parseEvents(r.stdout);
  const result = events.at(-1)!;
  expect(result).toMatchObject({ type: "result", status: "max_turns" });
  expect(String(result.error)).toContain("the cost budget of $0.01 was reached");
  expect(r.code).toBe(4);
  // the parent's first call and each child's first: nothing after the cap was reached
  expect(w.fake.requests).toHaveLength(5);
  expect(childCalls).toBe(4);
  expect(result.cost_usd).toBeCloseTo(5 * CALL, 9);
  // every child stopped for the budget too, and said so to the parent
  const childResults = events.filter((e) => e.type === "result" && e.parent_tool_use_id);
  expect(childResults.map((e) => e.status)).toEqual(["max_turns", "max_turns", "max_turns", "max_turns"]);
}, 90_000);
