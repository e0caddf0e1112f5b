// The terminal transcript for the events its other test leaves out: the prompt as it goes into the
// scrollback, retries, compactions, checkpoints, hooks, a subagent's errors, the live rows (the
// streaming line, running calls with their last output and time, "thinking") and the spinner held
// while a dialog waits. Drawn on a plain screen (TERM=dumb) so every write is kept as text.
import { afterEach, describe, expect, test } from "bun:test";
import chalk from "chalk";
import type { StampedEvent } from "../../../../src/app/events.ts";
import { Screen } from "../../../../src/cli/term/screen.ts";
import { Transcript } from "../../../../src/cli/term/transcript.ts";

chalk.level = 0;
const transcripts: Transcript[] = [];
afterEach(() => transcripts.splice(0).forEach((t) => t.stop()));

function setup(columns = 80) {
  const writes: string[] = [];
  const clock = { now: 0 };
  let changes = 0;
  const screen = new Screen({ write: (text) => void writes.push(text), columns: () => columns, rows: () => 24 }, false);
  const transcript = new Transcript(screen, { cwd: "/work", color: false, changed: () => void changes++, now: () => clock.now });
  transcripts.push(transcript);
  const send = (event: Record<string, unknown>) => transcript.handle({ session_id: "ses_test", seq: 1, ...event } as StampedEvent);
  return { printed: () => writes.join(""), transcript, send, clock, changes: () => changes };
}

describe("what goes into the scrollback", () => {
  test("the prompt after a blank line, as typed when a command expanded it, at most six lines", () => {
    const { printed, send } = setup();
    send({ type: "user", text: "the expanded command text", typed: "/review a.ts" });
    expect(printed()).toContain("\n› /review a.ts\n");
    expect(printed()).not.toContain("expanded");
    send({ type: "user", text: Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join("\n") });
    const shown = printed();
    expect(shown).toContain("› line 1\n  line 2\n");
    expect(shown).toContain("  line 6\n  … 3 more lines\n");
    expect(shown).not.toContain("line 7");
  });

  test("a retry says when and why", () => {
    const { printed, send } = setup();
    send({ type: "retry", attempt: 2, delay_ms: 1500, reason: "the API is overloaded (529)" });
    expect(printed()).toContain("retrying in 1.5s (attempt 2: the API is overloaded (529))\n");
  });

  test("each kind of compaction is named with the tokens before and after", () => {
    const { printed, send } = setup();
    for (const method of ["prune", "summary", "cut"]) send({ type: "compaction", summary: "", method, tokens_before: 150000, tokens_after: 20000, first_kept: 0, pruned: [] });
    expect(printed()).toContain("(context compacted: old tool outputs removed, ~150000 -> ~20000 tokens)\n");
    expect(printed()).toContain("(context compacted: earlier conversation summarised, ~150000 -> ~20000 tokens)\n");
    expect(printed()).toContain("(context compacted: earlier conversation cut (the summary failed), ~150000 -> ~20000 tokens)\n");
  });

  test("a checkpoint is shown when the turn changed something or the checkpoint is incomplete, not otherwise", () => {
    const { printed, send } = setup();
    send({ type: "checkpoint", n: 1, changed: [], uncovered: [], side_effects: [] });
    expect(printed()).toBe("");
    send({ type: "checkpoint", n: 2, changed: [{ status: "M", path: "a.ts" }], uncovered: [], side_effects: [] });
    expect(printed()).toContain("changed 1 file: a.ts (checkpoint 2; /undo or rein undo puts it back)\n");
    send({ type: "checkpoint", n: 3, changed: [], uncovered: [], side_effects: [], incomplete: "the disk filled" });
    expect(printed()).toContain("checkpoint incomplete: the disk filled\n");
  });

  test("a hook that blocked or added context has its line; one that decided nothing has none", () => {
    const { printed, send } = setup();
    const hook = { type: "hook_end", id: "h", event: "PreToolUse", source: "/p/.claude/settings.json", handler: "command: guard.sh", duration_ms: 3, output: "" };
    send({ ...hook, decision: "none" });
    expect(printed()).toBe("");
    send({ ...hook, decision: "deny", output: "not on main" });
    send({ ...hook, decision: "context" });
    expect(printed()).toBe("PreToolUse hook (settings.json: guard.sh) blocked: not on main\nPreToolUse hook (settings.json: guard.sh) added context\n");
  });

  test("a subagent's error is printed under its task, not as the run's error", () => {
    const { printed, send } = setup();
    send({ type: "tool_start", id: "toolu_task", name: "task", input: { description: "find the handler", subagent_type: "explore", prompt: "look" } });
    send({ type: "error", message: "the subagent's model is overloaded", parent_tool_use_id: "toolu_task" });
    const lines = printed().split("\n");
    const at = lines.findIndex((l) => l.includes("the subagent's model is overloaded"));
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toContain("↳");
    expect(lines[at - 1]).toContain("find the handler");
    expect(lines[at]).toMatch(/^\s+the subagent's model is overloaded$/);
    // the run's own result with the same error is still said: the child's was not the run's
    send({ type: "result", status: "error", error: "the run failed", text: "", usage: {}, cost_usd: null, turns: 1, duration_ms: 1 });
    expect(printed()).toContain("the run failed\n");
  });

  test("an interrupted run's reason is not printed as a failure", () => {
    const { printed, send } = setup();
    send({ type: "result", status: "interrupted", error: "interrupted by the user", text: "", usage: {}, cost_usd: null, turns: 1, duration_ms: 1 });
    expect(printed()).toBe("");
  });

  test("load_tools, the plumbing, is never shown unless it failed", () => {
    const { printed, send } = setup();
    send({ type: "tool_start", id: "t1", name: "load_tools", input: { names: ["webfetch"] } });
    send({ type: "tool_end", id: "t1", name: "load_tools", output: "loaded", is_error: false, truncated: false });
    expect(printed()).toBe("");
    send({ type: "tool_end", id: "t2", name: "load_tools", output: "no tool named nope", is_error: true, truncated: false });
    expect(printed()).toContain("load_tools");
    expect(printed()).toContain("no tool named nope");
  });
});

describe("the live rows", () => {
  test("after the prompt: thinking, with the seconds once one has passed", () => {
    const { transcript, send, clock } = setup();
    send({ type: "user", text: "go" });
    expect(transcript.liveRows(80)).toEqual([expect.stringMatching(/^. thinking…$/)]);
    clock.now = 3200;
    expect(transcript.liveRows(80)).toEqual([expect.stringMatching(/^. thinking 3s$/)]);
  });

  test("a running call shows its input, its time and the last line it printed; thinking gives way to it", () => {
    const { transcript, send, clock } = setup();
    send({ type: "user", text: "go" });
    send({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "npm test" } });
    send({ type: "tool_output", id: "toolu_1", chunk: "PASS a.test.ts\nPASS b.test.ts\n\n" });
    clock.now = 2500;
    const rows = transcript.liveRows(80);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("npm test");
    expect(rows[0]).toContain("  2s");
    expect(rows[0]).toEndWith("  PASS b.test.ts");
    send({ type: "tool_end", id: "toolu_1", name: "bash", output: "ok", is_error: false, truncated: false });
    // the call is over: the model thinks again
    expect(transcript.liveRows(80)).toEqual([expect.stringMatching(/thinking/)]);
  });

  test("the line being streamed is live until it ends, then printed as Markdown", () => {
    const { transcript, send, printed } = setup();
    send({ type: "text_delta", text: "**Done**: all tests pass" });
    expect(transcript.liveRows(80)).toEqual(["**Done**: all tests pass"]);
    expect(printed()).toBe("");
    send({ type: "assistant", content: [], stop_reason: "end_turn", usage: {}, model: "m" });
    expect(transcript.liveRows(80)).toEqual([]);
    expect(printed()).toContain("Done: all tests pass\n");
  });

  test("a live line longer than the width wraps within it", () => {
    const { transcript, send } = setup(30);
    send({ type: "text_delta", text: "a streamed line that is longer than thirty columns wide" });
    const rows = transcript.liveRows(30);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((row) => row.length <= 29)).toBe(true);
    // cut by columns, nothing lost or added
    expect(rows.join("")).toBe("a streamed line that is longer than thirty columns wide");
  });

  test("a call still asking a person does not count the wait in its seconds", () => {
    const { transcript, send, clock } = setup();
    send({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "rm -rf build" } });
    clock.now = 1000;
    send({ type: "permission_ask", id: "ask_1", tool_use_id: "toolu_1", tool: "bash", requests: [] });
    clock.now = 50_000;
    // the second before the dialog counts; the 49 it has waited since do not
    expect(transcript.liveRows(80)[0]).toMatch(/rm -rf build {2}1s$/);
  });

  test("the result ends every running call and the spinner", () => {
    const { transcript, send } = setup();
    send({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "sleep 100" } });
    send({ type: "result", status: "interrupted", text: "", usage: {}, cost_usd: null, turns: 1, duration_ms: 1 });
    expect(transcript.liveRows(80)).toEqual([]);
    expect(transcript.inputOf("toolu_1")).toBeUndefined();
  });

  test("the spinner turns while the model thinks, and again after a dialog held it", async () => {
    let wake: (() => void) | undefined;
    const screen = new Screen({ write: () => {}, columns: () => 80, rows: () => 24 }, false);
    const transcript = new Transcript(screen, { cwd: "/work", color: false, changed: () => wake?.() });
    transcripts.push(transcript);
    const turn = () => new Promise<void>((resolve) => (wake = resolve));
    const frame = () => transcript.liveRows(80)[0]!.slice(0, 1);
    transcript.handle({ type: "user", text: "go", session_id: "s", seq: 1 } as StampedEvent);
    const first = frame();
    await turn();
    const second = frame();
    expect(second).not.toBe(first);
    transcript.hold(true);
    const turned = turn();
    transcript.hold(false);
    await turned;
    await turn();
    expect(frame()).not.toBe(second);
  });

  test("events it does not show change nothing", () => {
    const { printed, send, changes } = setup();
    send({ type: "session", id: "s", cwd: "/work", model: "m", version: "1" });
    send({ type: "mcp_server", name: "db", state: "failed", error: "x" });
    expect(printed()).toBe("");
    expect(changes()).toBe(0);
  });
});
