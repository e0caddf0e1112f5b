// The session's full conversation from the store, as plain text by position: what the history tool
// reads and searches, compaction or not.
import type { ContentBlock, ToolResultBlock } from "../agent/types.ts";
import type { HistoryEntry, SessionHistory } from "../sdk.ts";
import type { Store } from "./store.ts";

export function storedHistory(store: Store, sessionId: string): SessionHistory {
  const entries = (): HistoryEntry[] =>
    store.messages(sessionId).map((m, index) => ({ index, role: m.role, text: m.content.map(blockText).filter(Boolean).join("\n") }));
  return {
    count: () => store.messages(sessionId).length,
    read: (from, to) => entries().slice(Math.max(0, from), Math.max(0, to) + 1),
    search: (query, limit) => {
      const needle = query.toLowerCase();
      return entries()
        .filter((e) => e.text.toLowerCase().includes(needle))
        .slice(-limit);
    },
  };
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return String(block.text);
    case "tool_use":
      // The history tool's own calls would match every search for their query: they are left out.
      return block.name === "history" ? "" : `[tool call ${String(block.name)} ${JSON.stringify(block.input)}]`;
    case "tool_result": {
      const { content } = block as ToolResultBlock;
      const text = typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
      return `[tool result${block.is_error ? " (error)" : ""}] ${text}`;
    }
    default:
      return "";
  }
}
