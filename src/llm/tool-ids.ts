// Tool call ids as APIs accept them: at most 40 characters (OpenAI's limit) of [A-Za-z0-9_-]
// (Anthropic's pattern). An id that fits is sent as it is; any other (from another provider, a
// server that sends odd ones) is replaced by the same short id wherever it appears in a request,
// so a call and its result still pair.
import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from "../agent/types.ts";

const FITS = /^[A-Za-z0-9_-]{1,40}$/;

export function wireToolId(id: string): string {
  return FITS.test(id) ? id : `call_${hash(id)}`;
}

/** Messages already found to carry only ids that fit: every request sends the whole conversation again. */
const fitting = new WeakSet<Message>();

/** The messages with every tool id made to fit (the same array when all fit: the usual case). */
export function withWireIds(messages: Message[]): Message[] {
  const fits = (b: ContentBlock) =>
    b.type === "tool_use" ? FITS.test((b as ToolUseBlock).id) : b.type === "tool_result" ? FITS.test((b as ToolResultBlock).tool_use_id) : true;
  const allFit = (m: Message) => fitting.has(m) || (m.content.every(fits) && (fitting.add(m), true));
  if (messages.every(allFit)) return messages;
  return messages.map((m) => ({
    ...m,
    content: m.content.map((b) => {
      if (b.type === "tool_use") return { ...b, id: wireToolId((b as ToolUseBlock).id) } as ToolUseBlock;
      if (b.type === "tool_result") return { ...b, tool_use_id: wireToolId((b as ToolResultBlock).tool_use_id) } as ToolResultBlock;
      return b;
    }),
  }));
}

/** A fresh id for a call that came without one (or with one already used in the same reply). */
export function newToolId(): string {
  return `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

/** FNV-1a, 64 bits in two halves, base 36: short, stable, and unlikely to collide within a session. */
function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x0100019d) >>> 0;
  }
  return `${h1.toString(36)}${h2.toString(36)}`;
}
