// The translator of a session's events into ACP updates (updates.ts), beyond the mapping tests:
// thinking and text as one message, a long running output kept to its end, events of calls it
// never saw, a compaction's smaller context, and the todo list's statuses as a plan.
import { describe, expect, test } from "bun:test";
import { LIVE_OUTPUT_CHARS, planOf, thoughts, translator } from "../../../src/acp/updates.ts";
import type { StampedEvent } from "../../../src/app/events.ts";

const stamp = (event: Record<string, unknown>, seq = 1) => ({ ...event, session_id: "s_1", seq }) as StampedEvent;
const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 };

describe("acp translator", () => {
  test("a turn's text chunks and its thinking share one messageId; the next turn gets a new one", () => {
    let n = 0;
    const translate = translator("/p", () => 200_000, () => 0, () => undefined, () => `m${++n}`);
    const first = [
      ...translate(stamp({ type: "text_delta", text: "Hel" })),
      ...translate(stamp({ type: "text_delta", text: "" })),
      ...translate(stamp({ type: "text_delta", text: "lo" })),
      ...translate(stamp({ type: "assistant", content: [{ type: "thinking", thinking: "plan it" }, { type: "text", text: "Hello" }], stop_reason: "end_turn", usage, cost_usd: 0.01 })),
    ];
    expect(first).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" }, messageId: "m1" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" }, messageId: "m1" },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "plan it" }, messageId: "m1" },
      { sessionUpdate: "usage_update", used: 115, size: 200_000, cost: { amount: 0.01, currency: "USD" } },
    ]);
    const second = translate(stamp({ type: "text_delta", text: "again" }));
    expect(second).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "again" }, messageId: "m2" }]);
  });

  test("a turn with thinking only still names one message; empty thinking is not sent", () => {
    expect(thoughts([{ type: "thinking", thinking: "" }, { type: "redacted_thinking", data: "x" }, { type: "thinking", thinking: "yes" }])).toEqual([{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "yes" } }]);
  });

  test("a running call's long output is shown by its end, marked as cut", () => {
    let now = 0;
    const translate = translator("/p", () => 1000, () => now);
    translate(stamp({ type: "tool_start", id: "c1", name: "bash", input: { command: "yes" } }));
    const huge = "x".repeat(3 * LIVE_OUTPUT_CHARS);
    translate(stamp({ type: "tool_output", id: "c1", chunk: "start " }));
    now = 10_000;
    const [update] = translate(stamp({ type: "tool_output", id: "c1", chunk: `${huge}END` }));
    const shown = (update as { content: { content: { text: string } }[] }).content[0]!.content.text;
    expect(shown.startsWith("…")).toBe(true);
    expect(shown.endsWith("END")).toBe(true);
    expect(shown.length).toBe(LIVE_OUTPUT_CHARS + 1);
  });

  test("output or an end of a call it never saw start, and events it does not show, are nothing or a bare end", () => {
    const translate = translator("/p", () => 1000);
    expect(translate(stamp({ type: "tool_output", id: "ghost", chunk: "boo" }))).toEqual([]);
    expect(translate(stamp({ type: "retry", attempt: 1, delay_ms: 5, reason: "busy" }))).toEqual([]);
    expect(translate(stamp({ type: "tool_end", id: "ghost", name: "bash", is_error: false, output: "late" }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "ghost", status: "completed", content: [{ type: "content", content: { type: "text", text: "late" } }], rawOutput: { output: "late" } },
    ]);
  });

  test("an edit whose file was read at its start: the start has the line, the end the whole-file diff and the location again", () => {
    const translate = translator("/p", () => 1000, () => 0, (id) => (id === "e1" ? "a\nb\nc\n" : undefined));
    const input = { path: "f.txt", old_string: "c", new_string: "C" };
    const [start] = translate(stamp({ type: "tool_start", id: "e1", name: "edit", input }));
    expect(start).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "e1", kind: "edit", status: "pending", locations: [{ path: "/p/f.txt", line: 3 }], rawInput: input });
    const [end] = translate(stamp({ type: "tool_end", id: "e1", name: "edit", is_error: false, output: "edited" }));
    expect(end).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "e1",
      status: "completed",
      content: [{ type: "diff", path: "/p/f.txt", oldText: "a\nb\nc\n", newText: "a\nb\nC\n" }, { type: "content", content: { type: "text", text: "edited" } }],
      locations: [{ path: "/p/f.txt", line: 3 }],
      rawOutput: { output: "edited" },
    });
  });

  test("a compaction tells the context after it, and its cost counts", () => {
    const translate = translator("/p", () => 50_000);
    translate(stamp({ type: "assistant", content: [], stop_reason: "end_turn", usage, cost_usd: 0.5 }));
    expect(translate(stamp({ type: "compaction", tokens_before: 40_000, tokens_after: 3_000, usage, cost_usd: 0.25 }))).toEqual([{ sessionUpdate: "usage_update", used: 3_000, size: 50_000, cost: { amount: 0.75, currency: "USD" } }]);
  });
});

test("the todo list's statuses as plan entries; another tool's metadata, or a list with odd items, is no plan or skips them", () => {
  const todos = [
    { content: "read the code", status: "done" },
    { content: "change it", status: "in_progress" },
    { content: "test it", status: "pending" },
    { content: "ship it", status: "someday" },
    { content: 3, status: "done" },
  ];
  expect(planOf("todo", { todos })).toEqual([
    { content: "read the code", priority: "medium", status: "completed" },
    { content: "change it", priority: "medium", status: "in_progress" },
    { content: "test it", priority: "medium", status: "pending" },
    { content: "ship it", priority: "medium", status: "pending" },
  ]);
  expect(planOf("bash", { todos })).toBeUndefined();
  expect(planOf("todo", { todos: "none" })).toBeUndefined();
  expect(planOf("todo", undefined)).toBeUndefined();
});
