// What the provider refuses by its own rules, taken out of a message before it is stored or sent:
// text blocks with no visible text (an empty reply, whitespace streamed before a kill), and images
// whose bytes are not the image they claim to be (a text note stands in their place). Pure.
import type { ContentBlock, ImageBlock, Message, TextBlock, ToolResultBlock } from "../agent/types.ts";
import { imageProblem } from "../sdk.ts";

/** The message as the provider takes it; undefined when nothing of it is left. */
export function sendable(message: Message): Message | undefined {
  const content = cleaned(message.content);
  if (content === message.content) return message;
  return content.length > 0 ? { ...message, content } : undefined;
}

/** True when `sendable` would change the message (a cheap test for stored sessions). */
export function unsendable(message: Message): boolean {
  return cleaned(message.content) !== message.content;
}

/** The blocks without the refused ones; the same array when nothing is refused. */
function cleaned(blocks: ContentBlock[]): ContentBlock[] {
  let changed = false;
  const kept: ContentBlock[] = [];
  for (const block of blocks) {
    const next = cleanBlock(block);
    if (next !== block) changed = true;
    if (next) kept.push(next);
  }
  return changed ? kept : blocks;
}

function cleanBlock(block: ContentBlock): ContentBlock | undefined {
  if (block.type === "text") return blank((block as TextBlock).text) ? undefined : block;
  if (block.type === "image") return imageNote(block as ImageBlock) ?? block;
  if (block.type !== "tool_result") return block;
  const result = block as ToolResultBlock;
  if (typeof result.content === "string") return blank(result.content) ? { ...result, content: "(no output)" } : block;
  const content = cleaned(result.content) as (TextBlock | ImageBlock)[];
  if (content === result.content) return block;
  return { ...result, content: content.length > 0 ? content : "(no output)" };
}

function imageNote(image: ImageBlock): TextBlock | undefined {
  const bytes = image.source?.type === "base64" ? Buffer.from(image.source.data ?? "", "base64") : undefined;
  const problem = bytes ? imageProblem(image.source.media_type, bytes) : "it is not base64 data";
  return problem ? { type: "text", text: `[an image was left out: it is not a usable ${image.source?.media_type ?? "image"} (${problem})]` } : undefined;
}

function blank(text: string | undefined): boolean {
  return !text || text.trim() === "";
}
