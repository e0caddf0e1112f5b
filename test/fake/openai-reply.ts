// The chunks of a streamed Chat Completion, shaped by a dialect's quirks.
import type { ChatQuirks, ChatReplyStep } from "./openai-types.ts";
import { chunks as split, jsonPieces } from "./reply.ts";
import type { FakeBlock } from "./types.ts";

export type Chunk = Record<string, unknown> | null;
export type ChunkContext = { model: string; promptTokens: number; nextId: (prefix: string) => string; includeUsage: boolean };

const head = (ctx: ChunkContext, id: string) => ({ id, object: "chat.completion.chunk", created: 1_760_000_000, model: ctx.model });

export function replyChunks(step: ChatReplyStep, ctx: ChunkContext, quirks: ChatQuirks, opts: { lengthCut?: boolean } = {}): Chunk[] {
  const id = ctx.nextId("chatcmpl_fake");
  const size = Math.max(1, step.chunkSize ?? 16);
  const delta = (d: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
    ...head(ctx, id),
    choices: [{ index: 0, delta: d, finish_reason: finish }],
    ...extra,
  });
  const chunks: Chunk[] = [delta({ role: "assistant", content: "" })];
  if (step.reasoning) for (const piece of split(step.reasoning, size)) chunks.push(delta({ [quirks.reasoningField ?? "reasoning_content"]: piece }));
  const calls = step.reply.filter((b): b is Extract<FakeBlock, { type: "tool_use" }> => b.type === "tool_use");
  for (const block of step.reply) if (block.type === "text") for (const piece of split(block.text, size)) chunks.push(delta({ content: piece }));
  calls.forEach((call, n) => {
    const callId = quirks.noIds ? undefined : quirks.repeatedIds ? "call_same" : (call.id ?? ctx.nextId("call_fake"));
    const index = quirks.noIndex ? undefined : quirks.indexAlwaysZero ? 0 : n;
    let args = n === calls.length - 1 && step.rawArguments !== undefined ? step.rawArguments : JSON.stringify(call.input ?? {});
    if (opts.lengthCut && n === calls.length - 1) args = args.slice(0, Math.max(1, Math.floor(args.length / 2)));
    const frag = (f: Record<string, unknown>) => ({ ...(index === undefined ? {} : { index }), ...f });
    if (quirks.wholeCalls) {
      chunks.push(delta({ tool_calls: [frag({ ...(callId ? { id: callId } : {}), type: "function", function: { name: call.name, arguments: args } })] }));
      return;
    }
    chunks.push(delta({ tool_calls: [frag({ ...(callId ? { id: callId } : {}), type: "function", function: { name: call.name, arguments: "" } })] }));
    for (const piece of jsonPieces(args, size)) chunks.push(delta({ tool_calls: [frag({ function: { arguments: piece } })] }));
  });
  const finish = step.finishReason ?? (opts.lengthCut ? "length" : calls.length && !quirks.stopWithToolCalls ? "tool_calls" : "stop");
  const usage = usageOf(step, ctx);
  if (quirks.usageOnLastChunk && ctx.includeUsage) chunks.push(delta({}, finish, { usage }));
  else {
    chunks.push(delta({}, finish, { usage: null }));
    if (ctx.includeUsage) chunks.push({ ...head(ctx, id), choices: quirks.usageChoicesNull ? null : [], usage });
  }
  return chunks;
}

function usageOf(step: ChatReplyStep, ctx: ChunkContext) {
  const cached = step.usage?.cached_tokens ?? step.usage?.cache_read_input_tokens ?? 0;
  const prompt = (step.usage?.input_tokens ?? ctx.promptTokens) + cached;
  const completion = step.usage?.output_tokens ?? 7;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached } };
}

/** Encodes chunks as SSE (`null` is a keep-alive comment), ending with [DONE] unless the dialect omits it. */
export function encodeChunks(chunks: Chunk[], quirks: ChatQuirks, end = true): string[] {
  const out: string[] = [];
  for (const chunk of chunks) {
    if (quirks.comments) out.push(": keep-alive\n\n");
    out.push(chunk === null ? ": keep-alive\n\n" : `data: ${JSON.stringify(chunk)}\n\n`);
  }
  if (end && !quirks.noDone) out.push("data: [DONE]\n\n");
  return out;
}
