// Claude Code's --json-schema: the final answer must be JSON valid against the schema. The model is
// told so in the system prompt; an answer that is not is sent back with what is wrong (the loop's
// stop check, a few times at most), and the valid value is the run's `structured_output`. The
// validator (ajv) is loaded only when the flag is given.
import { UsageError } from "../app/args.ts";

export type SchemaCheck = {
  /** the system prompt's addition */
  instruction: string;
  /** the answer's value, or what is wrong with it (for the model) */
  check(answer: string): { value: unknown } | { error: string };
};

export async function jsonSchemaCheck(text: string): Promise<SchemaCheck> {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--json-schema: not valid JSON (${(error as Error).message}); give the schema itself, e.g. --json-schema '{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}'`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new UsageError("--json-schema: expected a JSON Schema object");
  const { default: Ajv } = await import("ajv");
  const ajv = new Ajv({ allErrors: true, strict: false });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new UsageError(`--json-schema: not a usable JSON Schema (${(error as Error).message})`);
  }
  return {
    instruction:
      "The user's program reads your final answer as JSON. When you are done, reply with only one JSON value valid against this JSON Schema, with no prose and no code fence:\n" +
      JSON.stringify(schema),
    check(answer) {
      const body = answer.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, "$1").trim();
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (error) {
        return { error: `not JSON (${(error as Error).message})` };
      }
      if (validate(value)) return { value };
      return { error: ajv.errorsText(validate.errors, { dataVar: "answer" }) };
    },
  };
}

/** The stop check: an answer that does not match goes back to the model with what is wrong. */
export function schemaStopCheck(schema: SchemaCheck): (stop: { text: string }) => Promise<string | undefined> {
  return async ({ text }) => {
    const checked = schema.check(text);
    if ("value" in checked) return undefined;
    return `Your final answer does not match the JSON Schema the user asked for: ${checked.error}. Reply again with only the JSON value, nothing else.`;
  };
}
