// Claude Code's headless output shape (`claude -p --output-format stream-json`), for scripts and CI
// jobs written against it: a `system`/`init` line, `assistant` lines with Anthropic-shaped messages,
// `user` lines with each tool result, and last a `result` line with Claude Code's field names.
// `claude-json` prints that result alone. Built from rein's session events; pure but for `write`.
import type { ResultStatus, StampedEvent, Usage } from "../session/events.ts";
import { streamEvents } from "./claude-stream-events.ts";

export type ClaudeInit = { tools: readonly string[]; permissionMode: string; version: string; mcpServers: readonly string[] };
type ResultOf = Extract<StampedEvent, { type: "result" }>;
type Denial = { tool_name: string; tool_use_id: string; tool_input: unknown };

export const CLAUDE_FORMATS = ["claude-stream-json", "claude-json"] as const;
export const isClaudeFormat = (format: string): format is (typeof CLAUDE_FORMATS)[number] => (CLAUDE_FORMATS as readonly string[]).includes(format);

/** A listener for the session's events; `stream` false keeps only the result line; `partial` adds the `stream_event` lines. */
export function claudeRenderer(init: ClaudeInit, write: (line: string) => void, stream: boolean, partial = false): (event: StampedEvent) => void {
  const inputs = new Map<string, { name: string; input: unknown }>();
  const denials: Denial[] = [];
  const asks = new Map<string, string>();
  let stopReason: string | null = null;
  const emit = (line: Record<string, unknown>) => write(JSON.stringify(line));
  const partials = stream && partial ? streamEvents() : undefined;
  return (event) => {
    const base = { uuid: crypto.randomUUID(), session_id: event.session_id };
    // A subagent's events: its messages carry the task call's id, as Claude Code's do; its start and end are its own.
    const parent = event.parent_tool_use_id ?? null;
    if (parent && event.type !== "assistant" && event.type !== "tool_end") return;
    if (partials && !parent) {
      for (const raw of partials.of(event)) emit({ type: "stream_event", uuid: crypto.randomUUID(), session_id: event.session_id, event: raw, parent_tool_use_id: null });
    }
    switch (event.type) {
      case "session":
        if (stream) {
          emit({
            type: "system",
            subtype: "init",
            ...base,
            cwd: event.cwd,
            model: event.model,
            tools: init.tools,
            mcp_servers: init.mcpServers.map((name) => ({ name, status: "pending" })),
            permissionMode: init.permissionMode,
            slash_commands: [],
            apiKeySource: "environment",
            claude_code_version: init.version,
            output_style: "default",
            agents: [],
            skills: [],
            plugins: [],
          });
        }
        return;
      case "assistant":
        if (!parent) stopReason = event.stop_reason;
        for (const block of event.content) if (block.type === "tool_use") inputs.set(String(block.id), { name: String(block.name), input: block.input });
        if (stream) {
          const id = (!parent && partials?.messageId()) || `msg_${event.seq}`;
          const message = { id, type: "message", role: "assistant", model: event.model, content: event.content, stop_reason: event.stop_reason, stop_sequence: null, usage: event.usage };
          emit({ type: "assistant", ...base, message, parent_tool_use_id: parent });
        }
        return;
      case "permission_ask":
        asks.set(event.id, event.tool_use_id);
        return;
      case "permission_reply": {
        const id = asks.get(event.id);
        const call = id ? inputs.get(id) : undefined;
        if (event.reply === "reject" && id && call) denials.push({ tool_name: call.name, tool_use_id: id, tool_input: call.input });
        return;
      }
      case "tool_end":
        if (stream) {
          const result = { type: "tool_result", tool_use_id: event.id, content: event.output, is_error: event.is_error };
          emit({ type: "user", ...base, message: { role: "user", content: [result] }, parent_tool_use_id: parent, tool_use_result: event.output });
        }
        return;
      case "result":
        emit(claudeResult(event, stopReason, denials));
        return;
    }
  };
}

export function claudeResult(event: ResultOf, stopReason: string | null, denials: readonly Denial[]): Record<string, unknown> {
  const subtype = subtypeOf(event.status, event.error);
  const failed = subtype !== "success";
  return {
    type: "result",
    subtype,
    uuid: crypto.randomUUID(),
    session_id: event.session_id,
    duration_ms: event.duration_ms,
    duration_api_ms: event.duration_ms,
    is_error: failed,
    num_turns: event.turns,
    ...(failed ? { errors: [event.error ?? event.status] } : { result: event.text }),
    stop_reason: stopReason,
    // rein never makes up a price: null when the model's prices are unknown
    total_cost_usd: event.cost_usd,
    usage: claudeUsage(event.usage),
    modelUsage: event.model ? { [event.model]: { ...modelUsage(event.usage), costUSD: event.cost_usd } } : {},
    permission_denials: denials,
  };
}

/** The result of a run that failed before it had a session, in Claude Code's shape. */
export function claudeSessionlessResult(status: ResultStatus, error: string): string {
  const event = { type: "result", session_id: null, seq: 0, status, text: "", usage: zero(), cost_usd: 0, turns: 0, duration_ms: 0, error } as unknown as ResultOf;
  return `${JSON.stringify(claudeResult(event, null, []))}\n`;
}

function subtypeOf(status: ResultStatus, error: string | undefined): string {
  if (status === "success") return "success";
  if (status === "max_turns") return error?.includes("--max-cost") ? "error_max_budget_usd" : "error_max_turns";
  return "error_during_execution";
}

function claudeUsage(usage: Usage) {
  return { ...usage, server_tool_use: { web_search_requests: 0 }, service_tier: "standard" };
}

function modelUsage(usage: Usage) {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadInputTokens: usage.cache_read_input_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens,
  };
}

function zero(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}
