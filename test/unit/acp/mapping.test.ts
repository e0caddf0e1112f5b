import { describe, expect, test } from "bun:test";
import { promptOf } from "../../../src/acp/prompt.ts";
import { replay } from "../../../src/acp/replay.ts";
import { stopReason } from "../../../src/acp/handlers.ts";
import { LIVE_OUTPUT_CHARS, LIVE_OUTPUT_EVERY_MS, translator } from "../../../src/acp/updates.ts";
import { toolTitle } from "../../../src/acp/tool-view.ts";
import type { StampedEvent } from "../../../src/app/events.ts";
import type { SessionUpdate } from "@agentclientprotocol/sdk";

const stamp = (event: Record<string, unknown>) => ({ session_id: "s", seq: 1, ...event }) as unknown as StampedEvent;
const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

describe("acp updates", () => {
  test("an edit's call carries kind, title, absolute location and, when it ends, a diff before its output", () => {
    const t = translator("/work", () => 200_000);
    const [call] = t(stamp({ type: "tool_start", id: "c1", name: "edit", input: { path: "src/a.ts", old_string: "x", new_string: "y" } }));
    expect(call).toEqual({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "edit: src/a.ts",
      kind: "edit",
      status: "pending",
      locations: [{ path: "/work/src/a.ts" }],
      rawInput: { path: "src/a.ts", old_string: "x", new_string: "y" },
    });
    const [end] = t(stamp({ type: "tool_end", id: "c1", name: "edit", is_error: false, output: "Edited", truncated: false }));
    expect(end).toMatchObject({ status: "completed", content: [{ type: "diff", path: "/work/src/a.ts", oldText: "x", newText: "y" }, { type: "content" }] });
  });

  test("a running call's output is shown as it comes: the first chunk at once, then at most once per interval, its end only", () => {
    let clock = 1000;
    const t = translator("/w", () => 1, () => clock);
    t(stamp({ type: "tool_start", id: "b1", name: "bash", input: { command: "make" } }));
    const live = (text: string): SessionUpdate[] => [{ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "in_progress", content: [{ type: "content", content: { type: "text", text } }] }];
    expect(t(stamp({ type: "tool_output", id: "b1", chunk: "building\n" }))).toEqual(live("building\n"));
    clock += LIVE_OUTPUT_EVERY_MS - 1;
    expect(t(stamp({ type: "tool_output", id: "b1", chunk: "a.o\n" }))).toEqual([]);
    clock += 1;
    expect(t(stamp({ type: "tool_output", id: "b1", chunk: "b.o\n" }))).toEqual(live("building\na.o\nb.o\n"));
    clock += LIVE_OUTPUT_EVERY_MS;
    const [long] = t(stamp({ type: "tool_output", id: "b1", chunk: "x".repeat(3 * LIVE_OUTPUT_CHARS) }));
    expect(long).toEqual(live(`…${"x".repeat(LIVE_OUTPUT_CHARS)}`)[0]!);
    const [end] = t(stamp({ type: "tool_end", id: "b1", name: "bash", is_error: false, output: "all of it", truncated: false }));
    expect(end).toMatchObject({ status: "completed", content: [{ type: "content", content: { type: "text", text: "all of it" } }] });
    expect(t(stamp({ type: "tool_output", id: "b1", chunk: "late" }))).toEqual([]);
  });

  test("a failed edit shows no diff; the todo list becomes a plan", () => {
    const t = translator("/w", () => 1);
    t(stamp({ type: "tool_start", id: "c2", name: "edit", input: { path: "a", old_string: "x", new_string: "y" } }));
    const [failed] = t(stamp({ type: "tool_end", id: "c2", name: "edit", is_error: true, output: "no match", truncated: false }));
    expect(failed).toMatchObject({ status: "failed", content: [{ type: "content", content: { type: "text", text: "no match" } }] });
    const todos = [
      { content: "read", status: "done" },
      { content: "fix", status: "in_progress" },
      { content: "test", status: "pending" },
    ];
    const updates = t(stamp({ type: "tool_end", id: "c3", name: "todo", is_error: false, output: "", truncated: false, metadata: { todos } }));
    expect(updates[1]).toEqual({
      sessionUpdate: "plan",
      entries: [
        { content: "read", priority: "medium", status: "completed" },
        { content: "fix", priority: "medium", status: "in_progress" },
        { content: "test", priority: "medium", status: "pending" },
      ],
    });
  });

  test("usage adds up the cost while every turn is priced, and drops it once one is not", () => {
    const t = translator("/w", () => 1000, Date.now, () => undefined, () => "m1");
    expect(t(stamp({ type: "assistant", content: [], stop_reason: "end_turn", usage, cost_usd: 0.25, model: "m" }))).toEqual([
      { sessionUpdate: "usage_update", used: 15, size: 1000, cost: { amount: 0.25, currency: "USD" } },
    ]);
    const [thought, u] = t(stamp({ type: "assistant", content: [{ type: "thinking", thinking: "hmm" }], stop_reason: "end_turn", usage, cost_usd: null, model: "m" }));
    expect(thought).toEqual({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" }, messageId: "m1" });
    expect(u).toEqual({ sessionUpdate: "usage_update", used: 15, size: 1000 });
  });

  test("titles come from the main argument, first line only", () => {
    expect(toolTitle("bash", { command: "ls\nrm -rf x" })).toBe("bash: ls");
    expect(toolTitle("grep", { pattern: "TODO" })).toBe("grep: TODO");
    expect(toolTitle("mcp__x__y", {})).toBe("mcp__x__y");
  });
});

describe("acp prompt blocks", () => {
  test("text, links, embedded resources and images", () => {
    const { text, images } = promptOf([
      { type: "text", text: "look at" },
      { type: "resource_link", uri: "file:///w/a%20b.ts", name: "a b.ts" },
      { type: "resource", resource: { uri: "file:///w/c.ts", text: "const c = 1;" } },
      { type: "image", mimeType: "image/png", data: "iVBO" },
    ]);
    expect(text).toBe('look at\n\n[a b.ts](/w/a b.ts)\n\n<context uri="/w/c.ts">\nconst c = 1;\n</context>');
    expect(images).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } }]);
  });
});

describe("acp replay and stop reasons", () => {
  test("a stored tool call replays as a call and its result", () => {
    const updates = replay(
      [
        { role: "user", content: [{ type: "text", text: "hi" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read", input: { path: "/w/a" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "text", is_error: true }] },
      ],
      "/w",
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "tool_call", "tool_call_update"]);
    expect(updates[2]).toMatchObject({ toolCallId: "t1", status: "failed" });
  });

  test("statuses map onto ACP's stop reasons; a failed run is an error", () => {
    const result = (status: string) => ({ type: "result", status, text: "", usage, cost_usd: 0, turns: 1, duration_ms: 1, error: "boom", session_id: "s", seq: 1 }) as never;
    expect(stopReason(result("success"), "end_turn")).toBe("end_turn");
    expect(stopReason(result("success"), "max_tokens")).toBe("max_tokens");
    expect(stopReason(result("success"), "refusal")).toBe("refusal");
    expect(stopReason(result("max_turns"), null)).toBe("max_turn_requests");
    expect(stopReason(result("interrupted"), null)).toBe("cancelled");
    expect(() => stopReason(result("error"), null)).toThrow("boom");
  });
});
