// The `result` of claude-stream-json and claude-json: how each way a run ends is worded in Claude
// Code's keys (subtype, terminal_reason, is_error, num_turns, errors), checked against the results
// Claude Code 2.1.332 printed (test/fixtures/claude-code/recorded/*/stdout.txt) where one was recorded.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { StampedEvent } from "../../../src/app/events.ts";
import { claudeResult, claudeSessionlessResult, claudeUsage, type RunSeen } from "../../../src/cli/claude-result.ts";

type ResultEvent = Extract<StampedEvent, { type: "result" }>;
const usage = { input_tokens: 120, output_tokens: 30, cache_read_input_tokens: 7, cache_creation_input_tokens: 5 };
const result = (over: Partial<ResultEvent> = {}): ResultEvent =>
  ({ type: "result", session_id: "s_1", seq: 9, status: "success", text: "done", usage, cost_usd: 0.25, turns: 2, duration_ms: 900, duration_api_ms: 600, model: "claude-opus-5-5", ...over }) as ResultEvent;
const seen: RunSeen = { stopReason: "end_turn", denials: [], index: 0 };
const ending = (r: Record<string, unknown>) => ({ subtype: r.subtype, terminal_reason: r.terminal_reason, is_error: r.is_error, num_turns: r.num_turns, errors: r.errors, result: r.result });

const RECORDED = join(import.meta.dir, "../../fixtures/claude-code/recorded");
function recorded(name: string): Record<string, unknown> {
  const line = readFileSync(join(RECORDED, name, "stdout.txt"), "utf8").trim().split("\n").reverse().find((l) => l.includes('"type":"result"'))!;
  return JSON.parse(line) as Record<string, unknown>;
}

describe("each ending as Claude Code words it", () => {
  test("success: completed, the text as result, no errors", () => {
    const r = claudeResult(result(), seen);
    expect(ending(r)).toEqual({ subtype: "success", terminal_reason: "completed", is_error: false, num_turns: 2, errors: undefined, result: "done" });
    const cc = recorded("bash-ok");
    expect([cc.subtype, cc.terminal_reason, cc.is_error]).toEqual([r.subtype, r.terminal_reason, r.is_error]);
  });

  test("max turns: Claude Code counts the turn it refused and names the limit from the error", () => {
    const r = claudeResult(result({ status: "max_turns", turns: 1, error: "stopped after 1 turn (--max-turns 1)" }), seen);
    const cc = recorded("max-turns");
    expect(ending(r)).toEqual({ subtype: cc.subtype, terminal_reason: cc.terminal_reason, is_error: cc.is_error, num_turns: cc.num_turns, errors: cc.errors, result: undefined });
    // without the limit in the error, the turns run are the limit
    expect(claudeResult(result({ status: "max_turns", turns: 4, error: "stopped" }), seen).errors).toEqual(["Reached maximum number of turns (4)"]);
  });

  test("a spent cost budget is error_max_budget_usd with rein's own line", () => {
    const r = claudeResult(result({ status: "max_turns", turns: 3, error: "stopped: this run spent $0.51 of its --max-cost 0.5" }), seen);
    expect(ending(r)).toEqual({ subtype: "error_max_budget_usd", terminal_reason: "max_budget", is_error: true, num_turns: 3, errors: ["stopped: this run spent $0.51 of its --max-cost 0.5"], result: undefined });
  });

  test("an API error: success with is_error, the API's text as result and its status", () => {
    const r = claudeResult(result({ status: "error", error: "the API said no" }), { ...seen, apiError: { status: 400, text: "API Error: 400 bad", type: "invalid_request_error" } });
    const cc = recorded("api-error");
    expect([r.subtype, r.terminal_reason, r.is_error, r.api_error_status]).toEqual([cc.subtype, cc.terminal_reason, cc.is_error, cc.api_error_status]);
    expect(r.result).toBe("API Error: 400 bad");
    expect(r.api_error_type).toBe("invalid_request_error");
    expect(claudeResult(result(), seen).api_error_status).toBeNull();
    expect(claudeResult(result(), seen)).not.toHaveProperty("api_error_type");
  });

  test("hooks that stop the run: a prompt block has no terminal reason, a Stop hook prevents, others stop", () => {
    const prompt = claudeResult(result({ turns: 0, hook_stop: { event: "UserPromptSubmit", reason: "no" } }), seen);
    const cc = recorded("prompt-block");
    expect([prompt.subtype, prompt.is_error, prompt.num_turns]).toEqual([cc.subtype, cc.is_error, cc.num_turns]);
    expect(prompt).not.toHaveProperty("terminal_reason");
    expect(cc).not.toHaveProperty("terminal_reason");
    const stop = claudeResult(result({ turns: 1, hook_stop: { event: "Stop", reason: "halt" } }), seen);
    expect(stop.terminal_reason).toBe(recorded("continue-false-stop").terminal_reason as string);
    const tool = claudeResult(result({ turns: 2, hook_stop: { event: "PostToolUse", reason: "halt" } }), seen);
    expect(tool.terminal_reason).toBe(recorded("continue-false").terminal_reason as string);
    expect(tool.is_error).toBe(false);
  });

  test("interrupted, refused and failed runs are errors during execution with their own reasons", () => {
    expect(ending(claudeResult(result({ status: "interrupted" }), seen))).toMatchObject({ subtype: "error_during_execution", terminal_reason: "aborted", is_error: true, errors: ["interrupted"] });
    expect(ending(claudeResult(result({ status: "permission", error: "bash was refused" }), seen))).toMatchObject({ terminal_reason: "permission_denied", errors: ["bash was refused"] });
    expect(ending(claudeResult(result({ status: "stopped" }), seen))).toMatchObject({ terminal_reason: "hook_stopped", errors: ["stopped"] });
    expect(ending(claudeResult(result({ status: "error", error: "boom" }), seen))).toMatchObject({ terminal_reason: "error", errors: ["boom"] });
  });
});

describe("the other keys", () => {
  test("cost stays null for a model without prices, in total and per model", () => {
    const r = claudeResult(result({ cost_usd: null }), seen);
    expect(r.total_cost_usd).toBeNull();
    expect(r.modelUsage).toEqual({ "claude-opus-5-5": { inputTokens: 120, outputTokens: 30, cacheReadInputTokens: 7, cacheCreationInputTokens: 5, webSearchRequests: 0, costUSD: null } });
    expect(claudeResult(result({ model: undefined }), seen).modelUsage).toEqual({});
  });

  test("what the run saw is carried: its stop reason, the refused calls, the result's index, the session", () => {
    const denial = { tool_name: "Bash", tool_use_id: "toolu_1", tool_input: { command: "rm -rf /" } };
    const r = claudeResult(result(), { stopReason: "tool_use", denials: [denial], index: 3 }, "uuid-of-session");
    expect(r).toMatchObject({ stop_reason: "tool_use", permission_denials: [denial], result_index: 3, session_id: "uuid-of-session", duration_ms: 900, duration_api_ms: 600 });
    expect(claudeResult(result({ duration_api_ms: undefined }), seen).duration_api_ms).toBe(0);
    expect(claudeResult(result(), seen).session_id).toBe("s_1");
  });

  test("every key Claude Code prints in a result is there, with the same JSON type", () => {
    const ours = claudeResult(result(), seen);
    const theirs = recorded("bash-ok");
    const type = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
    // what only some endings carry, and the timings rein does not measure (the conformance test's gaps)
    const absent = new Set(["result", "errors", "api_error_type", "ttft_ms", "ttft_stream_ms", "time_to_request_ms", "first_content_frame_ms", "memory_paths"]);
    for (const [key, value] of Object.entries(theirs)) {
      if (absent.has(key)) continue;
      expect([key, type(ours[key])]).toEqual([key, type(value)]);
    }
    expect(Object.keys(claudeUsage(usage)).sort()).toEqual(Object.keys(theirs.usage as object).sort());
  });

  test("each result has its own uuid", () => {
    expect(claudeResult(result(), seen).uuid).not.toBe(claudeResult(result(), seen).uuid);
    expect(claudeResult(result(), seen).uuid).toMatch(/^[0-9a-f-]{36}$/);
  });
});

test("a run that failed before its session is one result line with a null session", () => {
  const line = claudeSessionlessResult("error", "no API key for provider anthropic");
  expect(line.endsWith("}\n")).toBe(true);
  expect(line.trim().split("\n")).toHaveLength(1);
  expect(JSON.parse(line)).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, session_id: null, num_turns: 0, errors: ["no API key for provider anthropic"], total_cost_usd: 0 });
});

test("the recordings this test reads are there", () => {
  expect(readdirSync(RECORDED)).toEqual(expect.arrayContaining(["bash-ok", "max-turns", "api-error", "prompt-block", "continue-false", "continue-false-stop"]));
});
