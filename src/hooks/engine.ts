// Fires one event: picks the active hooks whose matcher fits, runs them in parallel (an identical
// handler defined twice runs once), reports each run as hook_start/hook_end, merges the verdicts.
import type { EventOf } from "../agent/types.ts";
import type { HookEvent, HookHandler } from "../config/hooks-schema.ts";
import { reinToolName, toolAliases } from "../permission/tool-names.ts";
import { runCommand, type RawRun } from "./command.ts";
import { claudePayload } from "./claude-payload.ts";
import { claudeAliases, firesFor, inputFor, inputFrom, type CallEnd, type Dialect } from "./dialect.ts";
import { ifAllows } from "./if-rule.ts";
import { matches } from "./matcher.ts";
import { mergeVerdicts, type Merged } from "./merge.ts";
import { verdictOf, type Verdict } from "./outcome.ts";
import { isAsync, type HookEntry } from "./sources.ts";

export { isAsync };
import { HOOK_DEPTH_ENV, hookDepth } from "./depth.ts";

export const DEFAULT_TIMEOUT_MS = 60_000;

export type HookRunEvent = EventOf<"hook_start"> | EventOf<"hook_end">;

export type HookContext = {
  sessionId: string;
  cwd: string;
  projectDir: string;
  transcriptPath: string;
  permissionMode: string;
  /** the reasoning effort the session's agent asks (its payloads' `effort.level`; "medium", the models' default, when none) */
  effort?: string;
  /** the environment hook processes are made from: the tools' (no provider keys) */
  env: Readonly<Record<string, string>>;
  emit: (event: HookRunEvent) => void;
  /** set in a subagent's session: its hooks' payloads name the agent, and its start and stop are SubagentStart and SubagentStop */
  subagent?: { agentId: string; agentType: string; transcriptPath: string; claudeTranscriptPath?: string };
  /** runs the handler types other than command (http, prompt); a command-only setup leaves it out */
  runOther?: (handler: Exclude<HookHandler, { type: "command" }>, payload: string, timeoutMs: number, signal: AbortSignal, id: string) => Promise<RawRun>;
  newId: () => string;
  /** the run's prompt id (Claude Code's `prompt_id`), new at each prompt */
  promptId?: () => string;
  /** Claude Code's transcript of the session (`transcript_path` for hooks from Claude Code's files) */
  claudeTranscriptPath?: string;
  /** the front end, as Claude Code's CLAUDE_CODE_ENTRYPOINT names it: `sdk-cli` headless, `cli` in the terminal */
  entrypoint?: string;
  /**
   * Takes what an `async: true` hook said (its context or systemMessage) once it ends in the
   * background; without it (rein hooks test) async hooks are waited for, still deciding nothing.
   */
  late?: (event: HookEvent, text: string) => void;
  /**
   * Takes what an `asyncRewake` hook said when it exited 2: the session hands it to the model at
   * once (beside the next result of a run under way, or as a new turn when none is); without it,
   * it is late context like any async hook's.
   */
  wake?: (event: HookEvent, text: string) => void;
};

/** An event's own fields; `tool` and `input` are in rein's vocabulary and converted per hook. */
export type Fired = {
  event: HookEvent;
  match?: string;
  tool?: string;
  input?: unknown;
  /** the input as the model sent it (Claude Code's hooks see the fields rein's schema drops) */
  raw?: unknown;
  /** how the call ended (PostToolUse, PostToolUseFailure): each dialect makes its own tool_response or error of it */
  end?: CallEnd & { durationMs: number };
  toolUseId?: string;
  fields?: Record<string, unknown>;
};

/** The active hooks for an event, its matcher fitting and its `if` rule allowing (a bash line is analysed where it runs, `cwd`). */
export async function matching(entries: readonly HookEntry[], fired: Pick<Fired, "event" | "match" | "tool" | "input">, cwd = "/"): Promise<HookEntry[]> {
  const values = fired.tool ? toolAliases(fired.tool) : fired.match !== undefined ? [fired.match] : undefined;
  // Claude Code's files are matched on Claude Code's names only (`Task` matches Agent), exactly as
  // Claude Code 2.1.332 matches them (`bash` does not match Bash there): a regular expression there
  // never sees rein's names.
  const claudeValues = fired.tool ? claudeAliases(fired.tool) : values;
  const seen = new Set<string>();
  const candidates = entries.filter((entry) => {
    if (!entry.active || entry.event !== fired.event) return false;
    if (fired.tool && !firesFor(fired.tool, entry.dialect)) return false;
    const names = entry.dialect === "claude" ? claudeValues : values;
    // rein's config matches a built-in's name in any case; Claude Code's files as Claude Code does, exactly
    if (names && !matches(entry.matcher, names, fired.tool && entry.dialect === "rein" ? reinToolName : undefined)) return false;
    // A plugin's handler runs with its own variables: the same text in two plugins is two hooks.
    const key = entry.env ? `${handlerKey(entry.handler)}\0${entry.env.CLAUDE_PLUGIN_ROOT ?? ""}` : handlerKey(entry.handler);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (!candidates.some((entry) => entry.handler.if !== undefined)) return candidates;
  const scope = { cwd };
  const allowed = await Promise.all(candidates.map((entry) => ifAllows(entry.handler.if, fired.tool, fired.input, scope)));
  return candidates.filter((_, i) => allowed[i]);
}

export async function fire(entries: readonly HookEntry[], fired: Fired, ctx: HookContext, signal: AbortSignal): Promise<Merged | undefined> {
  const chosen = await matching(entries, fired, ctx.cwd);
  const late = ctx.late;
  const background = late ? chosen.filter(isAsync) : [];
  // Background hooks outlive the call that fired them (an abort of the run does not end them; their timeout does).
  for (const entry of background) {
    void runOne(entry, fired, ctx, new AbortController().signal)
      .then((verdict) => verdict.context && (verdict.rewake && ctx.wake ? ctx.wake : late!)(fired.event, verdict.context))
      .catch(() => undefined); // it ended after its session (the store is closed): what it said is dropped
  }
  const waited = background.length ? chosen.filter((entry) => !isAsync(entry)) : chosen;
  if (waited.length === 0) return undefined;
  const verdicts = await Promise.all(waited.map((entry) => runOne(entry, fired, ctx, signal)));
  return mergeVerdicts(verdicts, fired.input);
}

function runElsewhere(handler: Exclude<HookHandler, { type: "command" }>, payload: string, ctx: HookContext, announce: () => void, timeoutMs: number, signal: AbortSignal, id: string): Promise<RawRun> {
  announce();
  if (ctx.runOther) return ctx.runOther(handler, payload, timeoutMs, signal, id);
  return Promise.resolve({ exitCode: 1, stdout: "", stderr: "", timedOut: false, cut: false, error: `${handler.type} hooks cannot run here` });
}

const handlerKeys = new WeakMap<HookHandler, string>();

/** What makes two handlers identical (defined twice, run once), worked out once per handler. */
function handlerKey(handler: HookHandler): string {
  let key = handlerKeys.get(handler);
  if (key === undefined) handlerKeys.set(handler, (key = JSON.stringify(handler)));
  return key;
}


async function runOne(entry: HookEntry, fired: Fired, ctx: HookContext, signal: AbortSignal): Promise<Verdict & { rewake?: true }> {
  const id = ctx.newId();
  const handler = describeHandler(entry.handler);
  const background = isAsync(entry);
  const base = { id, event: fired.event, source: entry.file, handler, ...(fired.toolUseId ? { tool_use_id: fired.toolUseId } : {}), ...(background ? { async: true as const } : {}) };
  let announced = false;
  const announce = () => void (announced || ((announced = true), ctx.emit({ type: "hook_start", ...base })));
  const started = performance.now();
  const timeoutMs = (entry.handler.timeout ?? DEFAULT_TIMEOUT_MS / 1000) * 1000;
  const payload = JSON.stringify(entry.dialect === "claude" ? claudePayload(fired, ctx) : payloadFor(fired, ctx));
  // A command's hook_start is stored while its process starts (the write and the start overlap).
  const raw = entry.handler.type === "command" ? await runCommand(entry.handler, { payload, cwd: ctx.cwd, env: hookEnv(ctx, entry), timeoutMs, signal, started: announce }) : await runElsewhere(entry.handler, payload, ctx, announce, timeoutMs, signal, id);
  announce();
  const verdict: Verdict & { rewake?: true } = background ? told(verdictOf(fired.event, raw, timeoutMs)) : verdictOf(fired.event, raw, timeoutMs);
  verdict.dialect = entry.dialect;
  if (entry.handler.type === "command") verdict.command = [entry.handler.command, ...(entry.handler.args ?? [])].join(" ");
  if (entry.handler.type === "command" && entry.handler.asyncRewake && raw.exitCode === 2) Object.assign(verdict, { context: rewakeText(entry.handler, raw), rewake: true });
  if (verdict.updatedInput && fired.tool) verdict.updatedInput = inputFrom(fired.tool, verdict.updatedInput, entry.dialect) as Record<string, unknown>;
  ctx.emit({
    type: "hook_end",
    ...base,
    decision: verdict.decision ?? (verdict.context ? "context" : verdict.error ? "error" : "none"),
    duration_ms: Math.round(performance.now() - started),
    output: verdict.output,
    ...(verdict.error ? { error: verdict.error } : {}),
  });
  return verdict;
}

/**
 * What an `asyncRewake` hook's exit 2 tells the model, as Claude Code words it: its `rewakeMessage`
 * (or "... blocking error from command") and what it wrote on stderr (stdout when stderr is empty).
 */
function rewakeText(handler: Extract<HookHandler, { type: "command" }>, raw: RawRun): string {
  const said = raw.stderr.trim() || raw.stdout.trim();
  return `${handler.rewakeMessage ?? `Stop hook blocking error from command "${handler.command}":`} ${said}`.trim();
}

/** An async hook decides nothing: what it says (its context, its systemMessage) is all that is kept. */
function told(verdict: Verdict): Verdict {
  const context = [verdict.context, verdict.systemMessage].filter(Boolean).join("\n");
  return { output: verdict.output, ...(verdict.error ? { error: verdict.error } : {}), ...(context ? { context } : {}) };
}

const hookEnvs = new WeakMap<HookContext["env"], WeakMap<HookEntry, Record<string, string>>>();

/** A hook process's environment, made once per session environment and hook. */
function hookEnv(ctx: HookContext, entry: HookEntry): Record<string, string> {
  let forEnv = hookEnvs.get(ctx.env);
  if (!forEnv) hookEnvs.set(ctx.env, (forEnv = new WeakMap()));
  let env = forEnv.get(entry);
  if (!env) forEnv.set(entry, (env = { ...ctx.env, ...(entry.dialect === "claude" ? claudeEnv(ctx) : {}), ...entry.env, REIN_PROJECT_DIR: ctx.projectDir, CLAUDE_PROJECT_DIR: ctx.projectDir, [HOOK_DEPTH_ENV]: String(hookDepth(ctx.env) + 1) }));
  return env;
}

/** The variables Claude Code gives its hooks, for hooks from its files. */
function claudeEnv(ctx: HookContext): Record<string, string> {
  return { CLAUDECODE: "1", CLAUDE_CODE_ENTRYPOINT: ctx.entrypoint ?? "sdk-cli", CLAUDE_CODE_SESSION_ID: ctx.sessionId, CLAUDE_EFFORT: "medium" };
}

/** The stdin payload of a hook in rein's config: rein's tool names, input fields and output text. */
function payloadFor(fired: Fired, ctx: Pick<HookContext, "sessionId" | "transcriptPath" | "cwd" | "permissionMode" | "subagent">): Record<string, unknown> {
  const end = fired.end;
  return {
    session_id: ctx.sessionId,
    transcript_path: ctx.transcriptPath,
    cwd: ctx.cwd,
    permission_mode: ctx.permissionMode,
    hook_event_name: fired.event,
    ...(ctx.subagent ? { agent_id: ctx.subagent.agentId, agent_type: ctx.subagent.agentType } : {}),
    ...(fired.tool ? { tool_name: fired.tool } : {}),
    ...(fired.input !== undefined && fired.tool ? { tool_input: inputFor(fired.tool, fired.input, "rein", ctx.cwd) } : {}),
    ...(fired.toolUseId ? { tool_use_id: fired.toolUseId } : {}),
    ...(end ? { [end.isError ? "error" : "tool_response"]: end.output, duration_ms: Math.round(end.durationMs) } : {}),
    ...fired.fields,
  };
}

export function describeHandler(handler: HookHandler): string {
  const text = handler.type === "command" ? [handler.command, ...(handler.args ?? [])].join(" ") : handler.type === "http" ? handler.url : handler.prompt;
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `${handler.type}: ${short}`;
}
