// What a session gets from the memory store: the index for its prompt, the memory tool, and the
// rule that lets the tool write the memory folders (and nothing else) without asking.
import { join } from "node:path";
import type { Rule } from "../permission/evaluate.ts";
import type { Tool } from "../sdk.ts";
import { memoryTool } from "./memory-tool.ts";
import { memoryPrompt } from "./prompt.ts";
import { memoryDirs } from "./store.ts";

export type SessionMemory = { prompt: string[]; tool: Tool; rules: Rule[] };

export function sessionMemory(dataDir: string, projectRoot: string, warn?: (message: string) => void): SessionMemory {
  const dirs = memoryDirs(dataDir, projectRoot);
  const warnings: string[] = [];
  const prompt = memoryPrompt(dirs, warnings);
  for (const warning of warnings) warn?.(warning);
  const rules: Rule[] = [dirs.project, dirs.user].map((dir) => ({ permission: "memory", pattern: join(dir, "*"), action: "allow", source: "built-in default" }));
  return { prompt, tool: memoryTool(dirs), rules };
}
