// What a crash left, made whole: the text that had streamed becomes an interrupted reply (unless it
// was only whitespace), and tool calls without results get the result they had (from the event log)
// or an "interrupted" error. Pure: messages and events in, messages to append out. And, once per
// database, what sessions stored before rein knew the provider's rules hold that it refuses.
import type { Database } from "bun:sqlite";
import type { ContentBlock, Message, StampedEvent, ToolResultBlock, ToolUseBlock } from "../agent/types.ts";
import { sendable } from "./sendable.ts";
import type { StoredMessage } from "./store.ts";

export function repairMessages(messages: readonly StoredMessage[], events: readonly StampedEvent[]): Message[] {
  const last = messages.at(-1);
  const after = events.filter((e) => e.seq > (last?.seq ?? 0));
  const pending = last?.role === "assistant" ? last.content.filter(isToolUse) : [];
  if (pending.length > 0) return [closeToolCalls(pending, after)];
  const text = streamedText(after);
  return text.trim() ? [{ role: "assistant", content: [{ type: "text", text }] }] : [];
}

/** What a stored message that had nothing the provider takes becomes (its place in the history is kept). */
const EMPTY_STAND_IN: Record<Message["role"], string> = {
  assistant: "(no reply: this turn held no text, or was cut off before any)",
  user: "(an empty message)",
};

/**
 * Rewrites, in place, the stored messages the provider would refuse (empty or whitespace-only text,
 * images that are not what they claim to be: see sendable.ts). Only rows that may hold such a block
 * are parsed. Returns how many were rewritten.
 */
export function repairStoredRows(db: Database): number {
  const rows = db
    .query(
      `SELECT rowid, role, content FROM messages
       WHERE content LIKE '%"type":"image"%' OR content LIKE '%"text":""%' OR content LIKE '%"content":""%'
          OR content LIKE '%"text":" %' OR content LIKE '%"text":"\\n%' OR content LIKE '%"text":"\\t%' OR content LIKE '%"text":"\\r%'
          OR content LIKE '%"content":" %' OR content LIKE '%"content":"\\n%' OR content LIKE '%"content":"\\t%' OR content LIKE '%"content":"\\r%'`,
    )
    .values() as [number, Message["role"], string][];
  const update = db.query(`UPDATE messages SET content = ? WHERE rowid = ?`);
  let rewritten = 0;
  for (const [rowid, role, content] of rows) {
    const message: Message = { role, content: JSON.parse(content) };
    const kept = sendable(message);
    if (kept === message) continue;
    update.run(JSON.stringify(kept?.content ?? [{ type: "text", text: EMPTY_STAND_IN[role] }]), rowid);
    rewritten++;
  }
  return rewritten;
}

function closeToolCalls(calls: ToolUseBlock[], events: readonly StampedEvent[]): Message {
  const ended = new Map<string, Extract<StampedEvent, { type: "tool_end" }>>();
  for (const e of events) if (e.type === "tool_end") ended.set(e.id, e);
  const content: ToolResultBlock[] = calls.map((call) => {
    const end = ended.get(call.id);
    if (end) {
      const block: ToolResultBlock = { type: "tool_result", tool_use_id: call.id, content: end.output || "(no output)" };
      if (end.is_error) block.is_error = true;
      return block;
    }
    return {
      type: "tool_result",
      tool_use_id: call.id,
      is_error: true,
      content: "Interrupted: rein stopped before this tool call finished; its effects, if any, are unknown. Check before repeating it.",
    };
  });
  return { role: "user", content };
}

/** The text streamed since the last kept message; a retry restarted the reply, so only what follows the last one counts. */
function streamedText(events: readonly StampedEvent[]): string {
  let text = "";
  for (const e of events) {
    if (e.type === "retry") text = "";
    if (e.type === "text_delta") text += e.text;
  }
  return text;
}

function isToolUse(block: ContentBlock): block is ToolUseBlock {
  return block.type === "tool_use";
}
