// The hook wiring of a Session: its hook points for this session's id and folder, and the
// transcript hooks read (`transcript_path`: the session's events as JSONL, appended as they happen).
import { join } from "node:path";
import type { AgentEvent, StampedEvent, StreamFn } from "../agent/types.ts";
import { runAgentHook, type AgentRunner } from "../hooks/agent.ts";
import { runHttp } from "../hooks/http.ts";
import { runPrompt } from "../hooks/prompt.ts";
import { hookEntries, type HookEntry, type HookSourcesInput } from "../hooks/sources.ts";
import { hookPoints, type HookPoints } from "../hooks/points.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { childEnv } from "../permission/child-env.ts";
import { newId } from "./ids.ts";
import { ClaudeTranscript } from "./claude-transcript.ts";
import { TranscriptFile } from "./transcript-file.ts";

/** The environment of hook processes outside a session (rein hooks test): no provider keys, as in a session. */
export function hookProcessEnv(env: Readonly<Record<string, string | undefined>>, passthrough: readonly string[]): Record<string, string> {
  return childEnv(env, { passthrough, secrets: PROVIDER_KEY_ENV });
}

export type { HookEntry } from "../hooks/sources.ts";
export type { HookPoints } from "../hooks/points.ts";
export { tryHooks, type Tried } from "../hooks/try-hooks.ts";
export { hookDepthStop, MAX_HOOK_DEPTH } from "../hooks/depth.ts";
export { describeHandler } from "../hooks/engine.ts";
export { claudeContent, claudeInputOf, claudeName, claudeResponse } from "../hooks/dialect.ts";

/** Every hook from every source (rein's config files, Claude Code's settings files), and what was wrong in Claude Code's. */
export function loadHooks(input: HookSourcesInput): { entries: HookEntry[]; warnings: string[]; notes: string[] } {
  return hookEntries(input);
}

/** What `allowedEnvVars` may put in an http hook's headers: rein's environment, never the providers' keys. */
function headerEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of PROVIDER_KEY_ENV) delete env[name];
  return env;
}

/** The hooks a session runs: the entries from every source, and what the payload says of the session. */
export type SessionHookSettings = {
  entries: readonly HookEntry[];
  projectDir: string;
  permissionMode: string;
  /** the front end, as Claude Code's CLAUDE_CODE_ENTRYPOINT says it: `sdk-cli` (headless, the default) or `cli` (the terminal) */
  entrypoint?: string;
  /** a subagent's session: its hooks speak of the parent session and name the agent (SubagentStart, SubagentStop) */
  subagent?: { parentId: string; agentType: string };
};

export type SessionHooks = {
  points: HookPoints;
  record: (event: StampedEvent) => void;
  /** the session rests (a run ended, it is let go): the transcript file is closed until the next event */
  rest: () => void;
};

export function sessionHooks(
  settings: SessionHookSettings | undefined,
  session: {
    id: string;
    cwd: string;
    outputDir: string;
    env: Readonly<Record<string, string>>;
    emit: (event: AgentEvent) => void;
    /** the model prompt hooks ask */
    model: () => { stream: StreamFn; model: string };
    /** the subagent agent hooks run */
    agent: AgentRunner;
    /** an asyncRewake hook exited 2: its note goes to the model now */
    wake?: (note: string) => void;
  },
): SessionHooks | undefined {
  if (!settings || !settings.entries.some((entry) => entry.active)) return undefined;
  // Each dialect's transcript is written only when a hook of that dialect may read it.
  const dialects = new Set(settings.entries.filter((entry) => entry.active).map((entry) => entry.dialect));
  const transcriptPath = join(session.outputDir, session.id, "transcript.jsonl");
  const transcript = dialects.has("rein") ? new TranscriptFile(transcriptPath) : undefined;
  const claudePath = join(session.outputDir, session.id, "claude-transcript.jsonl");
  const entrypoint = settings.entrypoint ?? "sdk-cli";
  const sub = settings.subagent;
  const claude = dialects.has("claude") ? new ClaudeTranscript(claudePath, { id: session.id, cwd: session.cwd, entrypoint, permissionMode: settings.permissionMode, sidechain: sub !== undefined }) : undefined;
  const points = hookPoints(settings.entries, {
    sessionId: sub?.parentId ?? session.id,
    cwd: session.cwd,
    projectDir: settings.projectDir,
    transcriptPath: sub ? join(session.outputDir, sub.parentId, "transcript.jsonl") : transcriptPath,
    claudeTranscriptPath: sub ? join(session.outputDir, sub.parentId, "claude-transcript.jsonl") : claudePath,
    entrypoint,
    ...(sub ? { subagent: { agentId: session.id, agentType: sub.agentType, transcriptPath, claudeTranscriptPath: claudePath } } : {}),
    permissionMode: settings.permissionMode,
    env: session.env,
    emit: session.emit,
    newId: () => newId("hook"),
    ...(session.wake ? { wake: (_event: string, note: string) => session.wake!(note) } : {}),
    runOther: (handler, payload, timeoutMs, signal, id) => {
      if (handler.type === "http") return runHttp(handler, payload, headerEnv(), timeoutMs, signal);
      if (handler.type === "agent") return runAgentHook(handler, payload, session.agent, id, timeoutMs, signal);
      return runPrompt(handler, payload, session.model(), timeoutMs, signal);
    },
  });
  return {
    points,
    record(event) {
      if (event.type === "text_delta" || event.type === "tool_output") return;
      transcript?.append(event);
      claude?.record(event);
    },
    rest: () => {
      transcript?.rest();
      claude?.rest();
    },
  };
}
