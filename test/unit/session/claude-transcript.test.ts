// The transcript a hook reads at transcript_path, in Claude Code's JSONL: one line per prompt,
// per assistant content block and per tool result, chained by parentUuid, with Claude Code's tool
// names and fields; a subagent's events left to its own file; each line whole on disk as it comes.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyUsage, type StampedEvent } from "../../../src/agent/types.ts";
import { ClaudeTranscript } from "../../../src/session/claude-transcript.ts";
import { TranscriptFile } from "../../../src/session/transcript-file.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-transcript-");
});
afterEach(() => dir.remove());

let seq = 0;
const stamp = <E extends Omit<StampedEvent, "session_id" | "seq">>(event: E, parent?: string): StampedEvent =>
  ({ ...event, session_id: "s_1", seq: ++seq, ...(parent ? { parent_tool_use_id: parent } : {}) }) as unknown as StampedEvent;

const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>);

function transcript(sidechain = false) {
  const path = join(dir.path, "projects", "p", "s_1.jsonl");
  const cwd = join(dir.path, "work");
  return { path, cwd, t: new ClaudeTranscript(path, { id: "s_1", cwd, entrypoint: "sdk-cli", permissionMode: "default", sidechain }) };
}

test("a prompt, a reply with text and a bash call, and its result: four lines chained by parentUuid", () => {
  const { path, cwd, t } = transcript();
  t.record(stamp({ type: "user", text: "list the files" }));
  t.record(stamp({ type: "assistant", model: "claude-test-1", stop_reason: "tool_use", usage: emptyUsage(), content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: "toolu_1", name: "bash", input: { command: "ls", description: "list" } }] }));
  t.record(stamp({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "ls" } }));
  t.record(stamp({ type: "tool_end", id: "toolu_1", name: "bash", is_error: false, output: "a.txt\nb.txt\n", truncated: false }));
  const [prompt, text, call, result] = lines(path);
  expect(lines(path)).toHaveLength(4);
  expect(prompt).toMatchObject({ type: "user", parentUuid: null, isSidechain: false, message: { role: "user", content: "list the files" }, permissionMode: "default", sessionId: "s_1", cwd, entrypoint: "sdk-cli", userType: "external" });
  expect(text).toMatchObject({ type: "assistant", parentUuid: prompt!.uuid, message: { role: "assistant", model: "claude-test-1", content: [{ type: "text", text: "Looking." }], stop_reason: "tool_use", stop_sequence: null } });
  // Claude Code's tool name and fields in the tool_use block
  expect(call).toMatchObject({ type: "assistant", parentUuid: text!.uuid, message: { content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] } });
  // one message id for the blocks of one reply
  expect(call!.message.id).toBe(text!.message.id);
  expect(result).toMatchObject({
    type: "user",
    parentUuid: call!.uuid,
    promptId: prompt!.promptId,
    sourceToolAssistantUUID: call!.uuid,
    message: { role: "user", content: [{ tool_use_id: "toolu_1", type: "tool_result", content: "a.txt\nb.txt\n", is_error: false }] },
    toolUseResult: { stdout: "a.txt\nb.txt", stderr: "", interrupted: false },
  });
  for (const line of lines(path)) {
    expect(line.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(line.timestamp)).not.toBeNaN();
  }
});

test("a failed call's toolUseResult is Claude Code's 'Error: ...' string", () => {
  const { path, t } = transcript();
  t.record(stamp({ type: "user", text: "run it" }));
  t.record(stamp({ type: "assistant", model: "m", stop_reason: "tool_use", usage: emptyUsage(), content: [{ type: "tool_use", id: "toolu_2", name: "bash", input: { command: "false" } }] }));
  t.record(stamp({ type: "tool_end", id: "toolu_2", name: "bash", is_error: true, output: "exit code 1", truncated: false }));
  expect(lines(path).at(-1)).toMatchObject({ toolUseResult: "Error: exit code 1", message: { content: [{ is_error: true }] } });
});

test("a result for a call it never saw is still a line, without sourceToolAssistantUUID", () => {
  const { path, t } = transcript();
  t.record(stamp({ type: "tool_end", id: "toolu_x", name: "read", is_error: false, output: "text", truncated: false }));
  const [line] = lines(path);
  expect(line).not.toHaveProperty("sourceToolAssistantUUID");
  expect(line!.message.content[0].tool_use_id).toBe("toolu_x");
});

test("a subagent's events are left out; the other events (deltas, tool_start) write nothing", () => {
  const { path, t } = transcript();
  t.record(stamp({ type: "user", text: "delegate" }));
  t.record(stamp({ type: "user", text: "child prompt" }, "toolu_task"));
  t.record(stamp({ type: "assistant", model: "m", stop_reason: "end_turn", usage: emptyUsage(), content: [{ type: "text", text: "child" }] }, "toolu_task"));
  t.record(stamp({ type: "text_delta", text: "x" }));
  t.record(stamp({ type: "tool_start", id: "t", name: "bash", input: {} }));
  expect(lines(path).map((l) => l.message.content)).toEqual(["delegate"]);
});

test("a subagent's own transcript says isSidechain", () => {
  const { path, t } = transcript(true);
  t.record(stamp({ type: "user", text: "child work" }));
  expect(lines(path)[0]!.isSidechain).toBe(true);
});

test("each prompt gets its own promptId, carried by its tool results", () => {
  const { path, cwd, t } = transcript();
  for (const [n, text] of ["one", "two"].entries()) {
    t.record(stamp({ type: "user", text }));
    t.record(stamp({ type: "assistant", model: "m", stop_reason: "tool_use", usage: emptyUsage(), content: [{ type: "tool_use", id: `toolu_${n}`, name: "read", input: { path: "a.txt" } }] }));
    t.record(stamp({ type: "tool_end", id: `toolu_${n}`, name: "read", is_error: false, output: "x", truncated: false }));
  }
  const all = lines(path);
  const prompts = all.filter((l) => l.type === "user" && typeof l.message.content === "string");
  const results = all.filter((l) => l.type === "user" && Array.isArray(l.message.content));
  expect(prompts[0]!.promptId).not.toBe(prompts[1]!.promptId);
  expect(results.map((r) => r.promptId)).toEqual(prompts.map((p) => p.promptId));
  // read's input is Claude Code's Read: file_path, made absolute against the session's folder
  expect(all.find((l) => l.type === "assistant")!.message.content[0]).toMatchObject({ name: "Read", input: { file_path: join(cwd, "a.txt") } });
});

test("TranscriptFile: lines are on disk as they are appended; a removed folder is made again after rest()", () => {
  const path = join(dir.path, "deep", "t.jsonl");
  const file = new TranscriptFile(path);
  file.append({ n: 1 });
  expect(readFileSync(path, "utf8")).toBe('{"n":1}\n');
  file.append({ n: 2 });
  expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":2}\n');
  file.rest();
  rmSync(join(dir.path, "deep"), { recursive: true });
  file.append({ n: 3 });
  expect(readFileSync(path, "utf8")).toBe('{"n":3}\n');
  file.rest();
  file.rest();
});

test("TranscriptFile: a path it cannot write is given up quietly until the next rest", () => {
  const blocker = join(dir.path, "file");
  writeFileSync(blocker, "x");
  const file = new TranscriptFile(join(blocker, "t.jsonl")); // a file where a folder should be
  expect(() => file.append({ n: 1 })).not.toThrow();
  expect(() => file.append({ n: 2 })).not.toThrow();
  expect(existsSync(join(blocker, "t.jsonl"))).toBe(false);
  file.rest();
});
