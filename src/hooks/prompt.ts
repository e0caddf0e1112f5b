// The `prompt` handler: one model call with the hook's prompt ($ARGUMENTS is the payload; appended
// when the prompt does not name it), answering {"ok": bool, "reason": "..."}. `ok: false` blocks
// where the event can block, as exit 2 does, with the reason.
import * as v from "valibot";
import { textOf, type StreamFn } from "../agent/types.ts";
import type { HookHandler } from "../config/hooks-schema.ts";
import type { RawRun } from "./command.ts";

type PromptHandler = Extract<HookHandler, { type: "prompt" }>;

const SYSTEM =
  'You check one condition for a coding agent\'s hook. Read the hook\'s instructions and the event (JSON), then answer with only a JSON object: {"ok": true} when the action may go on, or {"ok": false, "reason": "what is wrong and what to do instead"}.';
const Answer = v.object({ ok: v.boolean(), reason: v.optional(v.string()) });

export async function runPrompt(handler: PromptHandler, payload: string, model: { stream: StreamFn; model: string }, timeoutMs: number, signal: AbortSignal): Promise<RawRun> {
  const text = handler.prompt.includes("$ARGUMENTS") ? handler.prompt.replaceAll("$ARGUMENTS", payload) : `${handler.prompt}\n\n${payload}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  const request = { model: handler.model ?? model.model, system: SYSTEM, messages: [{ role: "user" as const, content: [{ type: "text" as const, text }] }], tools: [], max_tokens: 1024 };
  let reply = "";
  for await (const event of model.stream(request, AbortSignal.any([signal, timeout]))) {
    if (event.type === "done") reply = textOf(event.content);
    if (event.type === "error") {
      if (timeout.aborted || signal.aborted) return { exitCode: null, stdout: "", stderr: "", timedOut: timeout.aborted, cut: false };
      return { exitCode: 1, stdout: "", stderr: "", timedOut: false, cut: false, error: `the model call failed: ${event.message}` };
    }
  }
  return answerRun(reply);
}

/** A model's `{"ok": ..., "reason": ...}` answer as a run: ok is exit 0, not ok exit 2 with the reason, anything else an error. */
export function answerRun(reply: string): RawRun {
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  let parsed: v.SafeParseResult<typeof Answer> | undefined;
  try {
    parsed = json ? v.safeParse(Answer, JSON.parse(json)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) return { exitCode: 1, stdout: "", stderr: "", timedOut: false, cut: false, error: `the model did not answer {"ok": ..., "reason": ...}: ${reply.slice(0, 120)}` };
  const { ok, reason } = parsed.output;
  return ok ? { exitCode: 0, stdout: "", stderr: "", timedOut: false, cut: false } : { exitCode: 2, stdout: "", stderr: reason ?? "the prompt hook said no", timedOut: false, cut: false };
}
