// Instruction files in folders below the working directory are read when the model first reads or
// edits a file below them; their text goes beside that call's result (an after-call handler), so
// the system prompt, and the cached prefix, never change mid-session.
import { isAbsolute, resolve } from "node:path";
import type { AfterToolCall, ToolCallDone } from "../agent/types.ts";
import { INSTRUCTION_CAP_BYTES, instructionBlock, loadFolderInstructions, type InstructionSources, type LoadedInstructions } from "./instructions.ts";

const FILE_TOOLS = new Set(["read", "edit", "write"]);

/** `loaded`: the files the system prompt carries; a copy of what it saw grows as folders are met. */
export function folderInstructions(sources: InstructionSources, loaded: LoadedInstructions): (call: ToolCallDone, signal?: AbortSignal) => Promise<AfterToolCall | undefined> {
  const seen = { real: new Set(loaded.seen.real), texts: new Set(loaded.seen.texts) };
  return async (call) => {
    const path = FILE_TOOLS.has(call.name) ? (call.input as { path?: unknown } | null)?.path : undefined;
    if (typeof path !== "string" || !path) return undefined;
    const file = isAbsolute(path) ? path : resolve(sources.cwd, path);
    const { files, warnings } = loadFolderInstructions(file, sources, seen);
    if (!files.length && !warnings.length) return undefined;
    const cap = sources.maxBytes ?? INSTRUCTION_CAP_BYTES;
    const lead = "rein: this file is in a folder with its own instruction files; they apply to work in that folder:";
    return { context: [lead, ...files.map((f) => instructionBlock(f, cap)), ...warnings.map((w) => `rein: ${w}`)].join("\n\n") };
  };
}
