// A tool's definition as the model reads it: the schema without what would be carried for nothing.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { toolDefinition } from "../../../src/agent/tool-schema.ts";
import { defineTool } from "../../../src/sdk.ts";

test("a string enum carries its values without a type beside them, and the description loses its trailing line break", () => {
  const tool = defineTool({
    name: "pick",
    description: "Pick one.\n",
    input: v.object({
      mode: v.picklist(["files", "content"]),
      count: v.optional(v.pipe(v.number(), v.integer())),
      name: v.pipe(v.string(), v.minLength(1)),
    }),
    run: () => "ok",
  });
  expect(toolDefinition(tool)).toEqual({
    name: "pick",
    description: "Pick one.",
    input_schema: {
      type: "object",
      properties: { mode: { enum: ["files", "content"] }, count: { type: "integer" }, name: { type: "string" } },
      required: ["mode", "name"],
    },
  });
});
