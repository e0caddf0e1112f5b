// The `agent` handler: a subagent with read-only tools (the explore agent's) works on the hook's
// prompt ($ARGUMENTS is the payload; appended when the prompt does not name it) and must end with
// {"ok": bool, "reason": "..."}, read as a `prompt` hook's answer: `ok: false` blocks where the
// event can block. The session runs the subagent (a stored child session, as a task call's is).
import type { HookHandler } from "../config/hooks-schema.ts";
import type { RawRun } from "./command.ts";
import { answerRun } from "./prompt.ts";

type AgentHandler = Extract<HookHandler, { type: "agent" }>;

/** Runs the subagent on `prompt`: its final text, or why it did not finish. */
export type AgentRunner = (request: { prompt: string; model?: string; id: string; signal: AbortSignal }) => Promise<{ status: string; text: string; error?: string }>;

const CLOSING =
  'You are checking a condition for a hook of a coding agent: look into what you need with your tools, then end with only a JSON object as your final answer: {"ok": true} when the action may go on, or {"ok": false, "reason": "what is wrong and what to do instead"}.';

export async function runAgentHook(handler: AgentHandler, payload: string, run: AgentRunner, id: string, timeoutMs: number, signal: AbortSignal): Promise<RawRun> {
  const task = handler.prompt.includes("$ARGUMENTS") ? handler.prompt.replaceAll("$ARGUMENTS", payload) : `${handler.prompt}\n\n${payload}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const outcome = await run({ prompt: `${task}\n\n${CLOSING}`, id, signal: AbortSignal.any([signal, timeout]), ...(handler.model ? { model: handler.model } : {}) });
    if (timeout.aborted || signal.aborted) return { exitCode: null, stdout: "", stderr: "", timedOut: timeout.aborted, cut: false };
    if (outcome.status !== "success") return { exitCode: 1, stdout: "", stderr: "", timedOut: false, cut: false, error: `the hook's subagent did not finish (${outcome.status}): ${outcome.error ?? "no answer"}` };
    return answerRun(outcome.text);
  } catch (error) {
    return { exitCode: 1, stdout: "", stderr: "", timedOut: false, cut: false, error: error instanceof Error ? error.message : String(error) };
  }
}
