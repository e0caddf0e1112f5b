// Claude Code's `stream_event` lines (`--include-partial-messages`): each model turn as the raw
// Anthropic stream events, rebuilt from rein's session events. The answer's text streams as it
// comes, as one text block; the turn's other blocks (thinking, tool calls) follow whole when the turn
// ends, each as its start, one delta and its stop. Indices number the blocks in the order they are
// streamed. Pure.
import type { StampedEvent } from "../app/events.ts";

type Block = { type: string; [key: string]: unknown };
type Open = { id: string; text?: number; next: number };
export type StreamEvents = {
  /** the raw events `event` adds to the stream, in order */
  of: (event: StampedEvent) => Record<string, unknown>[];
  /** the id of the message streaming or last streamed (the `assistant` line that ends it carries the same) */
  messageId: () => string | undefined;
};

export function streamEvents(): StreamEvents {
  let model = "";
  let open: Open | undefined;
  let last: string | undefined;
  const start = (seq: number, out: Record<string, unknown>[]): Open => {
    const opened: Open = { id: `msg_${seq}`, next: 0 };
    const usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    out.push({ type: "message_start", message: { id: opened.id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage } });
    open = opened;
    last = opened.id;
    return opened;
  };
  return {
    messageId: () => last,
    of(event) {
      const out: Record<string, unknown>[] = [];
      switch (event.type) {
        case "session":
          model = event.model;
          break;
        case "retry":
          // The attempt's reply is discarded; the next attempt starts a new message.
          open = undefined;
          break;
        case "text_delta": {
          const message = open ?? start(event.seq, out);
          if (message.text === undefined) {
            message.text = message.next++;
            out.push({ type: "content_block_start", index: message.text, content_block: { type: "text", text: "" } });
          }
          out.push({ type: "content_block_delta", index: message.text, delta: { type: "text_delta", text: event.text } });
          break;
        }
        case "assistant": {
          model = event.model;
          const message = open ?? start(event.seq, out);
          if (message.text !== undefined) out.push({ type: "content_block_stop", index: message.text });
          for (const block of event.content as Block[]) {
            if (block.type === "text" && message.text !== undefined) continue;
            out.push(...wholeBlock(block, message.next++));
          }
          out.push({ type: "message_delta", delta: { stop_reason: event.stop_reason, stop_sequence: null }, usage: { ...event.usage } });
          out.push({ type: "message_stop" });
          open = undefined;
          break;
        }
      }
      return out;
    },
  };
}

/** A block the stream did not carry as it came: its start (empty), one delta with all of it, its stop. */
function wholeBlock(block: Block, index: number): Record<string, unknown>[] {
  const stop = { type: "content_block_stop", index };
  switch (block.type) {
    case "text":
      return [{ type: "content_block_start", index, content_block: { type: "text", text: "" } }, { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } }, stop];
    case "tool_use":
      return [
        { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } },
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input ?? {}) } },
        stop,
      ];
    case "thinking":
      return [
        { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } },
        { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: block.thinking } },
        ...(typeof block.signature === "string" ? [{ type: "content_block_delta", index, delta: { type: "signature_delta", signature: block.signature } }] : []),
        stop,
      ];
    default:
      // redacted thinking and server tool blocks come whole in their start, as Anthropic sends them
      return [{ type: "content_block_start", index, content_block: block }, stop];
  }
}

