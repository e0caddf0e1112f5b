// Claude Code's --json-schema with the real validator: a schema that is not one is a usage error, the
// model is told the schema, an answer is read as JSON (in a code fence too) and checked, and what is
// wrong goes back to the model in words it can act on.
import { describe, expect, test } from "bun:test";
import { UsageError } from "../../../src/app/args.ts";
import { jsonSchemaCheck, schemaStopCheck } from "../../../src/cli/json-schema.ts";

const SCHEMA = JSON.stringify({ type: "object", properties: { ok: { type: "boolean" }, count: { type: "integer", minimum: 0 } }, required: ["ok"], additionalProperties: false });

async function usage(text: string): Promise<string> {
  try {
    await jsonSchemaCheck(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a usage error");
}

describe("the flag's value", () => {
  test("text that is not JSON is a usage error with an example of a schema", async () => {
    const message = await usage("{type: object}");
    expect(message).toStartWith("--json-schema: not valid JSON (");
    expect(message).toContain(`e.g. --json-schema '{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}'`);
  });

  test("JSON that is not an object is not a schema", async () => {
    for (const text of ["[]", '"string"', "42", "null"]) expect(await usage(text)).toBe("--json-schema: expected a JSON Schema object");
  });

  test("an object the validator cannot compile names the problem", async () => {
    expect(await usage('{"type": "banana"}')).toStartWith("--json-schema: not a usable JSON Schema (");
  });

  test("the instruction gives the schema itself and asks for nothing but the value", async () => {
    const { instruction } = await jsonSchemaCheck(SCHEMA);
    expect(instruction).toEndWith(`\n${SCHEMA}`);
    expect(instruction).toContain("reply with only one JSON value valid against this JSON Schema, with no prose and no code fence");
  });
});

describe("checking an answer", () => {
  test("a valid answer is its value, with spaces around it or in a json code fence", async () => {
    const { check } = await jsonSchemaCheck(SCHEMA);
    expect(check('{"ok": true, "count": 3}')).toEqual({ value: { ok: true, count: 3 } });
    expect(check('\n  {"ok": false}  \n')).toEqual({ value: { ok: false } });
    expect(check('```json\n{"ok": true}\n```')).toEqual({ value: { ok: true } });
    expect(check('```\n{"ok": true}\n```')).toEqual({ value: { ok: true } });
  });

  test("prose around the JSON is not JSON", async () => {
    const { check } = await jsonSchemaCheck(SCHEMA);
    const got = check('Here it is: {"ok": true}');
    expect("error" in got && got.error).toStartWith("not JSON (");
  });

  test("every violation is named, from the answer's root", async () => {
    const { check } = await jsonSchemaCheck(SCHEMA);
    const got = check('{"count": -1, "extra": 1}');
    expect(got).toHaveProperty("error");
    const error = (got as { error: string }).error;
    expect(error).toContain("answer must have required property 'ok'");
    expect(error).toContain("answer/count must be >= 0");
    expect(error).toContain("answer must NOT have additional properties");
  });

  test("a schema for a bare value checks bare values", async () => {
    const { check } = await jsonSchemaCheck('{"type": "array", "items": {"type": "string"}, "minItems": 1}');
    expect(check('["a", "b"]')).toEqual({ value: ["a", "b"] });
    expect(check("[]")).toEqual({ error: "answer must NOT have fewer than 1 items" });
    expect(check('"a"')).toEqual({ error: "answer must be array" });
  });
});

test("the stop check lets a valid answer end the run and sends a wrong one back with what is wrong", async () => {
  const stop = schemaStopCheck(await jsonSchemaCheck(SCHEMA));
  expect(await stop({ text: '{"ok": true}' })).toBeUndefined();
  expect(await stop({ text: '{"ok": "yes"}' })).toBe(
    "Your final answer does not match the JSON Schema the user asked for: answer/ok must be boolean. Reply again with only the JSON value, nothing else.",
  );
  expect(await stop({ text: "I think it is ok." })).toStartWith("Your final answer does not match the JSON Schema the user asked for: not JSON (");
});
