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

/** The messages with every tool id made to fit and unique (the same array when they are: the usual case). */
export function withWireIds(messages: Message[]): Message[] {
  return withDistinctIds(withFittingIds(messages));
}

/**
 * A session an older rein stored may repeat a tool_use id in a later reply (a provider that reused
 * `call_0`): the later call is sent under a new id, and so is the result that answers it (the one in
 * the message after it).
 */
function withDistinctIds(messages: Message[]): Message[] {
  const seen = new Set<string>();
  let renamed = new Map<string, string>();
  let changed = false;
  const out = messages.map((m, i) => {
    if (m.role === "assistant") {
      renamed = new Map();
      const content = m.content.map((b) => {
        if (b.type !== "tool_use") return b;
        const id = (b as ToolUseBlock).id;
        if (!seen.has(id)) return seen.add(id), b;
        const fresh = wireToolId(`${id}#${i}`);
        seen.add(fresh);
        renamed.set(id, fresh);
        return { ...b, id: fresh } as ToolUseBlock;
      });
      if (!renamed.size) return m;
      changed = true;
      return { ...m, content };
    }
    if (!renamed.size) return m;
    const answer = renamed;
    renamed = new Map();
    return { ...m, content: m.content.map((b) => (b.type === "tool_result" && answer.has((b as ToolResultBlock).tool_use_id) ? ({ ...b, tool_use_id: answer.get((b as ToolResultBlock).tool_use_id)! } as ToolResultBlock) : b)) };
  });
  return changed ? out : messages;
}

function withFittingIds(messages: Message[]): Message[] {
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
