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
    "Skills: instructions for particular tasks, loaded on demand. When a task matches a skill's description, call the skill tool with its name before you start, then follow what it says.";
  const entries: string[] = [];
  const dropped: string[] = [];
  let used = head.length;
  for (const skill of listed) {
    const entry = `<skill><name>${skill.name}</name><description>${escape(skill.description)}</description></skill>`;
    if (used + entry.length + 1 > budget) {
      dropped.push(skill.name);
      continue;
    }
    entries.push(entry);
    used += entry.length + 1;
  }
  const more = dropped.length ? [`More skills (descriptions left out for space; load one by name to read it): ${dropped.join(", ")}`] : [];
  return [head, "<available_skills>", ...entries, "</available_skills>", ...more].join("\n");
}

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replace(/\s+/g, " ");
}
