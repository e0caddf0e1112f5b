import { describe, expect, test } from "bun:test";
import chalk from "chalk";
import type { StampedEvent } from "../../../../src/app/events.ts";
import { Screen } from "../../../../src/cli/term/screen.ts";
import { Transcript } from "../../../../src/cli/term/transcript.ts";

chalk.level = 0;

/** A transcript drawn on a plain (TERM=dumb) screen, which itself writes no escape sequence: every write is kept. */
function setup() {
  const writes: string[] = [];
  const clock = { now: 0 };
  const screen = new Screen({ write: (text) => void writes.push(text), columns: () => 80, rows: () => 24 }, false);
  const transcript: Transcript = new Transcript(screen, {
    cwd: "/tmp",
    color: false,
    changed: () => screen.setLive({ rows: transcript.liveRows(screen.width), cursorRow: 0, cursorCol: 0 }),
    now: () => clock.now,
  });
  const delta = (text: string) => transcript.handle({ type: "text_delta", text, session_id: "ses_test", seq: 1 } as StampedEvent);
  const send = (event: Record<string, unknown>) => transcript.handle({ session_id: "ses_test", seq: 1, ...event } as StampedEvent);
  return { writes, transcript, delta, send, clock };
}

describe("tool lines", () => {
  test("a call's duration leaves out the time its permission dialog waited", () => {
    const { writes, transcript, send, clock } = setup();
    send({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "npm test" } });
    clock.now = 100;
    send({ type: "permission_ask", id: "ask_1", tool_use_id: "toolu_1", tool: "bash", requests: [] });
    clock.now = 60_100;
    send({ type: "permission_reply", id: "ask_1", reply: "once" });
    clock.now = 60_400;
    send({ type: "tool_end", id: "toolu_1", name: "bash", output: "ok", is_error: false, truncated: false });
    expect(writes.join("")).toContain("✓ bash  npm test  0.4s  → ok");
    transcript.stop();
  });

  test("the todo list is shown under a todo call when it changed, and not again when it did not", () => {
    const { writes, transcript, send } = setup();
    const todos = [
      { content: "read the parser", status: "done" },
      { content: "fix the bug", status: "in_progress" },
      { content: "run the tests", status: "pending" },
    ];
    const todoCall = (id: string, list: typeof todos) => {
      send({ type: "tool_start", id, name: "todo", input: { todos: list } });
      send({ type: "tool_end", id, name: "todo", output: "(1 done, 1 in progress, 1 pending)", is_error: false, truncated: false, metadata: { todos: list } });
    };
    todoCall("toolu_1", todos);
    expect(writes.join("")).toContain("  ✓ read the parser\n  ▸ fix the bug\n  ○ run the tests\n");
    writes.length = 0;
    todoCall("toolu_2", todos);
    expect(writes.join("")).not.toContain("fix the bug");
    todoCall("toolu_3", [...todos.slice(0, 1), { content: "fix the bug", status: "done" }, { content: "run the tests", status: "in_progress" }]);
    expect(writes.join("")).toContain("  ✓ fix the bug\n  ▸ run the tests\n");
    transcript.stop();
  });

  test("a failed run's error is printed once: from its error event, or from the result when no event said it", () => {
    const { writes, transcript, send } = setup();
    send({ type: "error", message: "API error 401: the key was refused" });
    send({ type: "result", status: "error", error: "API error 401: the key was refused", text: "" });
    expect(writes.join("").split("API error 401").length - 1).toBe(1);
    writes.length = 0;
    send({ type: "result", status: "max_turns", error: "stopped after 3 turns (--max-turns)", text: "" });
    expect(writes.join("")).toContain("stopped after 3 turns");
    transcript.stop();
  });
});

describe("the streamed unfinished line", () => {
  test("is drawn live without a C1 CSI (U+009B), an escape or any other control character", () => {
    const { writes, transcript, delta } = setup();
    delta("safe \x1b[2J");
    delta("then \x9b2J and \x9d0;title\x07 and \x7f end");
    const live = transcript.liveRows(80);
    expect(live).toEqual(["safe [2Jthen 2J and 0;title and  end"]);
    const output = writes.join("");
    expect(output).toContain("safe [2Jthen 2J");
    expect(output).not.toMatch(/[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]/);
    transcript.stop();
  });
});

describe("inputOf", () => {
  test("a running call's input, for the permission dialog; nothing once it ended", () => {
    const { transcript } = setup();
    const stamp = { session_id: "ses_test", seq: 1 };
    transcript.handle({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "ls" }, ...stamp } as StampedEvent);
    expect(transcript.inputOf("toolu_1")).toEqual({ command: "ls" });
    expect(transcript.inputOf("toolu_2")).toBeUndefined();
    transcript.handle({ type: "tool_end", id: "toolu_1", name: "bash", output: "", is_error: false, ...stamp } as StampedEvent);
    expect(transcript.inputOf("toolu_1")).toBeUndefined();
    transcript.stop();
  });
});

describe("subagents", () => {
  const task = (id: string, subagent_type: string, description: string) => ({ type: "tool_start", id, name: "task", input: { description, prompt: "p", subagent_type } });
  const end = (id: string, name: string, output: string, parent?: string) => ({
    type: "tool_end",
    id,
    name,
    output,
    is_error: false,
    truncated: false,
    ...(parent ? { parent_tool_use_id: parent } : {}),
  });

  test("a child's calls print indented under a header naming its task; its text, prompt and result stay out", () => {
    const { writes, transcript, send, delta } = setup();
    send({ type: "user", text: "find main" });
    send(task("toolu_task", "explore", "find main"));
    send({ type: "user", text: "CHILD PROMPT", parent_tool_use_id: "toolu_task" });
    send({ type: "text_delta", text: "CHILD TEXT\n", parent_tool_use_id: "toolu_task" });
    send({ type: "tool_start", id: "toolu_c1", name: "read", input: { path: "/tmp/src/main.ts" }, parent_tool_use_id: "toolu_task" });
    // while it runs, the child's call is drawn under the task's, indented
    const live = transcript.liveRows(80);
    expect(live[0]).toMatch(/^\S+ task  explore · find main/);
    expect(live[1]).toMatch(/^ {4}\S+ read  src\/main\.ts/);
    send(end("toolu_c1", "read", "1 x\n2 y", "toolu_task"));
    send({ type: "tool_start", id: "toolu_c2", name: "grep", input: { pattern: "main" }, parent_tool_use_id: "toolu_task" });
    send(end("toolu_c2", "grep", "src/main.ts", "toolu_task"));
    send({ type: "result", status: "success", text: "CHILD TEXT", parent_tool_use_id: "toolu_task", usage: {}, turns: 1 });
    send(end("toolu_task", "task", "task_id: s_1\n<task_result>\nmain\n</task_result>\n(explore on m: 1 turn, 10 tokens in, 2 out, $0.0010, 0.1 s)"));
    delta("Found it.\n");
    const out = writes.join("").replace(/[^\n]*\r/g, "");
    expect(out).toContain("  ↳ explore · find main\n    ✓ read  src/main.ts  0.0s  → 2 lines\n    ✓ grep  main  0.0s  → 1 file\n✓ task  explore · find main  0.0s  → explore on m: 1 turn");
    expect(out.match(/↳/g)).toHaveLength(1);
    expect(out).not.toContain("CHILD");
    expect(out).toContain("Found it.");
    transcript.stop();
  });

  test("two tasks at once: each run of lines gets its task's header; the dialog can name the subagent that asks", () => {
    const { writes, transcript, send } = setup();
    send(task("toolu_a", "explore", "look at a"));
    send(task("toolu_b", "general", "fix b"));
    send({ type: "tool_start", id: "toolu_a1", name: "read", input: { path: "a.ts" }, parent_tool_use_id: "toolu_a" });
    send({ type: "tool_start", id: "toolu_b1", name: "bash", input: { command: "make b" }, parent_tool_use_id: "toolu_b" });
    send({ type: "permission_ask", id: "ask_1", tool_use_id: "toolu_b1", tool: "bash", requests: [], parent_tool_use_id: "toolu_b" });
    expect(transcript.askerOf({ parent_tool_use_id: "toolu_b" })).toBe("general · fix b");
    expect(transcript.askerOf({})).toBeUndefined();
    expect(transcript.inputOf("toolu_b1")).toEqual({ command: "make b" });
    send(end("toolu_a1", "read", "1 a", "toolu_a"));
    send(end("toolu_b1", "bash", "done", "toolu_b"));
    send({ type: "tool_start", id: "toolu_a2", name: "read", input: { path: "a2.ts" }, parent_tool_use_id: "toolu_a" });
    send(end("toolu_a2", "read", "1 a", "toolu_a"));
    const out = writes.join("");
    const printed = out.replace(/[^\n]*\r/g, "");
    expect(printed).toContain("  ↳ explore · look at a\n    ✓ read  a.ts  0.0s  → 1 line\n  ↳ general · fix b\n    ✓ bash  make b  0.0s  → done\n  ↳ explore · look at a\n    ✓ read  a2.ts");
    transcript.stop();
  });
});
