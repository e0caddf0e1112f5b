// Skills a conversation loaded, found by the tag the skill tool and `/skill-name` wrap them in: a
// compaction keeps their results out of pruning and attaches the latest load of each again after a
// summary (at most 20,000 characters each and 100,000 in all, as Claude Code keeps 5k/25k tokens).
import type { ContentBlock, Message } from "../agent/types.ts";

export const SKILL_TAG = "<skill name=";
const LOADED = /<skill name="([^"]+)" dir="[^"]*">[\s\S]*?<\/skill>/g;
const EACH_MAX = 20_000;
const ALL_MAX = 100_000;

/** Whether a tool result is a loaded skill (never pruned). */
export function isSkillResult(block: ContentBlock): boolean {
  if (block.type !== "tool_result") return false;
  const content = (block as { content: unknown }).content;
  if (typeof content === "string") return content.startsWith(SKILL_TAG);
  return Array.isArray(content) && content.some((b: { type?: string; text?: string }) => b.type === "text" && b.text?.startsWith(SKILL_TAG) === true);
}

/** The text to attach after a summary of `messages`: the latest load of each skill, or "". */
export function skillsToAttach(messages: readonly Message[]): string {
  const latest = new Map<string, string>();
  for (const message of messages) {
    for (const text of textsOf(message.content)) {
      for (const match of text.matchAll(LOADED)) {
        latest.delete(match[1]!);
        latest.set(match[1]!, match[0].length > EACH_MAX ? `${match[0].slice(0, EACH_MAX)}\n[cut here]\n</skill>` : match[0]);
      }
    }
  }
  const kept: string[] = [];
  let total = 0;
  for (const text of [...latest.values()].reverse()) {
    if (total + text.length > ALL_MAX) break;
    kept.unshift(text);
    total += text.length;
  }
  return kept.length ? `[skills loaded earlier in this conversation, attached again]\n${kept.join("\n\n")}` : "";
}

function textsOf(content: readonly ContentBlock[]): string[] {
  const texts: string[] = [];
  for (const block of content) {
    if (block.type === "text") texts.push((block as { text: string }).text);
    if (block.type !== "tool_result") continue;
    const inner = (block as { content: unknown }).content;
    if (typeof inner === "string") texts.push(inner);
    else if (Array.isArray(inner)) for (const b of inner as { type?: string; text?: string }[]) if (b.type === "text" && b.text) texts.push(b.text);
  }
  return texts;
}
