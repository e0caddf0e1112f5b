// Compaction, cheapest first: prune old tool results; else summarise the older part with a hidden
// model call and keep the recent tail verbatim; else (the call failed, was empty or did not fit) cut
// the oldest turns deterministically. Returns the new view and reports the compaction as an event;
// an abort before it is decided leaves the conversation as it was (undefined, nothing reported).
// A manual compaction that would not make the conversation smaller is never kept: nothing is
// reported, and the view comes back unchanged with the summary call's usage when one was made.
import { estimateTokens } from "../agent/context-size.ts";
import { textOf, type Compacted, type CompactInput, type CompactionMethod, type ContentBlock, type EventOf, type Message, type StreamFn, type Usage } from "../agent/types.ts";
import { skillsToAttach } from "../skills/loaded-skills.ts";
import { clip } from "./clip.ts";
import { headCount, headMessage, hasResults, PRUNED_MARKER, pruneResults, type CompactionState } from "./compacted-view.ts";

export type CompactorDeps = {
  stream: StreamFn;
  model: string;
  /** the system prompt of the summary call (prompts/compaction.txt) */
  prompt: string;
  /** the usable window in tokens (see usableWindow) */
  usable: number;
  /** the reply limit of the session's requests; the summary call asks for no more */
  maxTokens: number;
  /** the price of the summary call's usage, null when the model's prices are unknown */
  costOf: (usage: Usage) => number | null;
  state: CompactionState;
  /** persists the event; the caller's state becomes the one it describes */
  report: (event: EventOf<"compaction">) => void;
  /** what a manual compaction should keep above all */
  focus?: string;
};

/** A manual compaction of a conversation (without system prompt and tools) under this many tokens is not worth a call. */
export const WORTH_COMPACTING = 1_000;
/** The tool results of this many recent messages are never pruned. */
const KEEP_RESULTS = 4;
export const SUMMARY_PREFIX = "[summary of the earlier conversation]";
/** The latest request survives a summary word for word, after it (models' summaries paraphrase). */
export const REQUEST_MARK = "[the user's latest request, verbatim]";

export async function compactConversation(input: CompactInput, deps: CompactorDeps, signal: AbortSignal): Promise<Compacted | undefined> {
  const view = input.messages;
  const head = headCount(deps.state);
  const toFull = (i: number) => deps.state.firstKept + i - head;
  const size = (messages: readonly Message[]) => input.fixed + estimateTokens(messages);
  let usage: Usage | undefined;
  const report = (
    method: CompactionMethod,
    summary: string,
    messages: Message[],
    keepFrom: number,
    newHead: string | null,
    pruned: number[],
    tokensAfter = size(messages),
  ): Compacted | undefined => {
    // Inside a run the target is below the estimate; a manual one aims at the window, so it checks.
    if (input.reason === "manual" && tokensAfter >= input.tokens) return usage ? { messages: [...view], usage } : undefined;
    const firstKept = toFull(keepFrom);
    deps.report({
      type: "compaction",
      summary,
      method,
      tokens_before: input.tokens,
      tokens_after: tokensAfter,
      first_kept: firstKept,
      head: newHead,
      pruned: [...new Set(pruned)].filter((i) => i >= firstKept).sort((a, b) => a - b),
      ...(usage ? { usage, cost_usd: deps.costOf(usage) } : {}),
    });
    return { messages, ...(usage ? { usage } : {}) };
  };

  if (input.reason !== "manual") {
    const pruning = prunable(view, head);
    const pruneAt = new Set(pruning);
    const pruned = view.map((m, i) => (pruneAt.has(i) ? pruneResults(m) : m));
    const after = pruning.length > 0 ? size(pruned) : Infinity;
    if (after <= input.target) return report("prune", "", pruned, head, deps.state.head, [...deps.state.pruned, ...pruning.map(toFull)], after);
  }

  if (input.reason === "manual" && input.tokens - input.fixed < WORTH_COMPACTING) return undefined;
  // A manual compaction summarises the whole conversation; one in a run keeps a recent tail verbatim.
  const keepFrom = input.reason === "manual" ? view.length : tailStart(view, head, tailBudget(deps.usable, input.target - input.fixed));
  const tail = view.slice(keepFrom);
  if (signal.aborted) return undefined;
  const call = await summarise(view.slice(0, keepFrom), deps, signal);
  // Stopped while the summary was written: not a failed summary to cut instead of, but nothing to do.
  if (signal.aborted) return undefined;
  const summary = call.text;
  usage = call.usage;
  if (summary) {
    const request = latestRequest(view, head, keepFrom, deps.state.head, Math.floor(deps.usable * 0.15) * 4);
    const skills = skillsToAttach(view.slice(0, keepFrom));
    const text = `${SUMMARY_PREFIX}\n${summary}${skills ? `\n\n${skills}` : ""}${request ? `\n\n${REQUEST_MARK}\n${request}` : ""}`;
    const messages = [headMessage(text), ...tail];
    const after = size(messages);
    if (after <= input.target || (input.reason === "manual" && after >= input.tokens)) {
      return report("summary", summary, messages, keepFrom, text, [...deps.state.pruned], after);
    }
  }
  const cut = cutConversation(view, keepFrom, (messages) => size(messages) <= input.target, deps.usable);
  return report("cut", cut.note, cut.messages, cut.keepFrom, cut.head, [...deps.state.pruned]);
}

/** Messages whose tool results may be pruned: not the head, not already pruned, not the recent ones. */
function prunable(view: readonly Message[], head: number): number[] {
  const withResults = view.map((m, i) => (i >= head && hasResults(m) && !isPruned(m) ? i : -1)).filter((i) => i >= 0);
  const recent = view.map((m, i) => (hasResults(m) ? i : -1)).filter((i) => i >= 0).slice(-KEEP_RESULTS);
  return withResults.filter((i) => !recent.includes(i));
}

function isPruned(message: Message): boolean {
  return message.content.every((b) => b.type !== "tool_result" || b.content === PRUNED_MARKER);
}

/** The verbatim tail: 30% of the usable window, at least 2,000 tokens, at most 50,000, and never more than half the room. */
function tailBudget(usable: number, room: number): number {
  return Math.max(0, Math.min(Math.max(usable * 0.3, 2_000), 50_000, room * 0.5));
}

/**
 * Where the kept tail begins: the earliest assistant message from which the rest fits the budget
 * (a tail starting there never holds a tool result without its call); the end when none does.
 */
function tailStart(view: readonly Message[], head: number, budget: number): number {
  let start = view.length;
  let tokens = 0;
  for (let i = view.length - 1; i > head; i--) {
    tokens += estimateTokens(view[i]);
    if (tokens > budget) break;
    if (view[i]!.role === "assistant") start = i;
  }
  return start;
}

/** The summary call: the same provider, no tools, the older part as a plain transcript. Empty on any failure. */
async function summarise(older: readonly Message[], deps: CompactorDeps, signal: AbortSignal): Promise<{ text: string; usage?: Usage }> {
  if (older.length === 0) return { text: "" };
  const maxTokens = Math.min(deps.maxTokens, Math.max(512, Math.floor(deps.usable * 0.15)));
  const room = (deps.usable - estimateTokens(deps.prompt) - 200) * 4;
  const focus = deps.focus ? `\n\nKeep above all what concerns: ${deps.focus}` : "";
  const transcript = clip(transcriptOf(older), Math.max(1_000, room - focus.length));
  const request = {
    model: deps.model,
    system: deps.prompt,
    messages: [{ role: "user" as const, content: [{ type: "text" as const, text: `<transcript>\n${transcript}\n</transcript>${focus}` }] }],
    tools: [],
    max_tokens: maxTokens,
  };
  try {
    for await (const event of deps.stream(request, signal)) {
      if (event.type === "error") return { text: "" };
      if (event.type === "done") return { text: textOf(event.content, "\n").trim(), usage: event.usage };
    }
  } catch {
    // a stream that throws is a failed call like any other: the cut takes over
  }
  return { text: "" };
}

type Cut = { messages: Message[]; keepFrom: number; head: string; note: string };

/**
 * The deterministic fallback: the first user message (the instructions) and the latest request,
 * each clipped, then the tail; with less of both, and no tail, until it fits.
 */
function cutConversation(view: readonly Message[], keepFrom: number, fits: (messages: Message[]) => boolean, usable: number): Cut {
  let chars = Math.floor(usable * 0.15) * 4;
  let start = keepFrom;
  for (let attempt = 0; ; attempt++) {
    const cut = cutAt(view, start, chars);
    if (fits(cut.messages) || chars < 200 || attempt > 12) return cut;
    if (start < view.length) start = view.length;
    else chars = Math.floor(chars / 2);
  }
}

function cutAt(view: readonly Message[], keepFrom: number, chars: number): Cut {
  const removed = keepFrom;
  const first = textOfMessage(view[0]);
  const latestIndex = lastRequest(view, keepFrom);
  const latest = latestIndex > 0 ? textOfMessage(view[latestIndex]) : "";
  const note =
    `[earlier conversation cut: ${removed} message${removed === 1 ? "" : "s"} removed to fit the context window` +
    (latest ? "; the user's latest request follows]" : "]");
  const head = [clip(first, chars), note, ...(latest ? [clip(latest, chars)] : [])].join("\n\n");
  return { messages: [headMessage(head), ...view.slice(keepFrom)], keepFrom, head, note };
}

/**
 * The latest request of the part being summarised, clipped: a user message's text, or the request an
 * earlier summary carried when that part holds none. Empty when the request is in the kept tail.
 */
function latestRequest(view: readonly Message[], head: number, keepFrom: number, oldHead: string | null, chars: number): string {
  if (lastRequest(view, view.length) >= keepFrom) return "";
  const index = lastRequest(view, keepFrom);
  if (index >= head) return clip(textOfMessage(view[index]), chars);
  const at = oldHead?.indexOf(`${REQUEST_MARK}\n`) ?? -1;
  return at >= 0 ? oldHead!.slice(at + REQUEST_MARK.length + 1) : "";
}

/** The last user message before `end` with text of its own (a request, not only tool results). */
function lastRequest(view: readonly Message[], end: number): number {
  for (let i = end - 1; i >= 0; i--) {
    if (view[i]!.role === "user" && view[i]!.content.some((b) => b.type === "text")) return i;
  }
  return -1;
}

export function transcriptOf(messages: readonly Message[]): string {
  return messages
    .flatMap((m) => m.content.map((b) => blockLine(m.role, b)))
    .filter((line) => line !== "")
    .join("\n\n");
}

function blockLine(role: Message["role"], block: ContentBlock): string {
  if (block.type === "text") return `${role === "user" ? "User" : "Assistant"}: ${(block as { text: string }).text}`;
  if (block.type === "tool_use") {
    const call = block as { name: string; input: unknown };
    return `Assistant called ${call.name}: ${clip(JSON.stringify(call.input), 1_000)}`;
  }
  if (block.type === "tool_result") {
    const result = block as { content: unknown; is_error?: boolean };
    const text = typeof result.content === "string" ? result.content : textOf(result.content as ContentBlock[], "\n");
    return `Tool result${result.is_error ? " (error)" : ""}: ${clip(text, 2_000)}`;
  }
  if (block.type === "image") return `${role === "user" ? "User" : "Tool"}: [an image]`;
  return "";
}

function textOfMessage(message: Message | undefined): string {
  return message ? textOf(message.content, "\n") : "";
}
