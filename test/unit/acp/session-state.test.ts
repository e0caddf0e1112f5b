import { describe, expect, test } from "bun:test";
import { badValue, configOptions } from "../../../src/acp/config-options.ts";
import { storedMode, withMode } from "../../../src/acp/modes.ts";
import { described, reinCommand, withReinCommands } from "../../../src/acp/rein-commands.ts";
import { replay, replayNotes, typedBlocks } from "../../../src/acp/replay.ts";
import { promptOf } from "../../../src/acp/prompt.ts";
import { translator } from "../../../src/acp/updates.ts";
import type { StampedEvent } from "../../../src/app/events.ts";

const stamp = (event: Record<string, unknown>, seq = 1) => ({ session_id: "s", seq, ...event }) as unknown as StampedEvent;
const counter = () => {
  let n = 0;
  return () => `m${++n}`;
};

describe("acp config options", () => {
  const modes = { currentModeId: "default", availableModes: [{ id: "default", name: "default permissions" }, { id: "agent:review", name: "review agent", description: "reads" }] };
  test("mode and model as selects; the session's model is offered even when no provider lists it", () => {
    const [mode, model] = configOptions(modes, [{ value: "claude-haiku-4-5", name: "claude-haiku-4-5" }], "my-model");
    expect(mode).toMatchObject({ id: "mode", category: "mode", type: "select", currentValue: "default", options: [{ value: "default" }, { value: "agent:review", description: "reads" }] });
    expect(model).toMatchObject({ id: "model", category: "model", currentValue: "my-model", options: [{ value: "my-model" }, { value: "claude-haiku-4-5" }] });
  });

  test("a value is checked against the option's values; an unknown option names the known ones", () => {
    const options = configOptions(modes, [], "m");
    expect(badValue(options, "mode", "agent:review")).toBeUndefined();
    expect(badValue(options, "mode", "yolo")).toBe('no mode "yolo": choose one of default, agent:review');
    expect(badValue(options, "mode", true)).toContain("choose one of");
    expect(badValue(options, "speed", "fast")).toBe('no config option "speed": the options are mode, model');
  });
});

describe("acp stored mode", () => {
  test("a mode is kept in the row's settings as the server keeps one (permission_mode or agent), other keys kept", () => {
    const kept = withMode(JSON.stringify({ chosen_model: "x", agent: "old" }), { permissionMode: "plan" });
    expect(JSON.parse(kept)).toEqual({ chosen_model: "x", permission_mode: "plan" });
    expect(storedMode(kept)).toBe("plan");
    expect(storedMode(withMode(kept, { agent: "review" }))).toBe("agent:review");
    expect(storedMode(null)).toBeUndefined();
    expect(storedMode("not json")).toBeUndefined();
  });
});

describe("acp rein commands", () => {
  test("rein's commands are recognised with their arguments, only with nothing attached; a workspace command of the same name is shadowed", () => {
    expect(reinCommand("/compact the parser", 0)).toEqual({ name: "compact", rest: "the parser" });
    expect(reinCommand("  /undo code 2 ", 0)).toEqual({ name: "undo", rest: "code 2" });
    expect(reinCommand("/compact", 1)).toBeUndefined();
    expect(reinCommand("/house-style tabs", 0)).toBeUndefined();
    expect(reinCommand("please /compact", 0)).toBeUndefined();
    const names = withReinCommands([{ name: "compact", description: "theirs" }, { name: "greet", description: "hi" }]).map((c) => `${c.name}:${c.description.slice(0, 9)}`);
    expect(names).toEqual(["compact:summarise", "undo:undo the ", "redo:reverse th", "model:show the ", "greet:hi"].map((n) => n.slice(0, n.indexOf(":") + 10)));
  });

  test("an undo's report in a few lines; a refusal with its files", () => {
    expect(described({ type: "refused", reason: "changed since", files: ["a.ts"] }, false)).toBe("changed since:\n  a.ts");
    const done = described({ type: "done", messages: 2, prompt: "fix it", code: { type: "done", checkpoints: [1], files: ["a.ts"], uncovered: [], side_effects: [] } as never }, false);
    expect(done).toBe('code of 1 turn undone: 1 file put back\n  a.ts\nconversation cut back to before "fix it" (2 messages)');
  });
});

describe("acp messageId", () => {
  test("a model turn's text and thinking share one id; the next turn has another", () => {
    const t = translator("/w", () => 1, Date.now, () => undefined, counter());
    const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const [a] = t(stamp({ type: "text_delta", text: "Hel" }));
    const [b] = t(stamp({ type: "text_delta", text: "lo" }));
    const [thought] = t(stamp({ type: "assistant", content: [{ type: "thinking", thinking: "hmm" }], stop_reason: "end_turn", usage, cost_usd: 0, model: "m" }));
    const [c] = t(stamp({ type: "text_delta", text: "Next" }));
    expect([a, b, thought, c].map((u) => (u as { messageId?: string }).messageId)).toEqual(["m1", "m1", "m1", "m2"]);
  });

  test("a compaction tells the client the smaller context", () => {
    const t = translator("/w", () => 1000);
    expect(t(stamp({ type: "compaction", summary: "s", method: "summary", tokens_before: 900, tokens_after: 120, first_kept: 2, head: "s", pruned: [] }))).toEqual([{ sessionUpdate: "usage_update", used: 120, size: 1000, cost: { amount: 0, currency: "USD" } }]);
  });
});

describe("acp replay as it happened", () => {
  test("a prompt's embedded files come back as resources, the text around them as text", () => {
    const { text } = promptOf([
      { type: "text", text: "/greet Ada" },
      { type: "resource", resource: { uri: "file:///w/a%20b.md", text: "one\ntwo" } },
      { type: "text", text: "thanks" },
    ]);
    expect(typedBlocks(text)).toEqual([
      { type: "text", text: "/greet Ada" },
      { type: "resource", resource: { uri: "file:///w/a%20b.md", text: "one\ntwo" } },
      { type: "text", text: "thanks" },
    ]);
    expect(typedBlocks("plain")).toEqual([{ type: "text", text: "plain" }]);
  });

  test("the prompt as typed, its image, no hook notes; the plan after the todo call; one id per message", () => {
    const events = [stamp({ type: "user", text: "Say hi to Ada.", typed: "/greet Ada" }, 3), stamp({ type: "tool_end", id: "t1", name: "todo", is_error: false, output: "", truncated: false, metadata: { todos: [{ content: "greet", status: "done" }] } }, 6)];
    const updates = replay(
      [
        { role: "user", seq: 3, content: [{ type: "text", text: "Say hi to Ada." }, { type: "image", source: { type: "base64", media_type: "image/png", data: "AAA" } }, { type: "text", text: "a hook's note" }] },
        { role: "assistant", seq: 5, content: [{ type: "thinking", thinking: "plan" }, { type: "tool_use", id: "t1", name: "todo", input: {} }] },
        { role: "user", seq: 6, content: [{ type: "tool_result", tool_use_id: "t1", content: "[x] greet" }] },
        { role: "assistant", seq: 8, content: [{ type: "text", text: "Hi Ada." }] },
      ],
      "/w",
      replayNotes(events),
      counter(),
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan", "agent_message_chunk"]);
    expect(updates[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "/greet Ada" }, messageId: "m1" });
    expect(updates[1]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "image", data: "AAA", mimeType: "image/png" }, messageId: "m1" });
    expect(updates[2]).toMatchObject({ messageId: "m2" });
    expect(updates[4]).not.toHaveProperty("rawOutput");
    expect(updates[5]).toEqual({ sessionUpdate: "plan", entries: [{ content: "greet", priority: "medium", status: "completed" }] });
    expect(updates[6]).toMatchObject({ messageId: "m4" });
  });
});
