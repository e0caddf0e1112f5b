// What a crash left, made whole: the text that had streamed becomes an interrupted reply, and tool
// calls without results get the result they had (from the event log) or an "interrupted" error.
// Pure: messages and events in, messages to append out.
import type { ContentBlock, Message, StampedEvent, ToolResultBlock, ToolUseBlock } from "../agent/types.ts";
import type { StoredMessage } from "./store.ts";

export function repairMessages(messages: readonly StoredMessage[], events: readonly StampedEvent[]): Message[] {
  const last = messages.at(-1);
  const after = events.filter((e) => e.seq > (last?.seq ?? 0));
  const pending = last?.role === "assistant" ? last.content.filter(isToolUse) : [];
  if (pending.length > 0) return [closeToolCalls(pending, after)];
  const text = streamedText(after);
  return text ? [{ role: "assistant", content: [{ type: "text", text }] }] : [];
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
