// rein's conversation (Anthropic's message shapes are rein's canonical vocabulary) as Chat
// Completions messages: the system prompt as a system message, tool calls as `tool_calls`, each
// tool result as a `tool` message, images as data URLs. Blocks only another provider understands
// (thinking and its signature) are left out.
import type { ContentBlock, ImageBlock, Message, ModelRequest, TextBlock, ToolResultBlock, ToolUseBlock } from "../agent/types.ts";
import type { ChatCompat } from "./models.ts";
import { wireToolId } from "./tool-ids.ts";

type TextPart = { type: "text"; text: string };
type ImagePart = { type: "image_url"; image_url: { url: string } };
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | (TextPart | ImagePart)[] }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string; name?: string };
type ChatToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/** What the model reads instead of an image it cannot take (a local model without vision). */
const NO_IMAGES = "(an image was left out here: this model does not take images)";

export function chatMessages(request: Pick<ModelRequest, "system" | "messages">, compat: ChatCompat): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: request.system }];
  const names = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role === "assistant") out.push(...assistantMessage(message.content, names));
    else out.push(...userMessages(message.content, names, compat));
  }
  return out;
}

function assistantMessage(content: readonly ContentBlock[], names: Map<string, string>): ChatMessage[] {
  const text = content.filter((b): b is TextBlock => b.type === "text").map((b) => b.text).join("");
  const calls = content.filter((b): b is ToolUseBlock => b.type === "tool_use");
  for (const call of calls) names.set(call.id, call.name);
  if (!text && calls.length === 0) return [];
  return [
    {
      role: "assistant",
      content: text || null,
      ...(calls.length
        ? { tool_calls: calls.map((c) => ({ id: wireToolId(c.id), type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } })) }
        : {}),
    },
  ];
}

function userMessages(content: readonly ContentBlock[], names: Map<string, string>, compat: ChatCompat): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: (TextPart | ImagePart)[] = [];
  for (const block of content) {
    if (block.type === "tool_result") {
      const result = block as ToolResultBlock;
      const { text, images } = resultParts(result);
      const name = names.get(result.tool_use_id);
      out.push({
        role: "tool",
        tool_call_id: wireToolId(result.tool_use_id),
        content: result.is_error ? `Error: ${text}` : text,
        ...(compat.requiresToolResultName && name ? { name } : {}),
      });
      // A tool message holds text only: the images it returned follow as the user's.
      if (images.length && compat.supportsImages) parts.push({ type: "text", text: `(the image${images.length > 1 ? "s" : ""} returned by that tool call)` }, ...images);
      else if (images.length) out[out.length - 1] = { ...(out.at(-1) as Extract<ChatMessage, { role: "tool" }>), content: `${text}\n${NO_IMAGES}` };
    } else if (block.type === "text") {
      parts.push({ type: "text", text: (block as TextBlock).text });
    } else if (block.type === "image") {
      parts.push(compat.supportsImages ? imagePart(block as ImageBlock) : { type: "text", text: NO_IMAGES });
    }
  }
  if (parts.length === 0) return out;
  if (out.length && compat.requiresAssistantAfterToolResult) out.push({ role: "assistant", content: "(tool results received)" });
  const plain = parts.every((p) => p.type === "text");
  out.push({ role: "user", content: plain ? parts.map((p) => (p as TextPart).text).join("\n\n") : parts });
  return out;
}

function resultParts(result: ToolResultBlock): { text: string; images: ImagePart[] } {
  if (typeof result.content === "string") return { text: result.content, images: [] };
  const text = result.content.filter((b): b is TextBlock => b.type === "text").map((b) => b.text).join("\n");
  const images = result.content.filter((b): b is ImageBlock => b.type === "image").map(imagePart);
  return { text: text || "(no output)", images };
}

function imagePart(block: ImageBlock): ImagePart {
  return { type: "image_url", image_url: { url: `data:${block.source.media_type};base64,${block.source.data}` } };
}
