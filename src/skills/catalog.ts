// The skill catalog in the system prompt: name and description of each skill the model may load,
// within a budget (1% of the window in characters, capped); the skills past it are named only.
// Sorted by name and built from the files alone, so its bytes stay the same from turn to turn.
import type { Skill } from "./skill.ts";

export const CATALOG_CAP_CHARS = 8_000;
const CHARS_PER_TOKEN = 4;

export function catalogBudget(contextWindowTokens: number): number {
  return Math.min(CATALOG_CAP_CHARS, Math.round(contextWindowTokens * 0.01 * CHARS_PER_TOKEN));
}

/** The catalog text, or "" when no skill is for the model. */
export function skillCatalog(skills: readonly Skill[], budget: number): string {
  const listed = skills.filter((s) => s.modelInvocable);
  if (listed.length === 0) return "";
  const head =
    "Skills (instructions for particular tasks): when a task matches one below, call the skill tool with its name first, then follow it.";
  const entries: string[] = [];
  const dropped: string[] = [];
  let used = head.length;
  for (const skill of listed) {
    const entry = `- ${skill.name}: ${oneLine(skill.description)}`;
    if (used + entry.length + 1 > budget) {
      dropped.push(skill.name);
      continue;
    }
    entries.push(entry);
    used += entry.length + 1;
  }
  const more = dropped.length ? [`More skills (descriptions left out for space; load one by name to read it): ${dropped.join(", ")}`] : [];
  return [head, ...entries, ...more].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ");
}
