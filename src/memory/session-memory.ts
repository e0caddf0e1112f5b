// What a session gets from the memory store: the index for its prompt, the memory tool, and the
// rule that lets the tool write the memory folders (and nothing else) without asking. In the
// compiled binary the tool starts as a lazy tool made from what build.ts computed: its module and
// the store's writers load with its first call.
import { join } from "node:path";
import { lazyTool, type ToolSpec } from "../agent/lazy-tool.ts";
import type { Rule } from "../permission/evaluate.ts";
import type { Tool } from "../sdk.ts";
import { memoryDirs, type MemoryDirs } from "./index-file.ts";
import { memoryPrompt } from "./prompt.ts";

export type SessionMemory = { prompt: string[]; tool: Tool; rules: Rule[] };

declare const REIN_MEMORY_TOOL: ToolSpec | undefined;
const SPEC = typeof REIN_MEMORY_TOOL === "undefined" ? undefined : REIN_MEMORY_TOOL;
const toolModule = () => require("./memory-tool.ts") as typeof import("./memory-tool.ts");

export function sessionMemory(dataDir: string, projectRoot: string, warn?: (message: string) => void): SessionMemory {
  const dirs = memoryDirs(dataDir, projectRoot);
  const warnings: string[] = [];
  const prompt = memoryPrompt(dirs, warnings);
  for (const warning of warnings) warn?.(warning);
  const rules: Rule[] = [dirs.project, dirs.user].map((dir) => ({ permission: "memory", pattern: join(dir, "*"), action: "allow", source: "built-in default" }));
  return { prompt, tool: memoryTool(dirs), rules };
}

function memoryTool(dirs: MemoryDirs): Tool {
  return SPEC ? lazyTool(SPEC, async () => toolModule().memoryTool(dirs)) : toolModule().memoryTool(dirs);
}
