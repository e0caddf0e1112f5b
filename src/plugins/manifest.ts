// `.claude-plugin/plugin.json`, Claude Code's plugin manifest. It is optional; unknown fields are
// ignored, and a known field of the wrong type is a load error for that plugin alone.
import { join } from "node:path";
import * as v from "valibot";
import { parseJson, readOptionalText } from "../config/optional-json.ts";

const Paths = v.union([v.string(), v.array(v.string())], "expected a ./ path or a list of them");
const PathsOrInline = v.union([v.string(), v.array(v.string()), v.record(v.string(), v.unknown())], "expected a ./ path, a list of them, or an object");

export const ManifestSchema = v.looseObject({
  name: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]*$/, "use kebab-case: a-z, 0-9, - and _"))),
  version: v.optional(v.string()),
  description: v.optional(v.string()),
  displayName: v.optional(v.string()),
  homepage: v.optional(v.string()),
  license: v.optional(v.string()),
  author: v.optional(v.looseObject({ name: v.string() })),
  keywords: v.optional(v.array(v.string())),
  defaultEnabled: v.optional(v.boolean()),
  commands: v.optional(Paths),
  skills: v.optional(Paths),
  agents: v.optional(Paths),
  hooks: v.optional(PathsOrInline),
  mcpServers: v.optional(PathsOrInline),
  lspServers: v.optional(PathsOrInline),
});
export type Manifest = v.InferOutput<typeof ManifestSchema>;

export function manifestFile(root: string): string {
  return join(root, ".claude-plugin", "plugin.json");
}

/** The plugin's manifest ({} without one), or one line saying why the plugin cannot load. */
export function readManifest(root: string): Manifest | string {
  const file = manifestFile(root);
  const read = readOptionalText(file);
  if (!read) return {};
  if ("problem" in read) return `${file}: ${read.problem}`;
  const json = parseJson(read.text);
  if ("problem" in json) return `${file}: ${json.problem}; the plugin was not loaded`;
  const parsed = v.safeParse(ManifestSchema, json.value);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const key = v.getDotPath(issue) ?? "";
  return `${file}: ${key ? `"${key}": ` : ""}${issue.message}; the plugin was not loaded`;
}
