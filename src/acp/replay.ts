// A stored conversation as the updates `session/load` replays: the user's text, the answers, the
// thinking, and each tool call with its result. Pure.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ContentBlock, ToolResultBlock } from "../app/events.ts";
import { thoughts, toolCall, toolEnd } from "./updates.ts";

type Message = { role: "user" | "assistant"; content: readonly ContentBlock[] };

export function replay(messages: readonly Message[], cwd: string): SessionUpdate[] {
  const calls = new Map<string, { name: string; input: unknown }>();
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text" && typeof block.text === "string" && block.text) {
        updates.push({ sessionUpdate: message.role === "user" ? "user_message_chunk" : "agent_message_chunk", content: { type: "text", text: block.text } });
      } else if (block.type === "tool_use") {
        const { id, name, input } = block as { id: string; name: string; input: unknown };
        calls.set(id, { name, input });
        updates.push(toolCall(id, name, input, cwd));
      } else if (block.type === "tool_result") {
        const result = block as ToolResultBlock;
        const call = calls.get(result.tool_use_id);
        updates.push(toolEnd(result.tool_use_id, call?.name ?? "tool", call?.input, resultText(result), result.is_error === true, cwd));
      } else if (block.type === "thinking") {
        updates.push(...thoughts([block]));
      }
    }
  }
  return updates;
}

function resultText(result: ToolResultBlock): string {
  if (typeof result.content === "string") return result.content;
  return result.content
    .map((b) => (b.type === "text" ? b.text : "[an image]"))
    .join("\n");
}
