// A session's compaction: the PreCompact and PostCompact hooks around the summary call, the
// compaction event (which also sets how the history is sent from then on), and /compact's run of it.
import compactionPrompt from "../../prompts/compaction.txt" with { type: "text" };
import type { Compacted, CompactInput, EventOf } from "../agent/types.ts";
import { costFunction } from "../llm/providers.ts";
import { stateOf } from "./compacted-view.ts";
import type { CompactOutcome } from "./manual-compaction.ts";
import type { SessionCore } from "./session-core.ts";

// Compaction itself loads with the first compaction: a run that needs none loads none of it.
const compaction = () => require("./compaction.ts") as typeof import("./compaction.ts");

type Heard = (event: EventOf<"compaction">) => void;

export function compactWith(core: SessionCore, input: CompactInput, signal: AbortSignal, focus?: string, heard?: Heard): Promise<Compacted | undefined> {
  const hooks = core.hooks?.points;
  if (!hooks) return compactNow(core, input, signal, focus, heard);
  const trigger = input.reason === "manual" ? "manual" : "auto";
  return hooks.beforeCompact(trigger, focus ?? "", signal).then(async (before) => {
    if (before.block !== undefined) return undefined;
    let summary = "";
    const compacted = await compactNow(core, input, signal, focus, (event) => ((summary = event.summary), heard?.(event)));
    if (compacted) await hooks.afterCompact(trigger, summary, signal);
    return compacted;
  });
}

function compactNow(core: SessionCore, input: CompactInput, signal: AbortSignal, focus?: string, heard?: Heard): Promise<Compacted | undefined> {
  const { options } = core;
  return compaction().compactConversation(
    input,
    {
      stream: options.stream,
      model: options.model,
      prompt: compactionPrompt,
      usable: core.usable,
      maxTokens: options.maxTokens,
      costOf: costFunction(options.model, options.models),
      state: core.compaction,
      report: (event) => {
        const stamped = { ...event, outside_run: !core.inRun };
        core.emit(stamped);
        core.compaction = stateOf(stamped);
        heard?.(stamped);
      },
      ...(focus ? { focus } : {}),
    },
    signal,
  );
}

/** The whole conversation summarised now, the session's lease held (the terminal's /compact, print mode's --compact). */
export async function compactHeld(core: SessionCore, signal: AbortSignal, focus?: string): Promise<CompactOutcome> {
  const tools = await core.ownTools();
  const deps = { tools, system: core.options.system, usable: core.usable, compact: (input: CompactInput, heard: Heard) => compactWith(core, input, signal, focus, heard) };
  const { messages, ...outcome } = await (require("./manual-compaction.ts") as typeof import("./manual-compaction.ts")).compactManually(core.messages, deps, signal);
  if (messages) {
    core.messages.splice(0, core.messages.length, ...messages);
    core.storedSize = undefined;
  }
  return outcome;
}
