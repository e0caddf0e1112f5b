// The system prompt: prompts/system.txt, a line of environment, then each extension's part (the
// instruction files and the memory index from memory/). Built once per session, so it stays in the
// cached prefix: a memory written or an instruction file edited mid-session counts from the next.
import base from "../../prompts/system.txt" with { type: "text" };
import { instructionsPrompt, type InstructionSources, type LoadedInstructions } from "../memory/instructions.ts";

/** `loaded`: the instruction files when the caller read them already (for their warnings too). */
export function systemPrompt(sources: InstructionSources, extra: readonly string[] = [], loaded?: LoadedInstructions): string {
  const date = (sources.now ?? new Date()).toISOString().slice(0, 10);
  const parts = [base.trim(), `Workspace: ${sources.cwd} (${process.platform}), date ${date}.`];
  return [...parts, ...instructionsPrompt(sources, loaded), ...extra].join("\n\n");
}
