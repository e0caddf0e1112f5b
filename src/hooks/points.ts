// The hooks as the session's seams: the call chain around tool calls and the stop, and the points
// before a prompt, at session start and end, and around compaction. Text written here is what the
// model reads, so it says that a hook (the user's configuration), not the user, decided.
import type { CallChain } from "../agent/types.ts";
import { fire, type HookContext } from "./engine.ts";
import type { HookEntry } from "./sources.ts";

export type HookPoints = {
  chain: CallChain;
  /** before a prompt is sent: a block refuses it (the reason is for the user); context goes beside it */
  beforePrompt: (prompt: string, signal: AbortSignal) => Promise<{ block?: string; context?: string }>;
  sessionStart: (source: "startup" | "resume" | "clear" | "compact", signal: AbortSignal) => Promise<{ context?: string }>;
  sessionEnd: (reason: string, signal: AbortSignal) => Promise<void>;
  beforeCompact: (trigger: "manual" | "auto", instructions: string, signal: AbortSignal) => Promise<{ block?: string }>;
  afterCompact: (trigger: "manual" | "auto", summary: string, signal: AbortSignal) => Promise<void>;
  notify: (type: "permission_prompt" | "idle_prompt", message: string) => Promise<void>;
  /**
   * Before a person is asked: PermissionRequest hooks may answer for them. An allow is refused
   * when the ask holds a request fixed before any rule (a sensitive path): only a person grants that.
   */
  permissionRequest: (ask: { tool: string; input: unknown; fixed: boolean }, signal: AbortSignal) => Promise<{ allow: boolean; message?: string } | undefined>;
};

export function hookPoints(entries: readonly HookEntry[], ctx: HookContext): HookPoints {
  const has = (event: HookEntry["event"]) => entries.some((e) => e.active && e.event === event);
  const chain: CallChain = {};
  if (has("PreToolUse")) {
    chain.beforeToolCall = async (call, signal) => {
      const merged = await fire(entries, { event: "PreToolUse", tool: call.name, input: call.input, toolUseId: call.id }, ctx, signal);
      if (!merged) return undefined;
      const context = merged.context ? contextNote("PreToolUse", merged.context) : undefined;
      const stop = merged.stop ? `A PreToolUse hook configured by the user stopped this call: ${merged.stop}` : undefined;
      if (stop || merged.decision === "deny") {
        const why = stop ?? `A PreToolUse hook configured by the user (not the user's answer) blocked this call: ${merged.reason ?? "no reason given"}`;
        return { block: `${why}\nThe call did not run. Do not retry it unchanged; adjust it to what the hook asks, or carry on another way.`, ...(context ? { context } : {}) };
      }
      return {
        ...(merged.decision === "ask" ? { ask: `a hook asks for confirmation: ${merged.reason ?? "no reason given"}` } : {}),
        ...(merged.updatedInput ? { input: merged.updatedInput } : {}),
        ...(context ? { context } : {}),
      };
    };
  }
  if (has("PostToolUse")) {
    chain.afterToolCall = async (call, signal) => {
      const fields = { tool_response: call.output, duration_ms: Math.round(call.durationMs) };
      const merged = await fire(entries, { event: "PostToolUse", tool: call.name, input: call.input, toolUseId: call.id, fields }, ctx, signal);
      if (!merged) return undefined;
      const notes = [merged.decision === "block" && merged.reason ? `A PostToolUse hook configured by the user objects: ${merged.reason}` : "", merged.context ? contextNote("PostToolUse", merged.context) : ""].filter(Boolean);
      return { ...(merged.updatedOutput !== undefined ? { output: merged.updatedOutput } : {}), ...(notes.length ? { context: notes.join("\n\n") } : {}) };
    };
  }
  if (has("PostToolUseFailure")) {
    chain.onToolError = async (call, signal) => {
      const fields = { error: call.output, duration_ms: Math.round(call.durationMs) };
      const merged = await fire(entries, { event: "PostToolUseFailure", tool: call.name, input: call.input, toolUseId: call.id, fields }, ctx, signal);
      const note = merged?.context ?? (merged?.decision === "block" ? merged.reason : undefined);
      return note ? { context: contextNote("PostToolUseFailure", note) } : undefined;
    };
  }
  if (has("Stop")) {
    chain.beforeStop = async (stop, signal) => {
      const fields = { stop_hook_active: stop.continued > 0, last_assistant_message: stop.text };
      const merged = await fire(entries, { event: "Stop", fields }, ctx, signal);
      if (!merged || merged.stop || merged.decision !== "block") return undefined;
      return `A Stop hook configured by the user kept the run going: ${merged.reason ?? "carry on"}`;
    };
  }
  return {
    chain,
    async beforePrompt(prompt, signal) {
      const merged = await fire(entries, { event: "UserPromptSubmit", fields: { prompt } }, ctx, signal);
      if (!merged) return {};
      if (merged.stop || merged.decision === "block") return { block: merged.stop ?? merged.reason ?? "a UserPromptSubmit hook blocked the prompt" };
      return merged.context ? { context: contextNote("UserPromptSubmit", merged.context) } : {};
    },
    async sessionStart(source, signal) {
      const merged = await fire(entries, { event: "SessionStart", match: source, fields: { source } }, ctx, signal);
      return merged?.context ? { context: contextNote("SessionStart", merged.context) } : {};
    },
    async sessionEnd(reason, signal) {
      await fire(entries, { event: "SessionEnd", match: reason, fields: { reason } }, ctx, signal);
    },
    async beforeCompact(trigger, instructions, signal) {
      const merged = await fire(entries, { event: "PreCompact", match: trigger, fields: { trigger, custom_instructions: instructions } }, ctx, signal);
      return merged?.decision === "block" ? { block: merged.reason ?? "a PreCompact hook blocked the compaction" } : {};
    },
    async afterCompact(trigger, summary, signal) {
      await fire(entries, { event: "PostCompact", match: trigger, fields: { trigger, compact_summary: summary } }, ctx, signal);
    },
    async permissionRequest(ask, signal) {
      if (!has("PermissionRequest")) return undefined;
      const merged = await fire(entries, { event: "PermissionRequest", tool: ask.tool, input: ask.input }, ctx, signal);
      if (merged?.decision === "deny") return { allow: false, message: `a PermissionRequest hook configured by the user denied it: ${merged.reason ?? "no reason given"}` };
      if (merged?.decision === "allow" && !ask.fixed) return { allow: true };
      return undefined;
    },
    async notify(type, message) {
      await fire(entries, { event: "Notification", match: type, fields: { notification_type: type, message } }, ctx, new AbortController().signal);
    },
  };
}

function contextNote(event: string, text: string): string {
  return `<hook-context event="${event}">\n${text}\n</hook-context>`;
}
