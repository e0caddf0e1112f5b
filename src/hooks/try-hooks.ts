// `rein hooks test`: fires one event on a made-up payload, exactly as a session would, and returns
// every hook run with the merged decision.
import type { AgentEvent } from "../agent/types.ts";
import { HOOK_EVENTS, type HookEvent } from "../config/hooks-schema.ts";
import { reinToolName } from "../permission/tool-names.ts";
import { fire, type Fired, type HookContext, type HookRunEvent } from "./engine.ts";
import type { Merged } from "./merge.ts";
import type { HookEntry } from "./sources.ts";

const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

export type TryInput = { event: string; tool?: string; input?: unknown; cwd: string; projectDir: string; env: Readonly<Record<string, string>> };
export type Tried = { runs: Extract<HookRunEvent, { type: "hook_end" }>[]; merged: Merged | undefined } | { problem: string };

export async function tryHooks(entries: readonly HookEntry[], input: TryInput): Promise<Tried> {
  const event = HOOK_EVENTS.find((e) => e === input.event);
  if (!event) return { problem: `unknown hook event "${input.event}" (rein runs ${HOOK_EVENTS.join(", ")})` };
  if (TOOL_EVENTS.has(event) && !input.tool) return { problem: `${event} is about a tool call: give one with --tool NAME (e.g. --tool Bash --input '{"command":"ls"}')` };
  // Either vocabulary names a built-in tool; the payload is built from rein's name.
  const tool = input.tool && reinToolName(input.tool);
  const runs: Extract<HookRunEvent, { type: "hook_end" }>[] = [];
  let n = 0;
  const ctx: HookContext = {
    sessionId: "hooks-test",
    cwd: input.cwd,
    projectDir: input.projectDir,
    transcriptPath: "",
    permissionMode: "default",
    env: input.env,
    emit: (e: AgentEvent | HookRunEvent) => void (e.type === "hook_end" && runs.push(e)),
    newId: () => `hook_test_${++n}`,
  };
  const fields = sampleFields(event);
  const merged = await fire(entries, { event, ...(tool ? { tool, input: input.input ?? {}, toolUseId: "toolu_hooks_test" } : {}), ...(fields.match !== undefined ? { match: fields.match } : {}), ...(fields.end ? { end: fields.end } : {}), fields: fields.payload }, ctx, new AbortController().signal);
  return { runs, merged };
}

/** What the made-up payload carries for each event besides the tool. */
function sampleFields(event: HookEvent): { match?: string; payload: Record<string, unknown>; end?: Fired["end"] } {
  switch (event) {
    case "SessionStart":
      return { match: "startup", payload: { source: "startup" } };
    case "SessionEnd":
      return { match: "other", payload: { reason: "other" } };
    case "UserPromptSubmit":
      return { payload: { prompt: "a test prompt from rein hooks test" } };
    case "UserPromptExpansion":
      return { match: "test-command", payload: { expansion_type: "slash_command", command_name: "test-command", command_args: "", command_source: "user", prompt: "/test-command" } };
    case "PostToolUse":
      return { payload: {}, end: { output: "", isError: false, durationMs: 0 } };
    case "PostToolUseFailure":
      return { payload: {}, end: { output: "a made-up failure", isError: true, durationMs: 0 } };
    case "Stop":
      return { payload: { stop_hook_active: false, last_assistant_message: "" } };
    case "PreCompact":
      return { match: "manual", payload: { trigger: "manual", custom_instructions: "" } };
    case "PostCompact":
      return { match: "manual", payload: { trigger: "manual", compact_summary: "" } };
    case "SubagentStart":
      return { match: "explore", payload: { agent_id: "s_hooks_test_child", agent_type: "explore" } };
    case "SubagentStop":
      return { match: "explore", payload: { agent_id: "s_hooks_test_child", agent_type: "explore", stop_hook_active: false, last_assistant_message: "", agent_transcript_path: "" } };
    case "TaskCreated":
    case "TaskCompleted":
      return { payload: { task_id: "1", task_subject: "a made-up task", task_description: "made up by rein hooks test", team_name: "hooks-test" } };
    case "TeammateIdle":
      return { payload: { teammate_name: "worker", team_name: "hooks-test" } };
    case "WorktreeCreate":
      return { payload: { name: "hooks-test" } };
    case "WorktreeRemove":
      return { payload: { worktree_path: "/tmp/hooks-test-worktree" } };
    case "Notification":
      return { match: "idle_prompt", payload: { notification_type: "idle_prompt", message: "rein is waiting for your input" } };
    default:
      return { payload: {} };
  }
}
