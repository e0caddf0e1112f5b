// The conversation the model is sent, rebuilt from the full history (which the store keeps whole)
// and the latest compaction: an optional leading user message (the summary), the messages from
// `firstKept` on, and the tool results of the pruned messages replaced by a marker. Pure.
import { isSkillResult } from "../skills/loaded-skills.ts";
import type { ContentBlock, EventOf, Message } from "../agent/types.ts";

export type CompactionState = {
  /** the text of the leading user message that stands for what was left out, or null */
  head: string | null;
  /** index in the full history of the first message kept */
  firstKept: number;
  /** indexes in the full history of messages whose tool results were replaced by the marker */
  pruned: readonly number[];
};

export const NO_COMPACTION: CompactionState = { head: null, firstKept: 0, pruned: [] };

export const PRUNED_MARKER = "[output removed to save space: rerun the tool if you need it]";

export function compactedView(full: readonly Message[], state: CompactionState): Message[] {
  return compactedFrom(full, 0, state) ?? full.slice();
}

/**
 * The view built from `part`, the full history's messages from index `from` (at most
 * `state.firstKept`) on, so a resumed session need not read what the view leaves out. Undefined
 * when the compaction does not fit and `part` is not the whole history (`from` > 0): the view is
 * then the whole history, which the caller reads.
 */
export function compactedFrom(part: readonly Message[], from: number, state: CompactionState): Message[] | undefined {
  if (!fits(part, from, state)) return from === 0 ? part.slice() : undefined;
  if (state.firstKept === 0 && state.head === null && state.pruned.length === 0) return part.slice();
  const pruned = new Set(state.pruned);
  const tail = part.slice(state.firstKept - from).map((message, i) => (pruned.has(state.firstKept + i) ? pruneResults(message) : message));
  return state.head === null ? tail : [headMessage(state.head), ...tail];
}

export function stateOf(event: EventOf<"compaction">): CompactionState {
  return { head: event.head, firstKept: event.first_kept, pruned: event.pruned };
}

/** How many messages of a view do not come from the history: the head, when there is one. */
export function headCount(state: CompactionState): number {
  return state.head === null ? 0 : 1;
}

export function headMessage(text: string): Message {
  return { role: "user", content: [{ type: "text", text }] };
}

export function hasResults(message: Message): boolean {
  return message.content.some((b) => b.type === "tool_result");
}

/** The message with each tool result's content replaced by the marker (errors stay errors). */
export function pruneResults(message: Message): Message {
  // A loaded skill stays: the model follows it for the rest of the conversation.
  return { ...message, content: message.content.map((b) => (b.type === "tool_result" && !isSkillResult(b) ? { ...b, content: PRUNED_MARKER } : b)) as ContentBlock[] };
}

/**
 * A compaction from a longer history (a fork cut before it, say) or one whose kept part would start
 * on tool results without their calls is ignored: the full history is always a valid conversation.
 */
function fits(part: readonly Message[], from: number, state: CompactionState): boolean {
  if (state.firstKept < from || state.firstKept > from + part.length) return false;
  if (state.head === null && state.firstKept > 0) return false;
  const first = part[state.firstKept - from];
  return !first || !hasResults(first);
}
