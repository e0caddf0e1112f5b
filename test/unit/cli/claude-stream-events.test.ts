// Claude Code's stream_event payloads rebuilt from rein's events: a turn without streamed text, a
// thinking block, and a retry that starts the message again.
import { expect, test } from "bun:test";
import { streamEvents } from "../../../src/cli/claude-stream-events.ts";
import type { StampedEvent } from "../../../src/app/events.ts";

const at = (seq: number, event: Record<string, unknown>) => ({ session_id: "s", seq, ...event }) as unknown as StampedEvent;
const usage = { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

test("a turn that streamed no text comes whole at its end: thinking with its signature, then the call", () => {
  const s = streamEvents();
  expect(s.of(at(1, { type: "session", id: "s", cwd: "/w", model: "m1", version: "0" }))).toEqual([]);
  const content = [
    { type: "thinking", thinking: "look first", signature: "sig" },
    { type: "tool_use", id: "t1", name: "glob", input: { pattern: "*" } },
  ];
  const events = s.of(at(5, { type: "assistant", content, stop_reason: "tool_use", usage, cost_usd: 0, model: "m2" }));
  expect(events).toEqual([
    { type: "message_start", message: { id: "msg_5", type: "message", role: "assistant", model: "m2", content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, input_tokens: 0, output_tokens: 0 } } },
    { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "look first" } },
    { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "t1", name: "glob", input: {} } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"pattern":"*"}' } },
    { type: "content_block_stop", index: 1 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage },
    { type: "message_stop" },
  ]);
  expect(s.messageId()).toBe("msg_5");
});

test("streamed text is one block; a retry starts a new message; the streamed text is not repeated at the end", () => {
  const s = streamEvents();
  s.of(at(1, { type: "text_delta", text: "Hel" }));
  expect(s.messageId()).toBe("msg_1");
  s.of(at(2, { type: "retry", attempt: 1, delay_ms: 5, reason: "overloaded" }));
  const first = s.of(at(3, { type: "text_delta", text: "Hi" }));
  expect(first.map((e) => e.type)).toEqual(["message_start", "content_block_start", "content_block_delta"]);
  expect(s.messageId()).toBe("msg_3");
  expect(s.of(at(4, { type: "text_delta", text: " there" }))).toEqual([{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " there" } }]);
  const end = s.of(at(5, { type: "assistant", content: [{ type: "text", text: "Hi there" }], stop_reason: "end_turn", usage, cost_usd: 0, model: "m" }));
  expect(end.map((e) => e.type)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
  expect(s.of(at(6, { type: "text_delta", text: "next" }))[0]).toMatchObject({ type: "message_start", message: { id: "msg_6" } });
});
