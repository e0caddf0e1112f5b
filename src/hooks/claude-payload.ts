// The stdin payload of a hook from Claude Code's files (settings, plugins' hooks.json), as Claude
// Code 2.1.332 sends it (test/fixtures/claude-code/recorded/*/hook-*.json): its common fields in its
// order (`prompt_id`, `effort`, ...), its tool names and input fields, the structured
// `tool_response` per tool, and each event's own fields (`is_interrupt`, `background_tasks`,
// `permission_suggestions`, ...).
import { claudeName, claudeResponse, inputFor } from "./dialect.ts";
import type { Fired, HookContext } from "./engine.ts";

/** rein's permission modes by Claude Code's names */
const MODES: Readonly<Record<string, string>> = { "accept-edits": "acceptEdits" };
/** Events Claude Code sends without `permission_mode` and `effort` */
const BARE: ReadonlySet<string> = new Set(["SessionStart", "SessionEnd", "SubagentStart", "Notification", "PreCompact", "PostCompact", "WorktreeCreate", "WorktreeRemove"]);
/** Events Claude Code sends with `permission_mode` but without `effort` (they come from no model turn) */
const NO_EFFORT: ReadonlySet<string> = new Set(["UserPromptSubmit", "TaskCreated", "TaskCompleted", "TeammateIdle"]);
const EDIT_TOOLS: ReadonlySet<string> = new Set(["edit", "write"]);

type Ctx = Pick<HookContext, "sessionId" | "transcriptPath" | "claudeTranscriptPath" | "cwd" | "permissionMode" | "subagent" | "promptId" | "effort">;

export function claudePayload(fired: Fired, ctx: Ctx): Record<string, unknown> {
  const event = fired.event;
  const bare = BARE.has(event);
  const tool = fired.tool;
  const input = tool && fired.input !== undefined ? (inputFor(tool, fired.input, "claude", ctx.cwd, fired.raw) as Record<string, unknown>) : undefined;
  const end = fired.end;
  return {
    session_id: ctx.sessionId,
    transcript_path: ctx.claudeTranscriptPath ?? ctx.transcriptPath,
    cwd: ctx.cwd,
    ...(event !== "SessionStart" && ctx.promptId ? { prompt_id: ctx.promptId() } : {}),
    ...(bare ? {} : { permission_mode: MODES[ctx.permissionMode] ?? ctx.permissionMode }),
    ...(ctx.subagent ? { agent_id: ctx.subagent.agentId, agent_type: ctx.subagent.agentType } : {}),
    ...(bare || NO_EFFORT.has(event) ? {} : { effort: { level: ctx.effort ?? "medium" } }),
    hook_event_name: event,
    ...(tool ? { tool_name: claudeName(tool) } : {}),
    ...(input ? { tool_input: input } : {}),
    ...(end && !end.isError && tool ? { tool_response: claudeResponse(tool, input ?? {}, end) } : {}),
    ...(fired.toolUseId ? { tool_use_id: fired.toolUseId } : {}),
    ...(end?.isError ? { error: end.output, is_interrupt: /^Interrupted by the user|\[killed: interrupted\]/.test(end.output) } : {}),
    ...(end ? { duration_ms: Math.round(end.durationMs) } : {}),
    ...(event === "PermissionRequest" && tool ? { permission_suggestions: suggestions(tool, input) } : {}),
    ...fired.fields,
    ...(event === "SubagentStop" && ctx.subagent?.claudeTranscriptPath ? { agent_transcript_path: ctx.subagent.claudeTranscriptPath } : {}),
    ...(event === "Stop" || event === "SubagentStop" ? { background_tasks: [], session_crons: [] } : {}),
  };
}

/** What Claude Code offers to remember for an ask: accept-edits mode for file changes, else a rule for the call. */
function suggestions(tool: string, input: Record<string, unknown> | undefined): unknown[] {
  if (EDIT_TOOLS.has(tool)) return [{ type: "setMode", mode: "acceptEdits", destination: "session" }];
  const content = tool === "bash" && typeof input?.command === "string" ? input.command : undefined;
  return [{ type: "addRules", rules: [{ toolName: claudeName(tool), ...(content ? { ruleContent: content } : {}) }], behavior: "allow", destination: "localSettings" }];
}
