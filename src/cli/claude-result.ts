// The `result` line of `claude-stream-json` (and the object `claude-json` prints), with every key
// Claude Code 2.1.332 puts there and their JSON types (test/fixtures/claude-code/recorded/*/stdout.txt):
// `subtype`, `terminal_reason`, `api_error_status`, `num_turns` and `is_error` as Claude Code sets
// them for each way a run ends. Pure.
import type { ResultStatus, StampedEvent, Usage } from "../app/events.ts";

type ResultOf = Extract<StampedEvent, { type: "result" }>;
export type Denial = { tool_name: string; tool_use_id: string; tool_input: unknown };
/** What the run showed before its result: the model's last stop reason, refused calls, a failed API call. */
export type RunSeen = { stopReason: string | null; denials: readonly Denial[]; apiError?: { status: number; text: string; type: string }; index: number };

export function claudeResult(event: ResultOf, seen: RunSeen, sessionId: string | null = event.session_id): Record<string, unknown> {
  const { subtype, terminal, isError, turns, errors, text } = ending(event, seen);
  const cost = event.cost_usd;
  return {
    type: "result",
    subtype,
    uuid: crypto.randomUUID(),
    session_id: sessionId,
    duration_ms: event.duration_ms,
    duration_api_ms: event.duration_api_ms ?? 0,
    is_error: isError,
    num_turns: turns,
    ...(errors ? { errors } : { result: text }),
    stop_reason: seen.stopReason,
    // rein never makes up a price: null when the model's prices are unknown
    total_cost_usd: cost,
    usage: claudeUsage(event.usage),
    modelUsage: event.model ? { [event.model]: { ...modelUsage(event.usage), costUSD: cost } } : {},
    permission_denials: seen.denials,
    ...(terminal ? { terminal_reason: terminal } : {}),
    api_error_status: seen.apiError?.status ?? null,
    ...(seen.apiError ? { api_error_type: seen.apiError.type } : {}),
    fast_mode_state: "off",
    fast_mode_disabled_reason: "unsupported",
    subagent_stats: { spawned: 0, completed: 0, failed: 0 },
    safety_stops: 0,
    queued_turn_count: 0,
    result_index: seen.index,
    model_usage_since_last_result: {},
  };
}

type Ending = { subtype: string; terminal?: string; isError: boolean; turns: number; errors?: string[]; text: string };

/** How Claude Code words each end of a run. */
function ending(event: ResultOf, seen: RunSeen): Ending {
  const text = event.text;
  if (event.hook_stop) {
    // a UserPromptSubmit block or stop has no terminal_reason in Claude Code; a Stop hook's is its own
    const terminal = event.hook_stop.event === "UserPromptSubmit" ? undefined : event.hook_stop.event === "Stop" ? "stop_hook_prevented" : "hook_stopped";
    return { subtype: "success", ...(terminal ? { terminal } : {}), isError: false, turns: event.turns, text };
  }
  if (seen.apiError) return { subtype: "success", terminal: "api_error", isError: true, turns: event.turns, text: seen.apiError.text };
  switch (event.status) {
    case "success":
      return { subtype: "success", terminal: "completed", isError: false, turns: event.turns, text };
    case "max_turns": {
      if (event.error?.includes("--max-cost")) return { subtype: "error_max_budget_usd", terminal: "max_budget", isError: true, turns: event.turns, errors: [event.error], text };
      // Claude Code counts the turn it refused to start, and says so in its words
      const limit = /after (\d+) turn/.exec(event.error ?? "")?.[1] ?? String(event.turns);
      return { subtype: "error_max_turns", terminal: "max_turns", isError: true, turns: event.turns + 1, errors: [`Reached maximum number of turns (${limit})`], text };
    }
    case "interrupted":
      return { subtype: "error_during_execution", terminal: "aborted", isError: true, turns: event.turns, errors: [event.error ?? "interrupted"], text };
    default:
      return { subtype: "error_during_execution", terminal: statusTerminal(event.status), isError: true, turns: event.turns, errors: [event.error ?? event.status], text };
  }
}

function statusTerminal(status: ResultStatus): string {
  return status === "stopped" ? "hook_stopped" : status === "permission" ? "permission_denied" : "error";
}

/** The result of a run that failed before it had a session, in Claude Code's shape. */
export function claudeSessionlessResult(status: ResultStatus, error: string): string {
  const event = { type: "result", session_id: null, seq: 0, status, text: "", usage: zero(), cost_usd: 0, turns: 0, duration_ms: 0, duration_api_ms: 0, error } as unknown as ResultOf;
  return `${JSON.stringify(claudeResult(event, { stopReason: null, denials: [], index: 0 }))}\n`;
}

export function claudeUsage(usage: Usage) {
  return {
    ...usage,
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard",
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: usage.cache_creation_input_tokens },
    inference_geo: "",
    iterations: [],
    speed: "standard",
    fallback_credit: null,
  };
}

function modelUsage(usage: Usage) {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadInputTokens: usage.cache_read_input_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens,
    webSearchRequests: 0,
  };
}

export function zero(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}
