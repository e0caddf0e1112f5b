// Claude Code's stream-json lines from a real Session's events (the fake model, a real store, a real
// tool): an init line per run, denials counted per run, the API error Claude Code shows as a
// synthetic assistant message, claude-json's single result line, partial stream events sharing the
// message id, and what a subagent's and a background worker's events become.
import { expect, test } from "bun:test";
import * as v from "valibot";
import type { StampedEvent } from "../../../src/app/events.ts";
import { claudeRenderer, isClaudeFormat, type ClaudeInit } from "../../../src/cli/claude-stream.ts";
import { defineTool } from "../../../src/sdk.ts";
import type { Session } from "../../../src/session/session.ts";
import { useKit } from "../../support/session-kit.ts";

const kit = useKit();

const shout = defineTool({
  name: "shout",
  description: "Says the text loudly",
  input: v.object({ text: v.string() }),
  permissions: ({ text }) => [{ permission: "shout", pattern: text, always: [text] }],
  run: ({ text }) => text.toUpperCase(),
});
const INIT: ClaudeInit = { tools: ["bash", "read", "shout"], permissionMode: "accept-edits", version: "9.9.9", mcpServers: ["db"], agents: ["reviewer"], skills: ["greet"], slashCommands: ["review"], plugins: [{ name: "lint", path: "/p/lint" }] };
const rules = [
  { permission: "*", pattern: "*", action: "allow" as const },
  { permission: "shout", pattern: "secret*", action: "deny" as const },
];

type Line = Record<string, any>;
function rendered(session: Session, stream = true, partial = false, init = INIT): Line[] {
  const lines: Line[] = [];
  session.subscribe(claudeRenderer(init, (line) => lines.push(JSON.parse(line) as Line), stream, partial));
  return lines;
}
const kinds = (lines: Line[]) => lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`);
const call = (text: string, id: string) => ({ type: "tool_use" as const, name: "shout", input: { text }, id });
const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });

test("each run starts with its init line; a refusal is counted in its own run's result only", async () => {
  const { session } = kit().create({ rules, tools: [shout] });
  const lines = rendered(session);
  kit().fake.script({ reply: [call("secret plan", "toolu_a")] }, say("refused, sorry"));
  await session.prompt("shout the plan");
  kit().fake.script({ reply: [call("hello", "toolu_b")] }, say("done"));
  await session.prompt("shout hello");
  expect(kinds(lines)).toEqual(["system/init", "assistant", "user", "assistant", "result/success", "system/init", "assistant", "user", "assistant", "result/success"]);
  const results = lines.filter((l) => l.type === "result");
  expect(results[0]!.permission_denials).toEqual([{ tool_name: "shout", tool_use_id: "toolu_a", tool_input: { text: "secret plan" } }]);
  expect(results[1]!.permission_denials).toEqual([]);
  expect(results.map((r) => r.result_index)).toEqual([0, 1]);
  expect(new Set(lines.map((l) => l.session_id))).toEqual(new Set([session.id]));
  // the refused call's line says it was rejected; the run one accepted
  const users = lines.filter((l) => l.type === "user");
  expect(users[0]!.tool_result_meta).toEqual([{ id: "toolu_a", permission_decision: { decision: "reject", source: "config" } }]);
  expect(users[0]!.message.content[0]).toMatchObject({ tool_use_id: "toolu_a", is_error: true });
  expect(users[0]!.tool_use_result).toStartWith("Error: ");
  expect(users[1]!.tool_result_meta[0].permission_decision).toMatchObject({ decision: "accept" });
  expect(users[1]!.message.content[0]).toMatchObject({ tool_use_id: "toolu_b", is_error: false, content: "HELLO" });
});

test("the init line: Claude Code's tool and mode names, the servers pending, the lists given", async () => {
  const { session } = kit().create({ rules, tools: [shout] });
  const lines = rendered(session);
  kit().fake.script(say("hi"));
  await session.prompt("hello");
  const init = lines[0]!;
  expect(init).toMatchObject({
    type: "system",
    subtype: "init",
    cwd: kit().dir.path,
    session_id: session.id,
    tools: ["Bash", "Read", "shout"],
    mcp_servers: [{ name: "db", status: "pending" }],
    permissionMode: "acceptEdits",
    claude_code_version: "9.9.9",
    agents: ["reviewer"],
    skills: ["greet"],
    slash_commands: ["review"],
    plugins: [{ name: "lint", path: "/p/lint", source: "lint" }],
    model: session.model,
  });
  const plain = kit().create({ rules }).session;
  const other = rendered(plain, true, false, { tools: [], permissionMode: "plan", version: "1", mcpServers: [] });
  kit().fake.script(say("hi"));
  await plain.prompt("hello");
  expect(other[0]).toMatchObject({ permissionMode: "plan", agents: [], skills: [], slash_commands: [], plugins: [] });
});

test("one assistant line per content block, sharing the message id; the stop reason only on the result", async () => {
  const { session } = kit().create({ rules, tools: [shout] });
  const lines = rendered(session);
  kit().fake.script({ reply: [{ type: "text", text: "first I shout" }, call("x", "toolu_c")] }, say("ok"));
  await session.prompt("go");
  const assistants = lines.filter((l) => l.type === "assistant");
  expect(assistants.map((a) => a.message.content[0].type)).toEqual(["text", "tool_use", "text"]);
  expect(assistants[0]!.message.id).toBe(assistants[1]!.message.id);
  expect(assistants[1]!.message.id).not.toBe(assistants[2]!.message.id);
  expect(assistants.every((a) => a.message.stop_reason === null && a.parent_tool_use_id === null)).toBe(true);
  expect(lines.at(-1)!.stop_reason).toBe("end_turn");
});

test("claude-json: the result line alone, with what the run refused", async () => {
  const { session } = kit().create({ rules, tools: [shout] });
  const lines = rendered(session, false);
  kit().fake.script({ reply: [call("secret", "toolu_d")] }, say("no"));
  await session.prompt("shout the secret");
  expect(kinds(lines)).toEqual(["result/success"]);
  expect(lines[0]).toMatchObject({ result: "no", is_error: false, num_turns: 2, permission_denials: [{ tool_name: "shout", tool_use_id: "toolu_d" }] });
});

test("an API error is Claude Code's synthetic assistant message, and the result says api_error with the status", async () => {
  const { session } = kit().create({ rules });
  const lines = rendered(session);
  kit().fake.script({ error: 400, body: { type: "error", error: { type: "invalid_request_error", message: "max_tokens: must be at most 4096" } } });
  const outcome = await session.prompt("a bad request");
  expect(outcome.status).toBe("error");
  const synthetic = lines.find((l) => l.type === "assistant")!;
  expect(synthetic).toMatchObject({ is_api_error_message: true, api_error_status: 400, api_error_type: "invalid_request_error", error: "unknown" });
  expect(synthetic.message).toMatchObject({ model: "<synthetic>", stop_reason: "stop_sequence", role: "assistant" });
  expect(synthetic.message.content[0].text).toStartWith("API Error: 400 ");
  const result = lines.at(-1)!;
  expect(result).toMatchObject({ subtype: "success", is_error: true, terminal_reason: "api_error", api_error_status: 400, api_error_type: "invalid_request_error", stop_reason: "stop_sequence" });
  expect(result.result).toBe(synthetic.message.content[0].text);
});

test("a server error after the retries is api_error, a rate limit rate_limit_error", async () => {
  const { session } = kit().create({ rules });
  const lines = rendered(session);
  kit().fake.script({ error: 500 }, { error: 500 }, { error: 500 });
  await session.prompt("try");
  expect(lines.at(-1)).toMatchObject({ api_error_status: 500, api_error_type: "api_error" });
  kit().fake.script({ error: 429 }, { error: 429 }, { error: 429 });
  await session.prompt("again");
  const result = lines.at(-1)!;
  expect(result).toMatchObject({ api_error_status: 429, api_error_type: "rate_limit_error", result_index: 1 });
  expect(lines.filter((l) => l.type === "system").length).toBe(2);
});

test("--include-partial-messages: stream events before each assistant line, with the same message id", async () => {
  const { session } = kit().create({ rules });
  const lines = rendered(session, true, true);
  kit().fake.script({ reply: [{ type: "text", text: "streamed answer" }], chunkSize: 4 });
  await session.prompt("stream it");
  const events = lines.filter((l) => l.type === "stream_event");
  expect(events[0]!.event.type).toBe("message_start");
  expect(events.some((e) => e.event.type === "content_block_delta")).toBe(true);
  expect(events.every((e) => e.session_id === session.id && e.parent_tool_use_id === null)).toBe(true);
  const assistant = lines.find((l) => l.type === "assistant")!;
  expect(assistant.message.id).toBe(events[0]!.event.message.id);
  expect(lines.indexOf(events[0]!)).toBeLessThan(lines.indexOf(assistant));
  // the same run without the flag has none
  const { session: quiet } = kit().create({ rules });
  const plain = rendered(quiet, true, false);
  kit().fake.script(say("plain"));
  await quiet.prompt("no stream");
  expect(plain.some((l) => l.type === "stream_event")).toBe(false);
});

test("a subagent's assistant and tool lines carry its parent call and id; its other events are left out", () => {
  const lines: Line[] = [];
  const render = claudeRenderer({ tools: [], permissionMode: "default", version: "1", mcpServers: [] }, (line) => lines.push(JSON.parse(line) as Line), true);
  const usage = { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const events = [
    { type: "session", session_id: "s_main", seq: 1, id: "s_main", cwd: "/w", model: "m", version: "1" },
    { type: "session", session_id: "s_child", seq: 1, id: "s_child", cwd: "/w/child", model: "m", version: "1", parent_tool_use_id: "toolu_task" },
    { type: "user", session_id: "s_child", seq: 2, text: "do it", parent_tool_use_id: "toolu_task" },
    { type: "assistant", session_id: "s_child", seq: 3, content: [{ type: "tool_use", id: "toolu_x", name: "read", input: { path: "a.txt" } }], stop_reason: "tool_use", usage, model: "m", parent_tool_use_id: "toolu_task" },
    { type: "tool_end", session_id: "s_child", seq: 4, id: "toolu_x", name: "read", is_error: false, output: "text", truncated: false, parent_tool_use_id: "toolu_task" },
    { type: "result", session_id: "s_child", seq: 5, status: "success", text: "child done", usage, cost_usd: null, turns: 1, duration_ms: 1, parent_tool_use_id: "toolu_task" },
  ] as unknown as StampedEvent[];
  for (const event of events) render(event);
  expect(kinds(lines)).toEqual(["system/init", "assistant", "user"]);
  expect(lines[0]).toMatchObject({ session_id: "s_main", cwd: "/w" });
  for (const line of lines.slice(1)) expect(line).toMatchObject({ session_id: "s_main", agent_id: "s_child", parent_tool_use_id: "toolu_task" });
  // Claude Code's names and input fields, the path made absolute from the main session's folder
  expect(lines[1]!.message.content[0]).toMatchObject({ type: "tool_use", name: "Read", input: { file_path: "/w/a.txt" } });
});

test("a background worker's end is a task_notification line with its total tokens", () => {
  const lines: Line[] = [];
  const render = claudeRenderer({ tools: [], permissionMode: "default", version: "1", mcpServers: [] }, (line) => lines.push(JSON.parse(line) as Line), true);
  render({ type: "session", session_id: "s_main", seq: 1, id: "s_main", cwd: "/w", model: "m", version: "1" } as StampedEvent);
  const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 1 };
  render({ type: "task_notification", session_id: "s_main", seq: 2, task_id: "s_worker", tool_use_id: "toolu_w", status: "completed", summary: "wrote the tests", usage, cost_usd: null, duration_ms: 4200 } as StampedEvent);
  expect(lines.at(-1)).toMatchObject({ type: "system", subtype: "task_notification", task_id: "s_worker", tool_use_id: "toolu_w", status: "completed", summary: "wrote the tests", usage: { total_tokens: 116, duration_ms: 4200 }, session_id: "s_main" });
  const quiet: Line[] = [];
  claudeRenderer({ tools: [], permissionMode: "default", version: "1", mcpServers: [] }, (line) => quiet.push(JSON.parse(line) as Line), false)({ type: "task_notification", session_id: "s", seq: 1, task_id: "t", tool_use_id: "u", status: "failed", summary: "", usage, cost_usd: null, duration_ms: 1 } as StampedEvent);
  expect(quiet).toEqual([]);
});

test("the two Claude formats, and no others", () => {
  expect(["claude-stream-json", "claude-json", "stream-json", "json", "text"].filter(isClaudeFormat)).toEqual(["claude-stream-json", "claude-json"]);
});
