// memory.auto at the end of a session (the terminal's exit, the end of a print run): what the one
// model call kept, or why it kept nothing, as one line for stderr. It never changes the exit code.
import type { Session, SessionOptions } from "../session/session.ts";
import { printable } from "./printable.ts";

export type EndMemoryContext = { dataDir: string; projectRoot: string; stream: SessionOptions["stream"]; env: Readonly<Record<string, string | undefined>> };

/** The line to print, or undefined when there was nothing to say (no fact worth keeping). */
export async function sessionEndMemoryLine(session: Session, ctx: EndMemoryContext, signal?: AbortSignal): Promise<string | undefined> {
  // REIN_MEMORY_AUTO_TIMEOUT_MS: tests shorten the bound (20 s by default)
  const timeoutMs = Number(ctx.env.REIN_MEMORY_AUTO_TIMEOUT_MS) || undefined;
  // Loaded only when memory.auto is on and a session ends: a run without it loads none of it.
  const { autoMemories, memoryDirs } = await import("../app/memory.ts");
  const outcome = await autoMemories({
    stream: ctx.stream,
    model: session.model,
    messages: session.history(),
    dirs: memoryDirs(ctx.dataDir, ctx.projectRoot),
    sessionId: session.id,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(signal ? { signal } : {}),
  });
  if ("error" in outcome) return oneLine(`memory.auto kept nothing from this session: ${outcome.error}`);
  const skipped = outcome.skipped.length ? ` (left out: ${outcome.skipped.join("; ")})` : "";
  if (outcome.saved.length === 0) return skipped ? oneLine(`memory.auto kept nothing new${skipped}`) : undefined;
  const names = outcome.saved.map((m) => m.name).join(", ");
  return oneLine(`memory.auto remembered ${outcome.saved.length} fact${outcome.saved.length === 1 ? "" : "s"} from this session: ${names}${skipped} (rein memory list)`);
}

/** The names come from the model and the error from a server: one line, nothing the terminal would act on. */
function oneLine(text: string): string {
  return printable(text.replace(/\s+/g, " ").trim());
}
