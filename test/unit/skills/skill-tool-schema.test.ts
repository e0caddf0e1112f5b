// The skill tool sends a JSON Schema written out (SKILL_INPUT_SCHEMA) and builds its valibot schema
// at its first call: the two must say the same, as tool-schema.ts would convert the valibot one.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { toolDefinition } from "../../../src/agent/tool-schema.ts";
import { SKILL_INPUT_SCHEMA, skillInput, skillTool } from "../../../src/skills/skill-tool.ts";

test("the schema the model reads is the valibot input's, converted", () => {
  const converted = toolDefinition({ name: "skill", description: "d", input: skillInput(), run: () => ({ output: "" }) });
  expect(converted.input_schema).toEqual(SKILL_INPUT_SCHEMA);
  expect(toolDefinition(skillTool([], () => {})).input_schema).toEqual(SKILL_INPUT_SCHEMA);
});

test("the tool's input still checks a call: a name is needed, args are optional text", () => {
  const tool = skillTool([], () => {});
  expect(v.safeParse(tool.input, { name: "lint" }).success).toBe(true);
  expect(v.safeParse(tool.input, { name: "lint", args: "x" }).success).toBe(true);
  expect(v.safeParse(tool.input, { args: "x" }).success).toBe(false);
  expect(v.safeParse(tool.input, { name: 3 }).success).toBe(false);
});
