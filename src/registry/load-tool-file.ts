// Imports one tool file and checks that its default export is a usable tool. Every failure comes
// back as a LoadError (file, line, reason); nothing here throws.
import { toolDefinition } from "../agent/tool-schema.ts";
import type { Tool } from "../sdk.ts";

export type ToolSource = "built-in" | "user" | "project" | "mcp";
export type LoadedTool = { tool: Tool; source: ToolSource; file?: string };
export type LoadError = { file: string; line?: number; column?: number; reason: string };

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

export async function loadToolFile(file: string, version: number): Promise<Tool | LoadError> {
  let module: { default?: unknown };
  try {
    module = (await import(`${file}?v=${version}`)) as { default?: unknown };
  } catch (error) {
    return importError(file, error);
  }
  const tool = module.default;
  const problem = checkTool(tool);
  if (problem) return { file, reason: problem };
  try {
    toolDefinition(tool as Tool); // converts the schema once; a schema that cannot be described fails here
  } catch (error) {
    return { file, reason: `its input schema cannot be turned into JSON Schema: ${messageOf(error)}` };
  }
  return tool as Tool;
}

function checkTool(tool: unknown): string | undefined {
  if (!tool || typeof tool !== "object") return "the default export is not a tool: export default defineTool({ name, description, input, run })";
  const t = tool as Record<string, unknown>;
  if (typeof t.name !== "string" || !NAME.test(t.name)) return `the tool's name must be a word of letters, digits, _ or - (got ${JSON.stringify(t.name)})`;
  if (typeof t.description !== "string" || !t.description.trim()) return `tool "${t.name}" has no description`;
  if (!t.input || typeof t.input !== "object" || (t.input as { kind?: string }).kind !== "schema") {
    return `tool "${t.name}": input must be a valibot schema, e.g. v.object({ path: v.string() })`;
  }
  if (typeof t.run !== "function") return `tool "${t.name}" has no run function`;
  if (t.permissions !== undefined && typeof t.permissions !== "function") return `tool "${t.name}": permissions must be a function`;
  return undefined;
}

type Position = { line?: number; column?: number; file?: string };

function importError(file: string, error: unknown): LoadError {
  // Bun reports a syntax error as a BuildMessage (or an AggregateError of them) with a position.
  const first = (error as { errors?: unknown[] }).errors?.[0] ?? error;
  const position = (first as { position?: Position }).position;
  const line = position?.line;
  return {
    file: position?.file ?? file,
    ...(line ? { line, column: position?.column } : {}),
    reason: messageOf(first) || messageOf(error),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error);
}
