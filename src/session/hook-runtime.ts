// The hooks of a session that has any: its hook points for this session's id and folder, and the
// transcript hooks read (`transcript_path`: the session's events as JSONL, appended as they happen).
// Loaded only when a session has an active hook (session-hooks.ts), so that a session without
// hooks never loads the hook engine, its runners or the transcript writers.
import { join } from "node:path";
import { runAgentHook } from "../hooks/agent.ts";
import { runHttp } from "../hooks/http.ts";
import { runPrompt } from "../hooks/prompt.ts";
import { hookPoints } from "../hooks/points.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { newId } from "./ids.ts";
import { ClaudeTranscript } from "./claude-transcript.ts";
import type { HookSession, SessionHooks, SessionHookSettings } from "./session-hooks.ts";
import { TranscriptFile } from "./transcript-file.ts";

export { tryHooks, type Tried } from "../hooks/try-hooks.ts";
export { describeHandler } from "../hooks/engine.ts";

/** What `allowedEnvVars` may put in an http hook's headers: rein's environment, never the providers' keys. */
function headerEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of PROVIDER_KEY_ENV) delete env[name];
  return env;
}

export function startSessionHooks(settings: SessionHookSettings, session: HookSession): SessionHooks {
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
    ...(settings.effort ? { effort: settings.effort } : {}),
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
