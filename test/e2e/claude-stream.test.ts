// `--output-format claude-stream-json` and `claude-json`: Claude Code's headless shapes, checked
// line by line against COMPAT.md section 9 and with the jq filters scripts written for it use.
import { expect, test } from "bun:test";
import { world } from "./harness.ts";

type Line = Record<string, any>;
const parse = (stdout: string): Line[] => stdout.trim().split("\n").map((l) => JSON.parse(l) as Line);

async function jq(filter: string, input: string, flags = "-r"): Promise<string> {
  const proc = Bun.spawn(["jq", flags, filter], { stdin: new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return out.trim();
}

test("claude-stream-json: init, assistant, the tool result as a user line, assistant, result", async () => {
  await using w = await world();
  await Bun.write(w.path("a.txt"), "hello\n");
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_r1", name: "read", input: { path: "a.txt" } }], usage: { input_tokens: 100, output_tokens: 10 } },
    { reply: [{ type: "text", text: "It says hello." }], usage: { input_tokens: 120, output_tokens: 5 } },
  );
  const { stdout, code } = await w.run(["-p", "what does a.txt say", "--output-format", "claude-stream-json"]);
  expect(code).toBe(0);
  const lines = parse(stdout);
  expect(lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`)).toEqual(["system/init", "assistant", "user", "assistant", "result/success"]);
  const [init, first, user, second, result] = lines as [Line, Line, Line, Line, Line];
  const sessionId = init.session_id;
  expect(sessionId).toMatch(/\S/);
  for (const line of lines) {
    expect(line.session_id).toBe(sessionId);
    expect(line.uuid).toMatch(/^[0-9a-f-]{36}$/);
  }
  expect(init).toMatchObject({ cwd: w.cwd, permissionMode: "default", slash_commands: [], mcp_servers: [] });
  expect(init.model).toMatch(/\S/);
  // Claude Code's names for rein's tools, in the tool_use blocks too (one assistant line per block)
  expect(init.tools).toContain("Read");
  expect(init.tools).toContain("Bash");
  // rein's deferred-tool loader is Claude Code's ToolSearch
  expect(init.tools).toContain("ToolSearch");
  expect(init.tools).not.toContain("load_tools");
  expect(first.parent_tool_use_id).toBeNull();
  expect(first.message).toMatchObject({ type: "message", role: "assistant", stop_reason: null, usage: { input_tokens: 100, output_tokens: 10 } });
  expect(first.message.content).toEqual([{ type: "tool_use", id: "toolu_r1", name: "Read", input: { file_path: w.path("a.txt") } }]);
  expect(user.message.role).toBe("user");
  expect(user.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_r1", is_error: false });
  expect(user.message.content[0].content).toContain("hello");
  expect(second.message.content).toEqual([{ type: "text", text: "It says hello." }]);
  expect(result).toMatchObject({ is_error: false, num_turns: 2, result: "It says hello.", stop_reason: "end_turn", permission_denials: [] });
  expect(result.usage).toMatchObject({ input_tokens: 220, output_tokens: 15 });
  expect(typeof result.total_cost_usd).toBe("number");
  expect(result.total_cost_usd).toBeGreaterThan(0);
  expect(typeof result.duration_ms).toBe("number");
  expect(typeof result.duration_api_ms).toBe("number");

  // What scripts written for Claude Code run over it.
  expect(Number(await jq('select(.type=="result") | .total_cost_usd', stdout))).toBe(result.total_cost_usd);
  expect(await jq('select(.type=="result") | .result', stdout)).toBe("It says hello.");
  expect(await jq('select(.type=="result") | .session_id', stdout)).toBe(sessionId);
  expect(await jq('select(.type=="result") | .is_error', stdout)).toBe("false");
  expect(await jq('select(.type=="system" and .subtype=="init") | .session_id', stdout)).toBe(sessionId);
});

test("claude-json prints the result alone; --max-turns ends as error_max_turns", async () => {
  await using w = await world();
  w.fake.script({ reply: [{ type: "tool_use", name: "glob", input: { pattern: "*" } }] });
  const { stdout, code } = await w.run(["-p", "look around", "--max-turns", "1", "--output-format", "claude-json"]);
  // as Claude Code: exit 1, the refused turn counted, its words
  expect(code).toBe(1);
  const lines = parse(stdout);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ type: "result", subtype: "error_max_turns", is_error: true, num_turns: 2, terminal_reason: "max_turns" });
  expect(lines[0]!.errors).toEqual(["Reached maximum number of turns (1)"]);
  expect(lines[0]!.result).toBeUndefined();
});

test("a call refused by --on-ask deny is a permission denial in the result", async () => {
  await using w = await world();
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_w1", name: "write", input: { path: "x.txt", content: "x" } }] },
    { reply: [{ type: "text", text: "I could not write it." }] },
  );
  const { stdout } = await w.run(["-p", "write x", "--output-format", "claude-json"]);
  const [result] = parse(stdout) as [Line];
  expect(result.subtype).toBe("success");
  expect(result.permission_denials).toEqual([{ tool_name: "Write", tool_use_id: "toolu_w1", tool_input: { file_path: w.path("x.txt"), content: "x" } }]);
});

test("a run that fails before it has a session still ends with a claude result line", async () => {
  await using w = await world();
  const { stdout, code } = await w.run(["-p", "hi", "--output-format", "claude-stream-json"], { env: { ANTHROPIC_API_KEY: undefined } });
  expect(code).toBe(2);
  const [result] = parse(stdout) as [Line];
  expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, session_id: null, num_turns: 0 });
  expect(await jq(".is_error", stdout)).toBe("true");
});

test("a subagent's messages carry the task call's id; only the parent's result closes the stream", async () => {
  await using w = await world();
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_task", input: { description: "find", prompt: "find main", subagent_type: "explore" } }] },
    { reply: [{ type: "text", text: "main is src/main.ts" }] },
    { reply: [{ type: "text", text: "Found it." }] },
  );
  const { stdout, code } = await w.run(["-p", "where is main?", "--output-format", "claude-stream-json"]);
  expect(code).toBe(0);
  const lines = parse(stdout);
  expect(lines.filter((l) => l.type === "result")).toHaveLength(1);
  expect(lines.filter((l) => l.type === "system")).toHaveLength(1);
  const child = lines.filter((l) => l.parent_tool_use_id === "toolu_task");
  expect(child.map((l) => l.type)).toContain("assistant");
  expect(child.find((l) => l.type === "assistant")!.message.content).toEqual([{ type: "text", text: "main is src/main.ts" }]);
  expect(lines.at(-1)).toMatchObject({ type: "result", result: "Found it.", session_id: lines[0]!.session_id });
});

test("--input-format stream-json runs each user line on stdin as a turn of one session; a bad line is named and skipped", async () => {
  await using w = await world();
  w.fake.script({ reply: [{ type: "text", text: "First answer." }] }, { reply: [{ type: "text", text: "Second answer." }] });
  const stdin = [
    JSON.stringify({ type: "user", message: { role: "user", content: "first question" } }),
    "{not json",
    JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: "second question" }] } }),
    "",
  ].join("\n");
  const { stdout, stderr, code } = await w.run(["-p", "--input-format", "stream-json", "--output-format", "claude-stream-json"], { stdin });
  expect(code).toBe(0);
  expect(stderr).toContain("stdin line 2: not JSON; skipped");
  const results = parse(stdout).filter((l) => l.type === "result");
  expect(results.map((r) => r.result)).toEqual(["First answer.", "Second answer."]);
  expect(results[0]!.session_id).toBe(results[1]!.session_id);
  // as Claude Code: each turn starts with its own init line
  expect(parse(stdout).map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`)).toEqual(["system/init", "assistant", "result/success", "system/init", "assistant", "result/success"]);
  const second = JSON.stringify(w.fake.requests[1]!.body.messages);
  expect(second).toContain("first question");
  expect(second).toContain("second question");
});

test("--input-format stream-json without a stream output format is a usage error", async () => {
  await using w = await world();
  const { code, stderr } = await w.run(["-p", "--input-format", "stream-json"], { stdin: "" });
  expect(code).toBe(2);
  expect(stderr).toContain("--input-format stream-json needs --output-format stream-json or claude-stream-json");
});

test("--include-partial-messages adds each turn's Anthropic stream events as stream_event lines before its assistant line", async () => {
  await using w = await world();
  await Bun.write(w.path("a.txt"), "hello\n");
  w.fake.script(
    { reply: [{ type: "text", text: "Let me look at the file first." }, { type: "tool_use", id: "toolu_r1", name: "read", input: { path: "a.txt" } }], usage: { input_tokens: 100, output_tokens: 10 } },
    { reply: [{ type: "text", text: "It says hello." }], usage: { input_tokens: 120, output_tokens: 5 } },
  );
  // The command line Claude Code's docs give (--verbose included).
  const { stdout, code } = await w.run(["-p", "what does a.txt say", "--output-format", "claude-stream-json", "--verbose", "--include-partial-messages"]);
  expect(code).toBe(0);
  const lines = parse(stdout);
  const sessionId = lines[0]!.session_id;
  const kinds = lines.map((l) => (l.type === "stream_event" ? `${l.event.type}${l.event.delta?.type ? `/${l.event.delta.type}` : ""}` : l.type));
  const firstTurn = kinds.slice(1, kinds.indexOf("assistant") + 1).filter((k, i, all) => k !== all[i - 1]);
  expect(firstTurn).toEqual([
    "message_start",
    "content_block_start",
    "content_block_delta/text_delta",
    "content_block_stop",
    "content_block_start",
    "content_block_delta/input_json_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "assistant",
  ]);
  expect(kinds.at(-1)).toBe("result");
  const events = lines.filter((l) => l.type === "stream_event");
  for (const line of events) {
    expect(Object.keys(line).sort()).toEqual(["event", "parent_tool_use_id", "session_id", "type", "uuid"]);
    expect(line.session_id).toBe(sessionId);
    expect(line.parent_tool_use_id).toBeNull();
    expect(line.uuid).toMatch(/^[0-9a-f-]{36}$/);
  }
  const [start] = events.map((l) => l.event);
  const assistant = lines.find((l) => l.type === "assistant")!;
  expect(start).toEqual({
    type: "message_start",
    message: { id: assistant.message.id, type: "message", role: "assistant", model: assistant.message.model, content: [], stop_reason: null, stop_sequence: null, usage: expect.any(Object) },
  });
  const blockStarts = events.map((l) => l.event).filter((e) => e.type === "content_block_start");
  expect(blockStarts.slice(0, 2)).toEqual([
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_r1", name: "read", input: {} } },
  ]);
  const json = events.map((l) => l.event).find((e) => e.delta?.type === "input_json_delta")!;
  expect(json.index).toBe(1);
  expect(JSON.parse(json.delta.partial_json)).toEqual({ path: "a.txt" });
  const delta = events.map((l) => l.event).find((e) => e.type === "message_delta")!;
  expect(delta).toEqual({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: expect.objectContaining({ input_tokens: 100, output_tokens: 10 }) });

  // The filters Claude Code's docs give for streaming text, and the result ones, work unchanged.
  expect(await jq('select(.type == "stream_event" and .event.delta.type? == "text_delta") | .event.delta.text', stdout, "-rj")).toBe("Let me look at the file first.It says hello.");
  expect(await jq('select(.type=="result") | .result', stdout)).toBe("It says hello.");
  expect(await jq('select(.type=="result") | .session_id', stdout)).toBe(sessionId);
  expect(await jq('select(.type=="result") | .is_error', stdout)).toBe("false");
});

test("--include-partial-messages without claude-stream-json is a usage error; without the flag no stream_event is printed", async () => {
  await using w = await world();
  const bad = await w.run(["-p", "hi", "--include-partial-messages"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--include-partial-messages needs --output-format claude-stream-json");
  expect(w.fake.requests).toHaveLength(0);
  w.fake.script({ reply: [{ type: "text", text: "ok" }] });
  const { stdout } = await w.run(["-p", "hi", "--output-format", "claude-stream-json"]);
  expect(parse(stdout).filter((l) => l.type === "stream_event")).toEqual([]);
});
