// The memory tool through the compiled binary, where it starts as a lazy tool made at build time
// (src/memory/session-memory.ts) and its module loads with the first call: the model's add is
// saved, `rein memory list` lists it, and the next session's prompt carries the index.
import { expect, test } from "bun:test";
import { toolDefinition } from "../../src/agent/tool-schema.ts";
import { memoryTool } from "../../src/memory/memory-tool.ts";
import { resultText, text, toolResultsOf, world } from "./harness.ts";

const add = { type: "tool_use" as const, name: "memory", input: { action: "add", name: "Test runner", description: "bun test, never jest", type: "project", text: "The tests run with bun test." } };

test.concurrent("a memory added by the model is saved, listed, and in the next session's index; load_tools gives the definition the module has", async () => {
  await using w = await world();
  w.fake.script({ reply: [add] }, { reply: [text("Saved.")] });
  const r = await w.run(["-p", "remember how the tests run"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Saved.\n");
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toContain('Saved the memory "Test runner" (project)');
  expect((await w.run(["memory", "list"])).stdout).toContain("Test runner");

  w.fake.script({ reply: [{ type: "tool_use", name: "load_tools", input: { names: ["memory"] } }] }, { reply: [text("ok")] });
  expect((await w.run(["-p", "again"])).code).toBe(0);
  const second = w.fake.requests.at(-2)!.body as { system: unknown };
  expect(JSON.stringify(second.system)).toContain("Test runner");
  const sent = (w.fake.requests.at(-1)!.body as { tools: { name: string }[] }).tools.find((t) => t.name === "memory");
  const { cache_control: _mark, ...definition } = sent as Record<string, unknown>;
  expect(definition).toEqual(toolDefinition(memoryTool({ project: "/", user: "/" })) as unknown as Record<string, unknown>);
});
