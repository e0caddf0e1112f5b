// A memory file: `---`, `key: value` lines (name, description, type, updated, source), `---`, the text.
import * as v from "valibot";

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
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return "it does not start with a front matter block (a line ---)";
  const end = lines.indexOf("---", 1);
  if (end < 0) return "its front matter is never closed (no second line ---)";
  const fields: Record<string, string> = {};
  for (const line of lines.slice(1, end)) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const m = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(line);
    if (!m) return `its front matter line "${line.slice(0, 60)}" is not key: value`;
    fields[m[1]!] = unquote(m[2]!.trim());
  }
  const parsed = v.safeParse(Meta, fields);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = v.getDotPath(issue) ?? "front matter";
    return `its front matter ${key} is wrong: ${key === "type" ? `one of ${MEMORY_TYPES.join(", ")}` : issue.message}`;
  }
  return { meta: parsed.output, text: lines.slice(end + 1).join("\n").trim() };
}

export function formatMemory(meta: MemoryMeta, text: string): string {
  const line = (key: string, value: string) => `${key}: ${JSON.stringify(value.replace(/\s+/g, " ").trim())}`;
  const source = meta.source ? [line("source", meta.source)] : [];
  return ["---", line("name", meta.name), line("description", meta.description), `type: ${meta.type}`, `updated: ${meta.updated}`, ...source, "---", "", text.trim(), ""].join("\n");
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      return String(JSON.parse(value));
    } catch {
      return value.slice(1, -1);
    }
  }
  return value.length >= 2 && value.startsWith("'") && value.endsWith("'") ? value.slice(1, -1) : value;
}
