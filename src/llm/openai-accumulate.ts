// Builds the finished reply from Chat Completions stream chunks, robust to what real servers send
// (COMPAT.md 7.2): tool-call fragments keyed by `index` when it is there and trustworthy, a new
// call whenever a fragment brings a new id or a name after arguments (Ollama's `index` is always
// 0), ids made up when missing or repeated, usage from the last chunk (also with `choices: null`),
// reasoning kept out of the answer, and tool calls with `finish_reason: "stop"` taken as tool use.
import { emptyUsage, type ContentBlock, type ProviderEvent, type Usage } from "../agent/types.ts";
import { isRecord } from "./error-text.ts";
import { parseArguments } from "./tool-arguments.ts";
import { newToolId } from "./tool-ids.ts";

type Slot = { id: string | undefined; name: string; args: string; object?: unknown };

export type ChatAccumulator = {
  /** Takes one parsed chunk; returns what to pass on at once, and whether the reply grew. */
  add(chunk: Record<string, unknown>): { event?: ProviderEvent; grew: boolean };
  /** A finish_reason was seen: the reply is complete once the stream ends. */
  readonly finished: boolean;
  finish(): Extract<ProviderEvent, { type: "done" }>;
};

export function chatAccumulator(): ChatAccumulator {
  let text = "";
  const slots: Slot[] = [];
  const byIndex = new Map<number, Slot>();
  let finishReason: string | undefined;
  let usage: Usage = emptyUsage();

  const slotFor = (fragment: Record<string, unknown>): { slot: Slot; fresh: boolean } => {
    const index = typeof fragment.index === "number" ? fragment.index : undefined;
    const id = typeof fragment.id === "string" && fragment.id ? fragment.id : undefined;
    const fn = isRecord(fragment.function) ? fragment.function : {};
    const name = typeof fn.name === "string" ? fn.name : "";
    const current = index !== undefined ? byIndex.get(index) : slots.at(-1);
    // A name after a call's arguments are whole starts the next call; a name repeated on every fragment does not.
    const startsAnother = current && ((id && current.id && id !== current.id) || (name && current.name && isWhole(current)));
    if (current && !startsAnother) return { slot: current, fresh: false };
    const slot: Slot = { id, name: "", args: "" };
    slots.push(slot);
    if (index !== undefined) byIndex.set(index, slot);
    return { slot, fresh: true };
  };

  return {
    add(chunk) {
      if (isRecord(chunk.usage)) usage = chatUsage(chunk.usage);
      const choice = Array.isArray(chunk.choices) && isRecord(chunk.choices[0]) ? chunk.choices[0] : undefined;
      if (!choice) return { grew: false };
      if (typeof choice.finish_reason === "string" && choice.finish_reason) finishReason = choice.finish_reason;
      const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
      let event: ProviderEvent | undefined;
      let grew = false;
      if (typeof delta.content === "string" && delta.content) {
        text += delta.content;
        event = { type: "text_delta", text: delta.content };
        grew = true;
      }
      // Reasoning (`reasoning_content`, `reasoning`, `reasoning_text`) is the reply growing, not its answer.
      if (["reasoning_content", "reasoning", "reasoning_text"].some((k) => typeof delta[k] === "string" && delta[k])) grew = true;
      for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (!isRecord(fragment)) continue;
        const { slot, fresh } = slotFor(fragment);
        const fn = isRecord(fragment.function) ? fragment.function : {};
        if (typeof fragment.id === "string" && fragment.id && !slot.id) slot.id = fragment.id;
        if (typeof fn.name === "string" && fn.name && !slot.name) slot.name = fn.name;
        if (typeof fn.arguments === "string") slot.args += fn.arguments;
        else if (isRecord(fn.arguments)) slot.object = fn.arguments;
        grew = true;
        if (fresh && !event && slot.name) event = { type: "tool_use_start", name: slot.name };
      }
      return { ...(event ? { event } : {}), grew };
    },
    get finished() {
      return finishReason !== undefined;
    },
    finish() {
      const content: ContentBlock[] = text ? [{ type: "text", text }] : [];
      const incomplete: string[] = [];
      const invalid: { id: string; error: string }[] = [];
      const seen = new Set<string>();
      const cut = finishReason === "length";
      for (const slot of slots) {
        if (!slot.name) continue;
        const parsed = parseArguments(slot.object ?? slot.args);
        const inputs = "inputs" in parsed ? parsed.inputs : [{}];
        inputs.forEach((input, i) => {
          const given = i === 0 ? slot.id : undefined;
          const id = given && !seen.has(given) ? given : newToolId();
          seen.add(id);
          content.push({ type: "tool_use", id, name: slot.name, input });
          if ("error" in parsed) (cut ? incomplete.push(id) : invalid.push({ id, error: parsed.error }));
        });
      }
      const hasCalls = content.some((b) => b.type === "tool_use");
      return {
        type: "done",
        content,
        stop_reason: stopReason(finishReason, hasCalls),
        usage,
        incomplete_tool_ids: incomplete,
        ...(invalid.length ? { invalid_tool_inputs: invalid } : {}),
      };
    },
  };
}

function isWhole(slot: Slot): boolean {
  if (slot.object !== undefined) return true;
  if (!slot.args.trim()) return false;
  try {
    JSON.parse(slot.args);
    return true;
  } catch {
    return false;
  }
}

/** finish_reason as rein's (Anthropic's) stop reasons. */
function stopReason(reason: string | undefined, hasCalls: boolean): string | null {
  if (reason === "length") return "max_tokens";
  if (hasCalls) return "tool_use";
  if (reason === "content_filter") return "refusal";
  if (reason === "stop" || reason === "tool_calls" || reason === "function_call" || reason === "eos") return "end_turn";
  return reason ?? "end_turn";
}

/** OpenAI counts cached tokens inside prompt_tokens; rein's input_tokens leaves them out. */
function chatUsage(raw: Record<string, unknown>): Usage {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const details = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const cached = num(details.cached_tokens);
  return {
    input_tokens: Math.max(0, num(raw.prompt_tokens) - cached),
    output_tokens: num(raw.completion_tokens),
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}
