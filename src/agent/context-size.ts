// How big the next request is, before it is sent: the provider's last count plus an estimate of what
// was added since. Pure; the window comes from the model table through LoopConfig.
import type { Message, ModelRequest, Usage } from "./types.ts";

/** Compaction starts when a request would take more than this share of the usable window. */
export const COMPACT_AT = 0.8;
/** A compaction aims below this share of the usable window, so it is not needed again the next turn. */
export const COMPACT_TO = 0.6;

/** About four characters a token for English and code; images count by their base64, an overestimate. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(jsonLength(value) / 4);
}

/**
 * About the length of the value as JSON (escapes aside), without building the string: a few times
 * faster than JSON.stringify on a resumed session of 10,000 messages.
 */
function jsonLength(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (typeof value === "number" || typeof value === "boolean") return String(value).length;
  if (value === null || value === undefined) return 4;
  if (Array.isArray(value)) {
    let n = 2;
    for (const item of value) n += jsonLength(item) + 1;
    return n;
  }
  // for...in, not Object.entries: no array a key, which matters in a fresh process (13 ms vs 2 ms).
  const record = value as Record<string, unknown>;
  let n = 2;
  for (const key in record) {
    const item = record[key];
    if (item !== undefined) n += key.length + 4 + jsonLength(item);
  }
  return n;
}

/** What a request may take: the window less the output reserved for the reply, less a 5% margin. */
export function usableWindow(contextWindow: number, maxTokens: number): number {
  return Math.max(1, Math.floor(contextWindow - maxTokens - contextWindow * 0.05));
}

/**
 * The tokens of the system prompt and the tool schemas: sent with every request. The schemas are
 * measured by JSON.stringify, not the walk: they are a few thousand small values, and walking them
 * at every start is enough for JavaScriptCore to compile the walk with its optimizing JIT, which
 * costs a one-shot memory and CPU it has no other use for.
 */
export function fixedTokens(request: Pick<ModelRequest, "system" | "tools">): number {
  return estimateTokens(request.system) + Math.ceil((JSON.stringify(request.tools) ?? "").length / 4);
}

/** The provider's count of a request: everything it read, cached or not. */
export function promptTokens(usage: Usage): number {
  return usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
}

/** A known size: the provider counted `tokens` for a request of the first `messages` messages. */
export type Measured = { tokens: number; messages: number };

/** An estimate of the first `messages` messages alone (no system, no tools), e.g. from their stored size. */
export type Estimated = { tokens: number; messages: number };

/**
 * The size of a request of `messages`: the last count plus what came since; else a known estimate
 * of the first messages plus what came since; else all of it estimated.
 */
export function requestTokens(messages: readonly Message[], fixed: number, measured: Measured | undefined, estimated?: Estimated): number {
  if (measured && measured.messages <= messages.length) return measured.tokens + estimateTokens(messages.slice(measured.messages));
  if (estimated && estimated.messages <= messages.length) return fixed + estimated.tokens + estimateTokens(messages.slice(estimated.messages));
  return fixed + estimateTokens(messages);
}

/** What `estimateTokens` gives for messages whose content is stored as JSON: from the text's lengths alone. */
export function storedTokens(stored: { roleLength: number; contentLength: number; count: number }): number {
  // {"role":R,"content":C} per message and a comma (24), and as much again for the one character
  // estimateTokens counts per list or object inside C beyond its JSON: it must not come out smaller.
  return Math.ceil((2 + stored.count * 32 + stored.roleLength + stored.contentLength) / 4);
}
