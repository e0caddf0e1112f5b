// What one handler's run decided, read as Claude Code reads it: exit 0 with a JSON object on stdout
// is read; exit 2 blocks where the event can block (stderr is the reason); any other exit is a
// visible error that decides nothing, except that a valid JSON object is honoured whatever the code.
import * as v from "valibot";
import type { HookEvent } from "../config/hooks-schema.ts";
import { OUTPUT_LIMIT, type RawRun } from "./command.ts";

export type Verdict = {
  /** deny/ask/allow for a tool call; block for the other events that can block */
  decision?: "deny" | "ask" | "allow" | "block";
  reason?: string;
  context?: string;
  updatedInput?: Record<string, unknown>;
  updatedOutput?: string;
  /** `continue: false`: the run stops, with this reason */
  stop?: string;
  systemMessage?: string;
  /** a non-blocking failure the user should see (a bad exit, a timeout, unreadable JSON) */
  error?: string;
  /** the start of what the hook printed, for events */
  output: string;
  /** WorktreeCreate: the folder the hook made (the last line it printed, or `hookSpecificOutput.worktreePath`) */
  worktreePath?: string;
  /** set by the engine: where the hook was configured, and its command (Claude Code names it in a block's message) */
  dialect?: "rein" | "claude";
  command?: string;
};

const BLOCKING: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop", "PreCompact", "TaskCreated", "TaskCompleted", "TeammateIdle"]);
/** Events whose plain stdout is context for the model. */
const PLAIN_CONTEXT: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "UserPromptExpansion", "SessionStart"]);

const str = v.optional(v.string());
const HookJson = v.looseObject({
  continue: v.optional(v.boolean()),
  stopReason: str,
  systemMessage: str,
  suppressOutput: v.optional(v.boolean()),
  decision: v.optional(v.picklist(["block", "approve", "allow", "deny"])),
  reason: str,
  hookSpecificOutput: v.optional(
    v.looseObject({
      hookEventName: str,
      permissionDecision: v.optional(v.picklist(["allow", "deny", "ask", "defer"])),
      permissionDecisionReason: str,
      updatedInput: v.optional(v.record(v.string(), v.unknown())),
      additionalContext: str,
      worktreePath: str,
      updatedToolOutput: v.optional(v.unknown()),
      decision: v.optional(v.looseObject({ behavior: v.picklist(["allow", "deny"]), message: str, updatedInput: v.optional(v.record(v.string(), v.unknown())) })),
    }),
  ),
});
type HookJson = v.InferOutput<typeof HookJson>;

/** Events whose hooks guard what follows: one that cannot start refuses it rather than let it through unguarded. */
const GUARDS: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PermissionRequest", "UserPromptSubmit"]);

export function verdictOf(event: HookEvent, run: RawRun, timeoutMs: number): Verdict {
  const output = shortOutput(run);
  const unstarted = cannotStart(run);
  if (unstarted && GUARDS.has(event)) {
    const reason = `the ${event} hook could not start (${unstarted}), so what it guards was refused; fix the hook's command or remove the hook`;
    return { decision: event === "UserPromptSubmit" ? "block" : "deny", reason, error: unstarted, output };
  }
  if (run.error) return { error: run.error, output };
  if (run.signal) return { error: `killed by ${run.signal}; it decided nothing`, output };
  if (run.exitCode === null) return { error: run.timedOut ? `timed out after ${timeoutMs / 1000} s; it decided nothing` : "stopped: the run was interrupted", output };
  const read = readJson(run.stdout);
  const notes = run.cut ? { systemMessage: `the hook printed more than ${OUTPUT_LIMIT} characters; the rest was cut` } : {};
  if (run.exitCode === 2 && BLOCKING.has(event)) {
    const json = typeof read === "object" && !("problem" in read) ? fromJson(event, read) : {};
    const reason = json.reason ?? (run.stderr.trim() || "a hook blocked this (exit 2) without saying why");
    return { ...notes, ...json, decision: event === "PreToolUse" ? "deny" : "block", reason, output };
  }
  if (typeof read === "object" && "problem" in read) return { ...notes, error: `its JSON output was not used: ${read.problem}`, output };
  // WorktreeCreate makes the folder itself: any exit but 0 fails the creation (Claude Code's rule).
  if (event === "WorktreeCreate" && run.exitCode !== 0) return { ...notes, error: exitError(run), output };
  if (event === "WorktreeCreate") {
    const path = typeof read === "object" ? read.hookSpecificOutput?.worktreePath : run.stdout.trim().split("\n").at(-1)?.trim();
    return { ...notes, ...(typeof read === "object" ? fromJson(event, read) : {}), ...(path ? { worktreePath: path } : {}), output };
  }
  if (typeof read === "object") {
    const json = fromJson(event, read);
    return run.exitCode === 0 ? { ...notes, ...json, output } : { ...notes, ...json, error: exitError(run), output };
  }
  if (run.exitCode !== 0) return { ...notes, error: exitError(run), output };
  const plain = run.stdout.trim();
  return { ...notes, ...(plain && PLAIN_CONTEXT.has(event) ? { context: plain } : {}), output };
}

/** The JSON object on stdout; a string when stdout is plain text; a problem when it is a JSON object of the wrong shape. */
function readJson(stdout: string): HookJson | string | { problem: string } {
  const text = stdout.trim();
  if (!text.startsWith("{")) return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text; // not JSON after all: plain text, as Claude Code reads it
  }
  const parsed = v.safeParse(HookJson, json);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  return { problem: `"${v.getDotPath(issue) ?? ""}": ${issue.message}` };
}

function fromJson(event: HookEvent, json: HookJson): Omit<Verdict, "output"> {
  const specific = json.hookSpecificOutput;
  const out: Omit<Verdict, "output"> = {};
  if (json.continue === false) out.stop = json.stopReason ?? "a hook stopped the run";
  if (json.systemMessage) out.systemMessage = json.systemMessage;
  if (specific?.additionalContext) out.context = specific.additionalContext;
  if (event === "PreToolUse") {
    const legacy = json.decision === "block" || json.decision === "deny" ? "deny" : json.decision === "approve" || json.decision === "allow" ? "allow" : undefined;
    const chosen = specific?.permissionDecision === "defer" ? "ask" : (specific?.permissionDecision ?? legacy);
    if (chosen) out.decision = chosen;
    const reason = specific?.permissionDecisionReason ?? json.reason;
    if (reason) out.reason = reason;
    if (specific?.updatedInput) out.updatedInput = specific.updatedInput;
    return out;
  }
  if (event === "PermissionRequest" && specific?.decision) {
    out.decision = specific.decision.behavior;
    if (specific.decision.message) out.reason = specific.decision.message;
    if (specific.decision.updatedInput) out.updatedInput = specific.decision.updatedInput;
    return out;
  }
  if (json.decision === "block") {
    out.decision = "block";
    out.reason = json.reason ?? "a hook blocked this without saying why";
  }
  if (event === "PostToolUse" && specific?.updatedToolOutput !== undefined) {
    const updated = specific.updatedToolOutput;
    out.updatedOutput = typeof updated === "string" ? updated : JSON.stringify(updated);
  }
  return out;
}

function exitError(run: RawRun): string {
  const first = run.stderr.trim().split("\n")[0]?.slice(0, 200);
  const what = run.exitCode === 127 ? "command not found (exit 127)" : `exit ${run.exitCode}`;
  return first ? `${what}: ${first}` : what;
}

function shortOutput(run: RawRun): string {
  const text = (run.stdout.trim() || run.stderr.trim()).replace(/\s+/g, " ");
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** Why a hook's command never ran: it could not be spawned, or its shell found no such program (127) or could not execute it (126). */
function cannotStart(run: RawRun): string | undefined {
  if (run.error) return run.error;
  return run.exitCode === 126 || run.exitCode === 127 ? exitError(run) : undefined;
}
