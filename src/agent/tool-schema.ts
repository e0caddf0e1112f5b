// A tool's valibot input schema as the JSON Schema the model reads, converted once per tool.
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Tool } from "../sdk.ts";

export type ToolDefinition = { name: string; description: string; input_schema: Record<string, unknown> };

const cache = new WeakMap<Tool, ToolDefinition>();
const deferred = new WeakSet<Tool>();

/** A copy of `tool` that runs as it does but whose definition is not sent (session/deferred-tools.ts). */
export function deferredCopy(tool: Tool): Tool {
  // Through the prototype: a lazy tool's getters stay unread until a call needs them.
  const copy = Object.create(tool) as Tool;
  deferred.add(copy);
  return copy;
}

export function isDeferred(tool: Tool): boolean {
  return deferred.has(tool);
}

/** Records a definition converted ahead of time for `tool` (a lazy tool's, computed when the binary was built). */
export function rememberToolDefinition(tool: Tool, definition: ToolDefinition): void {
  cache.set(tool, definition);
}

export function toolDefinition(tool: Tool): ToolDefinition {
  const cached = cache.get(tool);
  if (cached) return cached;
  if (tool.inputSchema) {
    const definition = { name: tool.name, description: tool.description.trim(), input_schema: tool.inputSchema };
    cache.set(tool, definition);
    return definition;
  }
  const { $schema: _drop, ...schema } = toJsonSchema(tool.input, { errorMode: "ignore" }) as Record<string, unknown>;
  const definition = { name: tool.name, description: tool.description.trim(), input_schema: slim(schema) as Record<string, unknown> };
  cache.set(tool, definition);
  return definition;
}

/**
 * The schema less what every request would carry for nothing: `minLength: 1` (an empty string is
 * refused with a clear error anyway), an empty `required` list, and `type: "string"` beside an
 * `enum` of strings (the values say it). Descriptions lose their trailing line break.
 */
function slim(schema: unknown): unknown {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "minLength" && value === 1) continue;
    if (key === "required" && Array.isArray(value) && value.length === 0) continue;
    if (key === "type" && value === "string" && stringEnum((schema as Record<string, unknown>).enum)) continue;
    if (key === "properties" && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, slim(property)]));
    } else if (key === "items" || key === "additionalProperties" || key === "not") out[key] = slim(value);
    else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) out[key] = value.map(slim);
    else out[key] = value;
  }
  return out;
}

function stringEnum(values: unknown): boolean {
  return Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === "string");
}
