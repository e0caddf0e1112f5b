// A stored conversation as the updates `session/load` replays, as it happened: the user's prompt as
// typed (a command as `/name args`, not its expansion; attached files as resources again; images),
// the answers and the thinking, each tool call with its result, and the todo list as a plan where
// it changed. Each message's chunks share a `messageId`. Pure.
import type { ContentBlock as AcpBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import type { ContentBlock, StampedEvent, ToolResultBlock } from "../app/events.ts";
import { planOf, thoughts, toolCall, toolEnd } from "./updates.ts";

type Message = { role: "user" | "assistant"; content: readonly ContentBlock[]; seq?: number };

/** What the events add to the messages: each prompt as typed (by its user event's seq), each call's metadata. */
export type ReplayNotes = { typed: ReadonlyMap<number, string>; metadata: ReadonlyMap<string, Record<string, unknown>> };

const NO_NOTES: ReplayNotes = { typed: new Map(), metadata: new Map() };

/** The notes of a session's stored events: the prompts typed as commands, and the todo calls' lists. */
export function replayNotes(events: readonly StampedEvent[]): ReplayNotes {
  const typed = new Map<number, string>();
  const metadata = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    if (event.type === "user" && event.typed !== undefined) typed.set(event.seq, event.typed);
    else if (event.type === "tool_end" && event.metadata) metadata.set(event.id, event.metadata);
  }
  return { typed, metadata };
}

export function replay(messages: readonly Message[], cwd: string, notes: ReplayNotes = NO_NOTES, newId: () => string = () => crypto.randomUUID()): SessionUpdate[] {
  const calls = new Map<string, { name: string; input: unknown }>();
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    const messageId = newId();
    const prompt = message.role === "user" && message.content.some((b) => b.type === "text");
    let first = true;
    for (const block of message.content) {
      if (block.type === "text") {
        const text = typeof block.text === "string" ? block.text : "";
        if (message.role === "assistant") {
          if (text) updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text }, messageId });
        } else if (first) {
          // The prompt's first text is what the user sent; the texts after it are hooks' notes and notices, not typed.
          const typed = message.seq !== undefined ? notes.typed.get(message.seq) : undefined;
          if (typed ?? text) for (const content of typedBlocks(typed ?? text)) updates.push({ sessionUpdate: "user_message_chunk", content, messageId });
        }
        first = false;
      } else if (block.type === "image" && prompt) {
        const source = block.source as { type?: string; media_type?: string; data?: string } | undefined;
        if (source?.type === "base64" && source.data && source.media_type) updates.push({ sessionUpdate: "user_message_chunk", content: { type: "image", data: source.data, mimeType: source.media_type }, messageId });
      } else if (block.type === "tool_use") {
        const { id, name, input } = block as { id: string; name: string; input: unknown };
        calls.set(id, { name, input });
        updates.push(toolCall(id, name, input, cwd));
      } else if (block.type === "tool_result") {
        const result = block as ToolResultBlock;
        const call = calls.get(result.tool_use_id);
        const name = call?.name ?? "tool";
        // The output once, as the call's content: `rawOutput` (the live call's copy of it) would double what a load sends.
        const { rawOutput: _raw, ...ended } = toolEnd(result.tool_use_id, name, call?.input, resultText(result), result.is_error === true, cwd) as Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>;
        updates.push(ended);
        const entries = planOf(name, notes.metadata.get(result.tool_use_id));
        if (entries) updates.push({ sessionUpdate: "plan", entries });
      } else if (block.type === "thinking") {
        updates.push(...thoughts([block]).map((u) => ({ ...u, messageId })));
      }
    }
  }
  return updates;
}

const CONTEXT = /<context uri="([^"]*)">\n([\s\S]*?)\n<\/context>/g;

/**
 * A prompt's text as the blocks it was sent in: the files an ACP prompt embedded (prompt.ts quotes
 * them as `<context uri="PATH">`) become resources again, the text around them text.
 */
export function typedBlocks(text: string): AcpBlock[] {
  const blocks: AcpBlock[] = [];
  let at = 0;
  const pushText = (part: string) => {
    const trimmed = part.replace(/^\n+|\n+$/g, "");
    if (trimmed) blocks.push({ type: "text", text: trimmed });
  };
  for (const match of text.matchAll(CONTEXT)) {
    pushText(text.slice(at, match.index));
    const path = match[1]!;
    const uri = path.startsWith("/") ? `file://${encodeURI(path)}` : path;
    blocks.push({ type: "resource", resource: { uri, text: match[2]! } });
    at = match.index + match[0].length;
  }
  pushText(text.slice(at));
  return blocks.length > 0 ? blocks : [{ type: "text", text }];
}

function resultText(result: ToolResultBlock): string {
  if (typeof result.content === "string") return result.content;
  return result.content.map((b) => (b.type === "text" ? b.text : "[an image]")).join("\n");
}
