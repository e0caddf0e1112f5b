// The tool contract's plain JSON Schema input and the registry's tool sources.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { toolDefinition } from "../../../src/agent/tool-schema.ts";
import { ToolRegistry } from "../../../src/registry/registry.ts";
import { defineJsonTool, defineTool } from "../../../src/sdk.ts";

const schema = { type: "object", properties: { q: { type: "string", description: "what to find" } }, required: ["q"] };
const find = defineJsonTool({ name: "find", description: "Finds.", inputSchema: schema, run: (input) => `found ${String(input.q)}` });

test("a JSON Schema tool's definition is its schema as given; its input must be an object", () => {
  expect(toolDefinition(find)).toEqual({ name: "find", description: "Finds.", input_schema: schema });
  expect(v.safeParse(find.input, { q: "x" }).success).toBe(true);
  expect(v.safeParse(find.input, "x").success).toBe(false);
});

test("a source's tools come after the built-ins; a taken name is left out; the list is asked every time", async () => {
  const builtin = defineTool({ name: "find", description: "The built-in.", input: v.object({}), run: () => "" });
  let offered = [find, defineJsonTool({ name: "mcp__s__a", description: "A.", inputSchema: { type: "object" }, run: () => "a" })];
  const registry = new ToolRegistry([builtin], []);
  registry.addSource({ source: "mcp", tools: () => offered });
  const listed = await registry.list();
  expect(listed.tools.map((t) => [t.tool.name, t.source])).toEqual([["find", "built-in"], ["mcp__s__a", "mcp"]]);
  expect(listed.tools[0]!.tool).toBe(builtin);
  offered = [];
  expect((await registry.tools()).map((t) => t.name)).toEqual(["find"]);
});
