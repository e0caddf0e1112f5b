// Builds the finished reply from the raw stream events of the Messages API. A tool call whose block
// never closed (the reply hit the output limit) is reported as incomplete, with an empty input so
// the message stays valid to send back.
import type { RawContentBlockDeltaEvent, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import { emptyUsage, type ContentBlock, type ProviderEvent, type Usage } from "../agent/types.ts";

type Block = { block: Record<string, unknown> & { type: string }; json: string; closed: boolean };

export type Accumulator = {
  /** Takes one event; returns what to pass on at once (streamed text, a tool call beginning), if anything. */
  add(event: RawMessageStreamEvent): ProviderEvent | undefined;
  /** The finished reply, or undefined when the stream never said it was complete. */
  finish(): Extract<ProviderEvent, { type: "done" }> | undefined;
};

export function accumulate(): Accumulator {
  const blocks: Block[] = [];
  let usage: Usage = emptyUsage();
  let stopReason: string | null = null;
  let stopped = false;

  return {
    add(event) {
      switch (event.type) {
        case "message_start":
          usage = mergeUsage(usage, event.message.usage);
          return undefined;
        case "content_block_start": {
          const block = { ...(event.content_block as unknown as Block["block"]) };
          blocks[event.index] = { block, json: "", closed: false };
          return block.type === "tool_use" ? { type: "tool_use_start", name: String(block.name) } : undefined;
        }
        case "content_block_delta": {
          const text = applyDelta(blocks[event.index], event.delta);
          return text ? { type: "text_delta", text } : undefined;
        }
        case "content_block_stop": {
          const b = blocks[event.index];
          if (b) b.closed = true;
          return undefined;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason ?? stopReason;
          usage = mergeUsage(usage, event.usage);
          return undefined;
        case "message_stop":
          stopped = true;
          return undefined;
        default:
          return undefined;
      }
    },
    finish() {
      if (!stopped) return undefined;
      const incomplete: string[] = [];
      const invalid: { id: string; error: string }[] = [];
      const content: ContentBlock[] = [];
      for (const b of blocks) {
        if (!b) continue;
        if (b.block.type === "server_tool_use") {
          // A tool the provider ran (web search): its input streams as JSON like a call's, and is sent back whole.
          content.push({ ...b.block, input: parseInput(b.json) ?? b.block.input ?? {} } as ContentBlock);
          continue;
        }
        if (b.block.type !== "tool_use") {
          content.push(b.block as ContentBlock);
          continue;
        }
        const id = String(b.block.id);
        const input = b.closed ? parseInput(b.json) : undefined;
        // Only the output limit cuts a call short; any other unreadable input is said to be what it is.
        if (input === undefined && stopReason === "max_tokens") incomplete.push(id);
        else if (input === undefined) invalid.push({ id, error: b.closed ? `not valid JSON: ${preview(b.json)}` : "the stream ended before it was complete" });
        content.push({ ...(b.block as ContentBlock), input: input ?? {} } as ContentBlock);
      }
      return {
        type: "done",
        content,
        stop_reason: stopReason,
        usage,
        incomplete_tool_ids: incomplete,
        ...(invalid.length ? { invalid_tool_inputs: invalid } : {}),
      };
    },
  };
}

function applyDelta(b: Block | undefined, delta: RawContentBlockDeltaEvent["delta"]): string | undefined {
  if (!b) return undefined;
  switch (delta.type) {
    case "text_delta":
      b.block.text = String(b.block.text ?? "") + delta.text;
      return delta.text;
    case "input_json_delta":
      b.json += delta.partial_json;
      return undefined;
    case "thinking_delta":
      b.block.thinking = String(b.block.thinking ?? "") + delta.thinking;
      return undefined;
    case "signature_delta":
      b.block.signature = delta.signature;
      return undefined;
    default:
      return undefined;
  }
}

function parseInput(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function preview(json: string): string {
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

type WireUsage = Partial<Record<keyof Usage, number | null>>;

function mergeUsage(current: Usage, next: WireUsage | null | undefined): Usage {
  if (!next) return current;
  // message_delta carries cumulative counts: a present number replaces the earlier one.
  const pick = (key: keyof Usage) => (typeof next[key] === "number" ? (next[key] as number) : current[key]);
  return {
    input_tokens: pick("input_tokens"),
    output_tokens: pick("output_tokens"),
    cache_read_input_tokens: pick("cache_read_input_tokens"),
    cache_creation_input_tokens: pick("cache_creation_input_tokens"),
  };
}
