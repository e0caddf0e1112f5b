// rein's session events as ACP `session/update`s: text and thinking as chunks, tool calls with their
// kind, title, paths and (for edits) diffs, a running call's output as it comes, the todo list as a
// plan, usage after each model turn. One translator per session: it remembers each call's input
// (and the tail of its output) until the call ends.
import type { PlanEntry, SessionUpdate, ToolCall, ToolCallContent } from "@agentclientprotocol/sdk";
import type { StampedEvent } from "../app/events.ts";
import { fileChange, type Before, type FileChange } from "./file-change.ts";
import { toolContent, toolKind, toolLocations, toolTitle } from "./tool-view.ts";

type Call = { name: string; input: unknown; output: string; cut?: boolean; shownAt?: number };
export type Translator = (event: StampedEvent) => SessionUpdate[];

/** How much of a running call's output the editor is shown (its end), and how often it is refreshed. */
export const LIVE_OUTPUT_CHARS = 8000;
export const LIVE_OUTPUT_EVERY_MS = 100;

/** `before(id)`: the text of the file an edit or write call changes, as it was when the call started. */
export function translator(
  cwd: string,
  contextWindow: () => number,
  now: () => number = Date.now,
  before: (id: string) => Before = () => undefined,
  newId: () => string = () => crypto.randomUUID(),
): Translator {
  const calls = new Map<string, Call>();
  let cost = 0;
  let priced = true;
  /** the model turn being streamed: its text and its thinking share one messageId */
  let messageId: string | undefined;
  const spent = (usd: number | null | undefined) => {
    if (typeof usd === "number") cost += usd;
    else priced = false;
  };
  const usage = (used: number): SessionUpdate => ({ sessionUpdate: "usage_update", used, size: contextWindow(), ...(priced ? { cost: { amount: cost, currency: "USD" } } : {}) });
  return (event) => {
    switch (event.type) {
      case "text_delta":
        if (!event.text) return [];
        messageId ??= newId();
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text }, messageId }];
      case "assistant": {
        spent(event.cost_usd);
        const u = event.usage;
        const id = messageId ?? newId();
        messageId = undefined;
        return [...thoughts(event.content).map((t) => ({ ...t, messageId: id })), usage(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens)];
      }
      // The session was named after its first turn (a hidden call): the editor's session list and tab show it.
      case "title":
        if (event.usage) spent(event.cost_usd);
        return event.title ? [{ sessionUpdate: "session_info_update", title: event.title, updatedAt: new Date(now()).toISOString() }] : [];
      // The conversation was summarised: the context the next turn sends is the compacted one.
      case "compaction":
        if (event.usage) spent(event.cost_usd);
        return [usage(event.tokens_after)];
      case "tool_start":
        calls.set(event.id, { name: event.name, input: event.input, output: "" });
        return [toolCall(event.id, event.name, event.input, cwd, fileChange(event.name, event.input, before(event.id), cwd))];
      case "tool_output": {
        const call = calls.get(event.id);
        if (!call) return [];
        call.output += event.chunk;
        if (call.output.length > 2 * LIVE_OUTPUT_CHARS) {
          call.output = call.output.slice(-LIVE_OUTPUT_CHARS);
          call.cut = true;
        }
        // The first output at once, then at most one refresh per interval: the call's end shows it all.
        const at = now();
        if (call.shownAt !== undefined && at - call.shownAt < LIVE_OUTPUT_EVERY_MS) return [];
        call.shownAt = at;
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.id, status: "in_progress", content: [liveOutput(call)] }];
      }
      case "tool_end": {
        const input = calls.get(event.id)?.input;
        calls.delete(event.id);
        const change = fileChange(event.name, input, before(event.id), cwd);
        const updates: SessionUpdate[] = [toolEnd(event.id, event.name, input, event.output, event.is_error, cwd, change)];
        const entries = planOf(event.name, event.metadata);
        if (entries) updates.push({ sessionUpdate: "plan", entries });
        return updates;
      }
      default:
        return [];
    }
  };
}

export function toolCall(id: string, name: string, input: unknown, cwd: string, change?: FileChange): SessionUpdate {
  return { sessionUpdate: "tool_call", ...pendingCall(id, name, input, cwd, change) };
}

/**
 * A call about to run, as both `tool_call` and a permission request show it; an edit's location has
 * its line. The diff itself goes only where the call has passed the rules' deny list: in the
 * permission request and the completed call (a refused edit of a credential file shows nothing of it).
 */
export function pendingCall(id: string, name: string, input: unknown, cwd: string, change?: FileChange): ToolCall {
  return {
    toolCallId: id,
    title: toolTitle(name, input),
    kind: toolKind(name),
    status: "pending",
    locations: toolLocations(input, cwd, change),
    rawInput: input,
  };
}

export function toolEnd(id: string, name: string, input: unknown, output: string, isError: boolean, cwd: string, change?: FileChange): SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: isError ? "failed" : "completed",
    content: toolContent(name, input, output, isError, cwd, change),
    ...(change && !isError ? { locations: toolLocations(input, cwd, change) } : {}),
    rawOutput: { output },
  };
}

function liveOutput({ output, cut }: Call): ToolCallContent {
  const text = cut || output.length > LIVE_OUTPUT_CHARS ? `…${output.slice(-LIVE_OUTPUT_CHARS)}` : output;
  return { type: "content", content: { type: "text", text } };
}

/** Thinking blocks as thought chunks (rein streams only the answer's text as it comes). */
export function thoughts(content: readonly { type: string; [key: string]: unknown }[]): SessionUpdate[] {
  return content
    .filter((b) => b.type === "thinking" && typeof b.thinking === "string" && b.thinking)
    .map((b) => ({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: b.thinking as string } }));
}

const PLAN_STATUS: Record<string, PlanEntry["status"]> = { done: "completed", in_progress: "in_progress", pending: "pending" };

/** The todo tool's list (its tool_end metadata) as plan entries; undefined for any other call. */
export function planOf(name: string, metadata: Record<string, unknown> | undefined): PlanEntry[] | undefined {
  const todos = metadata?.todos;
  if (name !== "todo" || !Array.isArray(todos)) return undefined;
  return todos
    .filter((t): t is { content: string; status: string } => typeof t?.content === "string" && typeof t?.status === "string")
    .map((t) => ({ content: t.content, priority: "medium", status: PLAN_STATUS[t.status] ?? "pending" }));
}
