// The session's full conversation from the store, as plain text by position: what the history tool
// reads and searches, compaction or not.
import type { ContentBlock, Message, ToolResultBlock } from "../agent/types.ts";
import type { HistoryEntry, SessionHistory } from "../sdk.ts";
import type { Store } from "./store.ts";

export function storedHistory(store: Store, sessionId: string): SessionHistory {
  // Message positions have no gaps (appends take MAX(idx) + 1; forks copy a prefix): the n-th
  // message from `from` is at position from + n.
  const entries = (from: number, messages: readonly Message[]): HistoryEntry[] =>
    messages.map((m, i) => ({ index: from + i, role: m.role, text: m.content.map(blockText).filter(Boolean).join("\n") }));
  return {
    count: () => (store.lastMessage(sessionId)?.idx ?? -1) + 1,
    read: (from, to) => {
      const start = Math.max(0, from);
      return entries(start, store.conversation(sessionId, start).slice(0, Math.max(0, to - start + 1)));
    },
    search: (query, limit) => {
      const needle = query.toLowerCase();
      return entries(0, store.conversation(sessionId))
        .filter((e) => e.text.toLowerCase().includes(needle))
        .slice(-limit);
    },
  };
}

/** A tool result's content as text: its text parts, other parts as `[type]` (an image is `[image]`). */
export function toolResultText(content: ToolResultBlock["content"]): string {
  return Array.isArray(content) ? content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n") : String(content);
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return String(block.text);
    case "tool_use":
      // The history tool's own calls would match every search for their query: they are left out.
      return block.name === "history" ? "" : `[tool call ${String(block.name)} ${JSON.stringify(block.input)}]`;
    case "tool_result":
      return `[tool result${block.is_error ? " (error)" : ""}] ${toolResultText((block as ToolResultBlock).content)}`;
    default:
      return "";
  }
}
