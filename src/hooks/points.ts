// The hooks as the session's seams: the call chain around tool calls and the stop, and the points
// before a prompt, at session start and end, and around compaction. Text written here is what the
// model reads, so it says that a hook (the user's configuration), not the user, decided.
import { afterCall, beforeCall, type CallHandler } from "../agent/call-engine.ts";
import type { AfterToolCall, BeforeToolCall, RunChain, ToolCallDone, ToolCallInfo } from "../agent/types.ts";
import { fire as fireEntries, isAsync, type Fired, type HookContext } from "./engine.ts";
import type { HookEntry } from "./sources.ts";

export type HookPoints = {
  /** its `halted` says why a hook stopped the run under way (`continue: false` at any point of it); its stop check is the Stop (SubagentStop) hooks' */
  chain: RunChain;
  /**
   * The hooks' entries in a tool call's list, outermost first (between validating the call and
   * working out what it touches): what `async: true` hooks said since (beside the result),
   * PostToolUseFailure, PostToolUse, PreToolUse. Empty when no hook listens.
   */
  callHandlers: CallHandler[];
  /** a new run begins: a stop asked during the last one is forgotten */
  newRun: () => void;
  /** what `async: true` hooks said since it was last taken, for the model (beside the next prompt) */
  takeLate: () => string[];
  /** hands the model a note at the next point the conversation grows (an asyncRewake hook's, during a run) */
  addLate: (note: string) => void;
  /**
   * before a prompt is sent: a block refuses it (the reason is for the user); context goes beside it.
   * `claude`: the block came from Claude Code's files only, with Claude Code's result text for it.
   */
  beforePrompt: (prompt: string, signal: AbortSignal) => Promise<{ block?: string; claude?: string; context?: string }>;
  /** the stop of the run under way when hooks from Claude Code's files alone made it (the run ends as a success) */
  claudeStop: () => { event: string; reason: string } | undefined;
  /** a `/command` (or an MCP prompt) expanded: Claude Code's UserPromptExpansion, matched on the command's name; a block refuses the prompt */
  beforeExpansion: (expansion: { type: "slash_command" | "mcp_prompt"; name: string; args: string; source: string; prompt: string }, signal: AbortSignal) => Promise<{ block?: string; context?: string }>;
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
  /**
   * A team's events, with Claude Code's fields: undefined when no hook of the event is configured;
   * else a block (exit 2, `decision: "block"`) and its reason, a stop (`continue: false`; from
   * TaskCreated or TaskCompleted it also stops the run under way), the folder a WorktreeCreate hook
   * made, and the hooks' errors.
   */
  team: (event: TeamHookEvent, fields: Record<string, unknown>, signal: AbortSignal) => Promise<TeamHookAnswer | undefined>;
};

export type TeamHookEvent = "TaskCreated" | "TaskCompleted" | "TeammateIdle" | "WorktreeCreate" | "WorktreeRemove";
export type TeamHookAnswer = { block?: string; stop?: string; worktreePath?: string; errors: string[] };

export function hookPoints(entries: readonly HookEntry[], ctx: HookContext): HookPoints {
  const has = (event: HookEntry["event"]) => entries.some((e) => e.active && e.event === event);
  let halt: { text: string; event: string; reason: string; claude: boolean } | undefined;
  let promptId = crypto.randomUUID();
  const late: string[] = [];
  const run: HookContext = { ...ctx, promptId: () => promptId, late: (event, text) => void late.push(contextNote(event, text)) };
  const takeLate = () => late.splice(0);
  const fire = async (fired: Fired, signal: AbortSignal) => {
    const merged = await fireEntries(entries, fired, run, signal);
    if (merged?.stop && !NO_RUN.has(fired.event)) halt ??= { text: `stopped by a ${fired.event} hook: ${merged.stop}`, event: fired.event, reason: merged.stop, claude: !merged.reinStop };
    return merged;
  };
  const chain: RunChain = { halted: () => halt?.text, haltSucceeds: () => halt?.claude === true };
  let pre: ((call: ToolCallInfo, signal: AbortSignal) => Promise<BeforeToolCall | undefined>) | undefined;
  let post: ((call: ToolCallDone, signal: AbortSignal) => Promise<AfterToolCall | undefined>) | undefined;
  let failure: typeof post;
  if (has("PreToolUse")) {
    pre = async (call, signal) => {
      const merged = await fire({ event: "PreToolUse", tool: call.name, input: call.input, raw: call.raw, toolUseId: call.id }, signal);
      if (!merged) return undefined;
      const context = merged.context ? contextNote("PreToolUse", merged.context) : undefined;
      const stop = merged.stop ? `A PreToolUse hook configured by the user stopped the run at this call: ${merged.stop}` : undefined;
      if (stop || merged.decision === "deny") {
        const why = stop ?? `A PreToolUse hook configured by the user (not the user's answer) blocked this call: ${merged.reason ?? "no reason given"}`;
        return { block: `${why}\nThe call did not run. Do not retry it unchanged; adjust it to what the hook asks, or carry on another way.`, ...(context ? { context } : {}) };
      }
      return {
        ...(merged.decision === "ask" ? { ask: `a hook asks for confirmation: ${merged.reason ?? "no reason given"}` } : {}),
        ...(merged.claudeAllow ? { allow: true } : {}),
        ...(merged.updatedInput ? { input: merged.updatedInput } : {}),
        ...(context ? { context } : {}),
      };
    };
  }
  if (has("PostToolUse")) {
    post = async (call, signal) => {
      const merged = await fire({ event: "PostToolUse", tool: call.name, input: call.input, raw: call.raw, toolUseId: call.id, end: ended(call) }, signal);
      if (!merged) return undefined;
      const notes = [merged.decision === "block" && merged.reason ? `A PostToolUse hook configured by the user objects: ${merged.reason}` : "", merged.context ? contextNote("PostToolUse", merged.context) : ""].filter(Boolean);
      return { ...(merged.updatedOutput !== undefined ? { output: merged.updatedOutput } : {}), ...(notes.length ? { context: notes.join("\n\n") } : {}) };
    };
  }
  if (has("PostToolUseFailure")) {
    failure = async (call, signal) => {
      const merged = await fire({ event: "PostToolUseFailure", tool: call.name, input: call.input, raw: call.raw, toolUseId: call.id, end: ended(call) }, signal);
      const note = merged?.context ?? (merged?.decision === "block" ? merged.reason : undefined);
      return note ? { context: contextNote("PostToolUseFailure", note) } : undefined;
    };
  }
  // A subagent's run ends with SubagentStop (matched on its agent type), which can keep it going as Stop does.
  const sub = ctx.subagent;
  const stopEvent = sub ? "SubagentStop" : "Stop";
  if (has(stopEvent)) {
    chain.stopChecks = [async (stop, signal) => {
      const fields = { stop_hook_active: stop.continued > 0, last_assistant_message: stop.text, ...(sub ? { agent_transcript_path: sub.transcriptPath } : {}) };
      const merged = await fire({ event: stopEvent, ...(sub ? { match: sub.agentType } : {}), fields }, signal);
      if (!merged || merged.stop || merged.decision !== "block") return undefined;
      return `A ${stopEvent} hook configured by the user kept the run going: ${merged.reason ?? "carry on"}`;
    }];
  }
  // What `async: true` hooks said once they ended in the background reaches the model beside the next
  // tool result (or beside the next prompt: the session takes it there).
  const background = entries.some((e) => e.active && isAsync(e));
  const lateContext: CallHandler = async (c, next) => {
    await next();
    if (c.result && !c.result.untried) c.notes.push(...takeLate().filter(Boolean));
  };
  const callHandlers = [...(background ? [lateContext] : []), ...(failure ? [afterCall(failure, "failure")] : []), ...(post ? [afterCall(post)] : []), ...(pre ? [beforeCall(pre)] : [])];
  return {
    chain,
    callHandlers,
    newRun: () => void ((halt = undefined), (promptId = crypto.randomUUID())),
    claudeStop: () => (halt?.claude ? { event: halt.event, reason: halt.reason } : undefined),
    takeLate,
    addLate: (note) => void late.push(note),
    async beforePrompt(prompt, signal) {
      if (sub) return {}; // a task's prompt is the parent's tool call, not a person's prompt
      const merged = await fire({ event: "UserPromptSubmit", fields: { prompt } }, signal);
      if (!merged || merged.stop) return {};
      if (merged.decision === "block") {
        const block = merged.reason ?? "a UserPromptSubmit hook blocked the prompt";
        if (merged.reinBlock || !merged.claudeBlocks) return { block };
        return { block, claude: `UserPromptSubmit operation blocked by hook:\n${merged.claudeBlocks.join("\n")}\n\n\nOriginal prompt: ${prompt}` };
      }
      return merged.context ? { context: contextNote("UserPromptSubmit", merged.context) } : {};
    },
    async beforeExpansion(expansion, signal) {
      if (sub || !has("UserPromptExpansion")) return {};
      const fields = { expansion_type: expansion.type, command_name: expansion.name, command_args: expansion.args, command_source: expansion.source, prompt: expansion.prompt };
      const merged = await fire({ event: "UserPromptExpansion", match: expansion.name, fields }, signal);
      if (!merged || merged.stop) return {};
      if (merged.decision === "block") return { block: merged.reason ?? "a UserPromptExpansion hook blocked the command" };
      return merged.context ? { context: contextNote("UserPromptExpansion", merged.context) } : {};
    },
    async sessionStart(source, signal) {
      const merged = sub ? await fire({ event: "SubagentStart", match: sub.agentType }, signal) : await fire({ event: "SessionStart", match: source, fields: { source } }, signal);
      return merged?.context ? { context: contextNote(sub ? "SubagentStart" : "SessionStart", merged.context) } : {};
    },
    async sessionEnd(reason, signal) {
      if (!sub) await fire({ event: "SessionEnd", match: reason, fields: { reason } }, signal);
    },
    async beforeCompact(trigger, instructions, signal) {
      const merged = await fire({ event: "PreCompact", match: trigger, fields: { trigger, custom_instructions: instructions } }, signal);
      return merged?.decision === "block" ? { block: merged.reason ?? "a PreCompact hook blocked the compaction" } : {};
    },
    async afterCompact(trigger, summary, signal) {
      await fire({ event: "PostCompact", match: trigger, fields: { trigger, compact_summary: summary } }, signal);
    },
    async permissionRequest(ask, signal) {
      if (!has("PermissionRequest")) return undefined;
      const merged = await fire({ event: "PermissionRequest", tool: ask.tool, input: ask.input }, signal);
      if (merged?.decision === "deny") return { allow: false, message: `a PermissionRequest hook configured by the user denied it: ${merged.reason ?? "no reason given"}` };
      if (merged?.decision === "allow" && !ask.fixed) return { allow: true };
      return undefined;
    },
    async team(event, fields, signal) {
      if (!has(event)) return undefined;
      const merged = await fire({ event, fields }, signal);
      if (!merged) return undefined;
      return {
        errors: merged.errors,
        ...(merged.decision === "block" ? { block: merged.reason ?? `a ${event} hook blocked it without saying why` } : {}),
        ...(merged.stop ? { stop: merged.stop } : {}),
        ...(merged.worktreePath ? { worktreePath: merged.worktreePath } : {}),
      };
    },
    async notify(type, message) {
      await fire({ event: "Notification", match: type, fields: { notification_type: type, message } }, new AbortController().signal);
    },
  };
}

function ended(call: ToolCallDone): NonNullable<Fired["end"]> {
  return { output: call.output, isError: call.isError, durationMs: call.durationMs, ...(call.metadata ? { metadata: call.metadata } : {}) };
}

/** Events outside any run: a `continue: false` there has no run to stop. */
const NO_RUN: ReadonlySet<Fired["event"]> = new Set(["SessionEnd", "Notification", "TeammateIdle", "WorktreeCreate", "WorktreeRemove"]);

function contextNote(event: string, text: string): string {
  return `<hook-context event="${event}">\n${text}\n</hook-context>`;
}
