// The session's title, as OpenCode and Claude Code name theirs: after the first turn, a hidden call
// (no tools, a short reply, not part of the conversation) turns the first prompt and the start of
// the answer into a few words, stored as the row's title and said in a `title` event. Until then,
// and when the call fails, the title is the first prompt's first line (prepare-prompt.ts).
import titlePrompt from "../../prompts/title.txt" with { type: "text" };
import type { StreamFn, Usage } from "../agent/types.ts";
import { costFunction } from "../llm/providers.ts";
import { clip } from "./clip.ts";
import type { SessionCore } from "./session-core.ts";

/** How the request opens its system prompt: the scripted fake model tells title calls apart by it. */
export const TITLE_PROMPT_START = titlePrompt.split("\n")[0]!;

export type TitleDeps = { stream: StreamFn; model: string; costOf: (usage: Usage) => number | null };

/** The title the model gives, with the call's usage and cost; no title when the call failed or said nothing usable. */
export async function titleCall(deps: TitleDeps, prompt: string, answer: string, signal: AbortSignal): Promise<{ title?: string; usage?: Usage; cost_usd?: number | null }> {
  const request = {
    model: deps.model,
    system: titlePrompt,
    messages: [{ role: "user" as const, content: [{ type: "text" as const, text: `<request>\n${clip(prompt, 4000)}\n</request>\n<answer>\n${clip(answer, 1000)}\n</answer>` }] }],
    tools: [],
    max_tokens: 40,
  };
  try {
    for await (const event of deps.stream(request, signal)) {
      if (event.type === "error") return {};
      if (event.type === "done") {
        const text = event.content.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("");
        const title = cleanTitle(text);
        return { ...(title ? { title } : {}), usage: event.usage, cost_usd: deps.costOf(event.usage) };
      }
    }
  } catch {
    // a failed call leaves the first line as the title
  }
  return {};
}

/** The reply's first line without quotes, markup or a closing full stop; undefined when nothing is left. */
export function cleanTitle(text: string): string | undefined {
  const line = text.trim().split("\n")[0]!.trim();
  const bare = line
    .replace(/^(title|session title)\s*:\s*/i, "")
    .replace(/^[#*_`"'“”‘’\s]+|[*_`"'“”‘’\s]+$/g, "")
    .replace(/[.。]$/, "")
    .trim();
  if (!bare) return undefined;
  return bare.length > 80 ? `${bare.slice(0, 77)}...` : bare;
}

/**
 * Names the session after its first turn: the title stored on the row and said in a `title` event
 * (with the call's usage and price). A title set meanwhile by someone else is kept.
 */
export async function nameSession(core: SessionCore, prompt: string, answer: string, signal: AbortSignal): Promise<void> {
  const { options } = core;
  const before = options.store.getSession(core.id)?.title ?? null;
  const named = await titleCall({ stream: options.stream, model: options.model, costOf: costFunction(options.model, options.models) }, prompt, answer, AbortSignal.any([signal, AbortSignal.timeout(30_000)]));
  if (signal.aborted) return;
  if (!named.title && !named.usage) return;
  const now = options.store.getSession(core.id)?.title ?? null;
  if (now !== before) return;
  try {
    if (named.title) options.store.updateSession(core.id, { title: named.title });
    core.emit({ type: "title", title: named.title ?? before ?? "", ...(named.usage ? { usage: named.usage, cost_usd: named.cost_usd ?? null } : {}) });
  } catch {
    // the store is gone (the front end closed it): the first line stays the title
  }
}
