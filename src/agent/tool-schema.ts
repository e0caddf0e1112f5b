// A tool's valibot input schema as the JSON Schema the model reads, converted once per tool.
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool } from "../sdk.ts";

export type ToolDefinition = { name: string; description: string; input_schema: Record<string, unknown> };

const cache = new WeakMap<Tool, ToolDefinition>();

/** Records a definition converted ahead of time for `tool` (a lazy tool's, computed when the binary was built). */
export function rememberToolDefinition(tool: Tool, definition: ToolDefinition): void {
  cache.set(tool, definition);
}

export function toolDefinition(tool: Tool): ToolDefinition {
  const cached = cache.get(tool);
  if (cached) return cached;
  if (tool.inputSchema) {
    const definition = { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
    cache.set(tool, definition);
    return definition;
  }
  const { $schema: _drop, ...schema } = toJsonSchema(tool.input, { errorMode: "ignore" }) as Record<string, unknown>;
  const definition = { name: tool.name, description: tool.description, input_schema: schema };
  cache.set(tool, definition);
  return definition;
}
