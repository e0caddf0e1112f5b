// A compaction asked for by the user (/compact, print mode's --compact): the whole conversation is
// summarised, and the result is kept only when it makes the conversation smaller. Says what it did
// in one line.
import { COMPACT_TO, fixedTokens, requestTokens } from "../agent/context-size.ts";
import { toolDefinition } from "../agent/tool-schema.ts";
import type { Compacted, CompactInput, EventOf, Message, Usage } from "../agent/types.ts";
import type { Tool } from "../sdk.ts";
import { WORTH_COMPACTING } from "./compaction.ts";

/** What a manual compaction did, with one line saying so; `usage` is the summary call's, when one was made. */
export type CompactOutcome = (
  | { type: "compacted"; event: EventOf<"compaction"> }
  | { type: "nothing" }
  | { type: "stopped" }
) & { text: string; usage?: Usage };

export type ManualDeps = {
  tools: readonly Tool[];
  system: string;
  /** the usable window in tokens */
  usable: number;
  /** runs the compaction; `heard` receives the compaction event when one is kept */
  compact: (input: CompactInput, heard: (event: EventOf<"compaction">) => void) => Promise<Compacted | undefined>;
};

/** Compacts `view`; with "compacted", `messages` is the view to go on with. */
export async function compactManually(view: readonly Message[], deps: ManualDeps, signal: AbortSignal): Promise<CompactOutcome & { messages?: Message[] }> {
  const fixed = fixedTokens({ system: deps.system, tools: deps.tools.map(toolDefinition) });
  const tokens = requestTokens(view, fixed, undefined);
  if (view.length < 2 || tokens - fixed < WORTH_COMPACTING) return { type: "nothing", text: nothingLine(tokens) };
  let reported: EventOf<"compaction"> | undefined;
  const input: CompactInput = { messages: [...view], tokens, target: Math.floor(deps.usable * COMPACT_TO), fixed, reason: "manual" };
  const compacted = await deps.compact(input, (event) => (reported = event));
  const spent = compacted?.usage ? { usage: compacted.usage } : {};
  if (signal.aborted && !reported) return { type: "stopped", text: "interrupted before the compaction was done; the conversation is as it was", ...spent };
  if (!compacted || !reported) return { type: "nothing", text: nothingLine(tokens), ...spent };
  return { type: "compacted", event: reported, text: compactionLine(reported), messages: compacted.messages, ...spent };
}

/** "nothing worth compacting: ...": a compaction would not have made the conversation smaller. */
function nothingLine(tokens: number): string {
  return `nothing worth compacting: the conversation (~${tokens} tokens with the system prompt and tools) would not get smaller`;
}

/** "compacted: ~12000 -> ~3100 tokens (summarised)": what a manual compaction did, in one line. */
function compactionLine(event: EventOf<"compaction">): string {
  const how =
    event.method === "summary"
      ? "summarised"
      : event.method === "cut"
        ? "cut: the summary call failed or did not fit, so the oldest turns were left out"
        : "old tool outputs pruned";
  return `compacted: ~${event.tokens_before} -> ~${event.tokens_after} tokens (${how})`;
}
