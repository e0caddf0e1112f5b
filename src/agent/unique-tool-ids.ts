// Tool call ids are unique across a conversation, whatever the provider sent: an OpenAI-compatible
// server that names every call `call_0` would otherwise leave duplicates the Anthropic API refuses
// ("tool_use ids must be unique"). A repeated id is renamed when the reply is stored; the calls run
// and their results pair under the new name.
import type { ContentBlock, Message, ToolUseBlock } from "./types.ts";

/** Every tool_use id the messages hold. */
export function toolUseIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) for (const b of m.content) if (b.type === "tool_use") ids.add((b as ToolUseBlock).id);
  return ids;
}

/** `content` with each tool_use id already in `used` (or repeated within it) renamed; `used` grows by them all. `renamed`: old id -> new, for this reply. */
export function uniqueToolIds(content: ContentBlock[], used: Set<string>): { content: ContentBlock[]; renamed: Map<string, string> } {
  const renamed = new Map<string, string>();
  const out = content.map((block) => {
    if (block.type !== "tool_use") return block;
    const call = block as ToolUseBlock;
    if (!used.has(call.id)) {
      used.add(call.id);
      return block;
    }
    const id = freshId(call.id, used);
    used.add(id);
    renamed.set(call.id, id);
    return { ...call, id } as ToolUseBlock;
  });
  return renamed.size ? { content: out, renamed } : { content, renamed };
}

/** `id_2`, `id_3`...: kept within 40 characters of [A-Za-z0-9_-] when the id was. */
function freshId(id: string, used: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${id.slice(0, Math.max(1, 40 - suffix.length))}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
