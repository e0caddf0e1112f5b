// A memory file: `---`, `key: value` lines (name, description, type, updated, source), `---`, the text.
import * as v from "valibot";
import { readFrontMatter } from "../config/front-matter.ts";

export const MEMORY_TYPES = ["user", "project", "feedback", "reference"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

const Meta = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1)),
  description: v.optional(v.string(), ""),
  type: v.picklist(MEMORY_TYPES),
  updated: v.optional(v.string(), ""),
  /** where it came from when rein wrote it itself: "memory.auto, session s_..." */
  source: v.optional(v.string()),
});
export type MemoryMeta = v.InferOutput<typeof Meta>;

/** The front matter and the text, or a sentence saying what is wrong with the front matter. */
export function parseMemory(source: string): { meta: MemoryMeta; text: string } | string {
  const read = readFrontMatter(source);
  if ("error" in read) return read.error;
  if (!read.present) return "it does not start with a front matter block (a line ---)";
  // Every field is text: `name: 2026` and an empty `description:` are read as written.
  const fields = Object.fromEntries(Object.entries(read.data).map(([key, value]) => [key, value === null || value === undefined ? "" : typeof value === "object" ? value : String(value)]));
  const parsed = v.safeParse(Meta, fields);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = v.getDotPath(issue) ?? "front matter";
    return `its front matter ${key} is wrong: ${key === "type" ? `one of ${MEMORY_TYPES.join(", ")}` : issue.message}`;
  }
  return { meta: parsed.output, text: read.body.trim() };
}

export function formatMemory(meta: MemoryMeta, text: string): string {
  const line = (key: string, value: string) => `${key}: ${JSON.stringify(value.replace(/\s+/g, " ").trim())}`;
  const source = meta.source ? [line("source", meta.source)] : [];
  return ["---", line("name", meta.name), line("description", meta.description), `type: ${meta.type}`, `updated: ${meta.updated}`, ...source, "---", "", text.trim(), ""].join("\n");
}
