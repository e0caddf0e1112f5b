// A tool's valibot input schema as the JSON Schema the model reads, converted once per tool.
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool } from "../sdk.ts";

export type ToolDefinition = { name: string; description: string; input_schema: Record<string, unknown> };

const cache = new WeakMap<Tool, ToolDefinition>();

/**
 * Takes definitions converted ahead of time (the built-in tools' in the compiled binary, see
 * build.ts) for these exact tools, matched by name; a definition for another name is ignored.
 */
export function seedToolDefinitions(tools: readonly Tool[], definitions: readonly ToolDefinition[]): void {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  for (const tool of tools) {
    const definition = byName.get(tool.name);
    if (definition && definition.description === tool.description) cache.set(tool, definition);
  }
}

export function toolDefinition(tool: Tool): ToolDefinition {
  const cached = cache.get(tool);
  if (cached) return cached;
  const { $schema: _drop, ...schema } = toJsonSchema(tool.input, { errorMode: "ignore" }) as Record<string, unknown>;
  const definition = { name: tool.name, description: tool.description, input_schema: schema };
  cache.set(tool, definition);
  return definition;
}
