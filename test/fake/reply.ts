import type { FakeBlock, FakeUsage } from "./types.ts";

/** One server-sent event as the Messages API writes it. */
export type SseEvent = { event: string; data: Record<string, unknown> };

export type ReplyContext = {
  model: string;
  /** Used when the step gives no input_tokens. */
  inputTokens: number;
  nextId: (prefix: string) => string;
};

export type ReplyShape = {
  blocks: FakeBlock[];
  stopReason?: string;
  usage?: FakeUsage;
  chunkSize?: number;
  /** The output limit hit mid tool call: a trailing tool_use gets half its JSON and no content_block_stop. */
  cutLastToolUse?: boolean;
};

type ContentBlock =
  | { type: "text"; text: string }
  | { type: "server_tool_use"; id: string; name: string; input: unknown }
  | { type: "web_search_tool_result"; tool_use_id: string; content: unknown }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "thinking"; thinking: string; signature: string };

const defaultChunkSize = 16;

export function encodeSse(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** The whole answer as one JSON Message (stream: false). */
export function replyMessage(shape: ReplyShape, ctx: ReplyContext): Record<string, unknown> {
  const content = shape.blocks.map((b) => withId(b, ctx));
  return {
    ...messageHead(ctx),
    content,
    stop_reason: stopReasonFor(shape),
    stop_sequence: null,
    usage: { ...startUsage(shape.usage, ctx), output_tokens: outputTokens(shape.usage, content) },
  };
}

/** The answer as the event sequence of a streamed Message. */
export function replyEvents(shape: ReplyShape, ctx: ReplyContext): SseEvent[] {
  const content = shape.blocks.map((b) => withId(b, ctx));
  const size = Math.max(1, shape.chunkSize ?? defaultChunkSize);
  const lastIndex = content.length - 1;
  const blockEvents = content.flatMap((block, index) =>
    blockStreamEvents(block, index, size, shape.cutLastToolUse === true && index === lastIndex),
  );
  return [
    messageStart(ctx, shape.usage),
    { event: "ping", data: { type: "ping" } },
    ...blockEvents,
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: stopReasonFor(shape), stop_sequence: null },
        usage: { output_tokens: outputTokens(shape.usage, content) },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
}

export function messageStart(ctx: ReplyContext, usage?: FakeUsage): SseEvent {
  const message = {
    ...messageHead(ctx),
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: startUsage(usage, ctx),
  };
  return { event: "message_start", data: { type: "message_start", message } };
}

export function textStart(index: number): SseEvent {
  return blockStart(index, { type: "text", text: "" });
}

export function textDelta(index: number, text: string): SseEvent {
  return blockDelta(index, { type: "text_delta", text });
}

function blockStreamEvents(block: ContentBlock, index: number, size: number, cut: boolean): SseEvent[] {
  if (block.type === "text") {
    return [textStart(index), ...chunks(block.text, size).map((t) => textDelta(index, t)), blockStop(index)];
  }
  if (block.type === "thinking") {
    return [
      blockStart(index, { type: "thinking", thinking: "", signature: "" }),
      ...chunks(block.thinking, size).map((t) => blockDelta(index, { type: "thinking_delta", thinking: t })),
      blockDelta(index, { type: "signature_delta", signature: block.signature }),
      blockStop(index),
    ];
  }
  if (block.type === "web_search_tool_result") return [blockStart(index, block), blockStop(index)];
  const json = JSON.stringify(block.input ?? {});
  const sent = cut ? json.slice(0, Math.max(1, Math.floor(json.length / 2))) : json;
  const pieces = cut ? chunks(sent, size) : jsonPieces(json, size);
  return [
    blockStart(index, { type: block.type, id: block.id, name: block.name, input: {} }),
    ...pieces.map((p) => blockDelta(index, { type: "input_json_delta", partial_json: p })),
    ...(cut ? [] : [blockStop(index)]),
  ];
}

function withId(block: FakeBlock, ctx: ReplyContext): ContentBlock {
  if (block.type === "tool_use") {
    return { type: "tool_use", id: block.id ?? ctx.nextId("toolu_fake"), name: block.name, input: block.input };
  }
  if (block.type === "thinking") {
    return { type: "thinking", thinking: block.thinking, signature: block.signature ?? "fake-signature" };
  }
  if (block.type === "server_tool_use") return { type: "server_tool_use", id: block.id ?? ctx.nextId("srvtoolu_fake"), name: block.name, input: block.input };
  if (block.type === "web_search_tool_result") return block;
  return { type: "text", text: block.text };
}

function messageHead(ctx: ReplyContext) {
  return { id: ctx.nextId("msg_fake"), type: "message", role: "assistant", model: ctx.model };
}

function startUsage(usage: FakeUsage | undefined, ctx: ReplyContext) {
  return {
    input_tokens: usage?.input_tokens ?? ctx.inputTokens,
    cache_creation_input_tokens: usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage?.cache_read_input_tokens ?? 0,
    output_tokens: 1,
  };
}

function outputTokens(usage: FakeUsage | undefined, content: ContentBlock[]): number {
  return usage?.output_tokens ?? Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
}

function stopReasonFor(shape: ReplyShape): string {
  if (shape.stopReason) return shape.stopReason;
  if (shape.cutLastToolUse) return "max_tokens";
  return shape.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

function blockStart(index: number, content_block: Record<string, unknown>): SseEvent {
  return { event: "content_block_start", data: { type: "content_block_start", index, content_block } };
}

function blockDelta(index: number, delta: Record<string, unknown>): SseEvent {
  return { event: "content_block_delta", data: { type: "content_block_delta", index, delta } };
}

function blockStop(index: number): SseEvent {
  return { event: "content_block_stop", data: { type: "content_block_stop", index } };
}

export function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Tool input always arrives in at least two pieces, so clients must really reassemble it. */
export function jsonPieces(json: string, size: number): string[] {
  const pieces = chunks(json, size);
  if (pieces.length >= 2 || json.length < 2) return pieces;
  const half = Math.floor(json.length / 2);
  return [json.slice(0, half), json.slice(half)];
}
