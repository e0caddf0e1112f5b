// Lazy tools (how the compiled binary offers its built-ins): the request is built from the spec
// alone, the module loads at the first call that needs it (once), and a module that fails to load
// is an error result like any other tool failure. Driven through a real Session and the fake server.
import { beforeEach, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { lazyTool } from "../../../src/agent/lazy-tool.ts";
import { toolDefinition } from "../../../src/agent/tool-schema.ts";
import { defineTool, type Tool } from "../../../src/sdk.ts";
import { sentResults, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const finalText = { reply: [{ type: "text" as const, text: "All done." }] };
const call = (id: string, input: unknown) => ({ reply: [{ type: "tool_use" as const, id, name: "read", input }] });

/** A real tool, and a lazy stand-in for it that counts how often its module was loaded. */
function lazyRead(load?: () => Promise<Tool>) {
  const runs: unknown[] = [];
  const real = defineTool({
    name: "read",
    description: "Reads a file",
    input: v.object({ path: v.string() }),
    readOnly: true,
    run: (input) => {
      runs.push(input);
      return `read ${input.path}`;
    },
  });
  const spec = { definition: toolDefinition(real), readOnly: true };
  let loads = 0;
  const tool = lazyTool(spec, () => {
    loads++;
    return load ? load() : Promise.resolve(real);
  });
  return { tool, spec, runs, loads: () => loads };
}

describe("a lazy tool", () => {
  test("is offered from its spec alone; a run that calls no tool never loads it", async () => {
    const read = lazyRead();
    const { session } = kit.create({ tools: [read.tool] });
    kit.fake.script(finalText);

    await session.prompt("hello");

    expect(kit.fake.requests[0]!.body.tools.map(({ cache_control: _c, ...t }: Record<string, unknown>) => t)).toEqual([read.spec.definition]);
    expect(read.tool.readOnly).toBe(true);
    expect(read.loads()).toBe(0);
  });

  test("loads at its first call, once, and runs as the real tool", async () => {
    const read = lazyRead();
    const { session } = kit.create({ tools: [read.tool] });
    kit.fake.script(call("toolu_1", { path: "a" }), call("toolu_2", { path: "b" }), finalText);

    const result = await session.prompt("read two files");

    expect(result.status).toBe("success");
    expect(read.runs).toEqual([{ path: "a" }, { path: "b" }]);
    expect(read.loads()).toBe(1);
    expect(sentResults(kit.fake.requests[2])[0]!.content).toBe("read b");
  });

  test("input is checked against the loaded tool's schema", async () => {
    const read = lazyRead();
    const { session } = kit.create({ tools: [read.tool] });
    kit.fake.script(call("toolu_bad", { path: 42 }), finalText);

    await session.prompt("read");

    expect(read.runs).toEqual([]);
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block!.is_error).toBe(true);
    expect(block!.content).toContain('Invalid input for tool "read"');
  });

  test("a module that fails to load is an error result, and the loop goes on", async () => {
    const read = lazyRead(() => Promise.reject(new Error("chunk missing")));
    const { session } = kit.create({ tools: [read.tool] });
    kit.fake.script(call("toolu_1", { path: "a" }), finalText);

    const result = await session.prompt("read");

    expect(result.status).toBe("success");
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block).toMatchObject({ tool_use_id: "toolu_1", is_error: true });
    expect(block!.content).toBe('Tool "read" could not be loaded: chunk missing');
  });

  test("its schema and permissions are never read before the module is loaded", () => {
    const read = lazyRead();
    expect(() => read.tool.input).toThrow(/before its module was loaded/);
    expect(() => read.tool.permissions?.({}, { cwd: "/" })).toThrow(/before its module was loaded/);
  });
});
