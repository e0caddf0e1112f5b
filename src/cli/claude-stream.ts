// Claude Code's headless output shape (`claude -p --output-format stream-json --verbose`), line for
// line as Claude Code 2.1.332 prints it (test/fixtures/claude-code/recorded/*/stdout.txt), for
// scripts and CI jobs written against it: a `system`/`init` line at the start of each run,
// `assistant` lines (one per content block, Claude Code's tool names and input fields), `user` lines
// with each tool result (`tool_use_result` structured), and last a `result` line (claude-result.ts).
// `claude-json` prints that result alone. Built from rein's session events; pure but for `write`.
import type { StampedEvent } from "../app/events.ts";
import { claudeContent, claudeInputOf, claudeName, claudeResponse } from "../app/claude-dialect.ts";
import { claudeResult, claudeUsage, zero, type Denial, type RunSeen } from "./claude-result.ts";
import { streamEvents } from "./claude-stream-events.ts";

export { claudeSessionlessResult } from "./claude-result.ts";

export type ClaudeInit = {
  /** rein's tool names (they are shown by Claude Code's) */
  tools: readonly string[];
  permissionMode: string;
  version: string;
  mcpServers: readonly string[];
  agents?: readonly string[];
  skills?: readonly string[];
  slashCommands?: readonly string[];
  plugins?: readonly { name: string; path: string }[];
};

export { CLAUDE_FORMATS, isClaudeFormat } from "./claude-format.ts";

const MODES: Readonly<Record<string, string>> = { "accept-edits": "acceptEdits" };

/** A listener for the session's events; `stream` false keeps only the result line; `partial` adds the `stream_event` lines. */
export function claudeRenderer(init: ClaudeInit, write: (line: string) => void, stream: boolean, partial = false): (event: StampedEvent) => void {
  const inputs = new Map<string, { name: string; input: unknown }>();
  let denials: Denial[] = [];
  let stopReason: string | null = null;
  let apiError: RunSeen["apiError"];
  let results = 0;
  let session: Extract<StampedEvent, { type: "session" }> | undefined;
  let initDue = true;
  const emit = (line: Record<string, unknown>) => write(JSON.stringify(line));
  const partials = stream && partial ? streamEvents() : undefined;
  const mode = MODES[init.permissionMode] ?? init.permissionMode;
  const initLine = (main: NonNullable<typeof session>) => ({
    type: "system",
    subtype: "init",
    cwd: main.cwd,
    session_id: main.id,
    tools: init.tools.map(claudeName),
    mcp_servers: init.mcpServers.map((name) => ({ name, status: "pending" })),
    model: main.model,
    permissionMode: mode,
    slash_commands: init.slashCommands ?? [],
    terminal_slash_commands: [],
    apiKeySource: "environment",
    claude_code_version: init.version,
    output_style: "default",
    agents: init.agents ?? [],
    skills: init.skills ?? [],
    plugins: (init.plugins ?? []).map((p) => ({ name: p.name, path: p.path, source: p.name })),
    capabilities: [],
    analytics_disabled: true,
    product_feedback_disabled: true,
    served_by_anthropic: false,
    uuid: crypto.randomUUID(),
    sandbox_enabled: false,
    memory_paths: {},
    original_cwd: main.cwd,
    additional_directories: [],
    messaging_socket_path: "",
    fast_mode_state: "off",
    fast_mode_disabled_reason: "unsupported",
    per_turn_effort_active: false,
    ultrathink_available: false,
    ultrathink_typed_raises: false,
    view_mode: "default",
  });
  return (event) => {
    const parent = event.parent_tool_use_id ?? null;
    if (event.type === "session" && !parent) session ??= event;
    // Every line names the main session, as Claude Code's do; a subagent's lines add its own id.
    const sessionId = session?.id ?? event.session_id;
    const base = { session_id: sessionId, uuid: crypto.randomUUID(), timestamp: new Date().toISOString(), ...(parent ? { agent_id: event.session_id } : {}) };
    if (parent && event.type !== "assistant" && event.type !== "tool_end") return;
    // Claude Code starts each run (each prompt of --input-format stream-json) with its init line.
    if (stream && initDue && session && event.type !== "result") {
      initDue = false;
      emit(initLine(session));
    }
    if (partials && !parent) {
      for (const raw of partials.of(event)) emit({ type: "stream_event", uuid: crypto.randomUUID(), session_id: sessionId, event: raw, parent_tool_use_id: null });
    }
    switch (event.type) {
      case "assistant": {
        if (!parent) stopReason = event.stop_reason;
        for (const block of event.content) if (block.type === "tool_use") inputs.set(String(block.id), { name: String(block.name), input: block.input });
        if (!stream) return;
        const id = (!parent && partials?.messageId()) || `msg_${event.session_id}_${event.seq}`;
        const usage = { input_tokens: event.usage.input_tokens, output_tokens: event.usage.output_tokens };
        // One line per content block, as Claude Code prints them; the stop reason is on the result.
        for (const block of claudeContent(event.content, session?.cwd ?? "/")) {
          const message = { id, type: "message", role: "assistant", model: event.model, content: [block], stop_reason: null, stop_sequence: null, usage, context_management: null };
          emit({ type: "assistant", message, parent_tool_use_id: parent, ...base, uuid: crypto.randomUUID(), request_id: `req_${event.session_id}_${event.seq}` });
        }
        return;
      }
      case "error":
        if (parent || event.status === undefined) return;
        stopReason = "stop_sequence"; // the stop of Claude Code's synthetic error message
        apiError = { status: event.status, text: `API Error: ${event.status} ${event.message}`, type: event.status === 429 ? "rate_limit_error" : event.status >= 500 ? "api_error" : "invalid_request_error" };
        if (stream) {
          const message = { diagnostics: null, id: crypto.randomUUID(), container: null, model: "<synthetic>", stop_details: null, role: "assistant", stop_reason: "stop_sequence", stop_sequence: "", type: "message", usage: { ...claudeUsage(zero()) }, content: [{ type: "text", text: apiError.text }], context_management: null };
          emit({ type: "assistant", message, parent_tool_use_id: null, ...base, request_id: `req_${event.session_id}_${event.seq}`, error: "unknown", is_api_error_message: true, api_error_status: apiError.status, api_error_type: apiError.type });
        }
        return;
      case "tool_end": {
        const call = inputs.get(event.id);
        const name = call?.name ?? event.name;
        const input = claudeInputOf(name, call?.input, session?.cwd ?? "/");
        if (event.refused && !parent) denials.push({ tool_name: claudeName(name), tool_use_id: event.id, tool_input: input });
        if (!stream) return;
        const result = { tool_use_id: event.id, type: "tool_result", content: event.output, is_error: event.is_error };
        const toolUseResult = event.is_error ? `Error: ${event.output}` : claudeResponse(name, input, { output: event.output, isError: false, ...(event.metadata ? { metadata: event.metadata } : {}) });
        const meta = [{ id: event.id, permission_decision: event.refused ? { decision: "reject", source: "config" } : { decision: "accept", source: "config", reason_type: "rule" } }];
        emit({ type: "user", message: { role: "user", content: [result] }, parent_tool_use_id: parent, ...base, tool_use_result: toolUseResult, tool_result_meta: meta });
        return;
      }
      case "task_notification":
        // A background worker ended (Claude Code's system/task_notification line).
        if (stream) {
          const { task_id, tool_use_id, status, summary } = event;
          const total = event.usage.input_tokens + event.usage.output_tokens + event.usage.cache_read_input_tokens + event.usage.cache_creation_input_tokens;
          emit({ type: "system", subtype: "task_notification", task_id, tool_use_id, status, summary, usage: { total_tokens: total, duration_ms: event.duration_ms }, session_id: sessionId, uuid: crypto.randomUUID() });
        }
        return;
      case "result":
        emit(claudeResult(event, { stopReason, denials, ...(apiError ? { apiError } : {}), index: results++ }, sessionId));
        // the next run (--input-format stream-json) starts afresh
        denials = [];
        stopReason = null;
        apiError = undefined;
        initDue = true;
        return;
    }
  };
}
