// Prompt caching: the request's prefix (tool schemas, system prompt, the conversation so far) is
// marked so the API reads it from cache turn after turn. The prefix itself is never rewritten: the
// marks go on copies, at the end of the tools, of the system prompt and of the last two user turns
// (the previous request's last mark is then still a cache hit, the new one extends it).
import type { Message, ModelRequest } from "../agent/types.ts";

type CacheControl = { cache_control: { type: "ephemeral" } };
const MARK: CacheControl = { cache_control: { type: "ephemeral" } };

export type CachedRequest = {
  system: ({ type: "text"; text: string } & Partial<CacheControl>)[];
  tools: (ModelRequest["tools"][number] & Partial<CacheControl>)[];
  messages: Message[];
};

export function withCacheBreakpoints(request: Pick<ModelRequest, "system" | "tools" | "messages">): CachedRequest {
  const tools = request.tools.map((tool, i) => (i === request.tools.length - 1 ? { ...tool, ...MARK } : tool));
  const system = [{ type: "text" as const, text: request.system, ...MARK }];
  // From the end: a resumed session may send 10,000 messages, and only the last two user turns change.
  const messages = request.messages.slice();
  for (let i = messages.length - 1, marked = 0; i >= 0 && marked < 2; i--) {
    if (messages[i]!.role !== "user") continue;
    messages[i] = markLastBlock(messages[i]!);
    marked++;
  }
  return { system, tools, messages };
}

function markLastBlock(message: Message): Message {
  const last = message.content.length - 1;
  if (last < 0) return message;
  return { ...message, content: message.content.map((block, i) => (i === last ? { ...block, ...MARK } : block)) };
}
