// The system prompt: prompts/system.txt, a line of environment, and the user's and the project's
// instructions (AGENTS.md, or CLAUDE.md when the project has no AGENTS.md).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import base from "../../prompts/system.txt" with { type: "text" };

export type InstructionSources = { projectRoot: string; userInstructions: string; cwd: string; now?: Date };

export function systemPrompt(sources: InstructionSources): string {
  const date = (sources.now ?? new Date()).toISOString().slice(0, 10);
  const parts = [base.trim(), `Workspace: ${sources.cwd} (${process.platform}), date ${date}.`];
  const user = readIfPresent(sources.userInstructions);
  if (user) parts.push(`Instructions from the user (${sources.userInstructions}):\n${user}`);
  const projectFile = ["AGENTS.md", "CLAUDE.md"].map((f) => join(sources.projectRoot, f)).find(existsSync);
  const project = projectFile ? readIfPresent(projectFile) : undefined;
  if (project) parts.push(`Instructions from the project (${projectFile}):\n${project}`);
  return parts.join("\n\n");
}

function readIfPresent(path: string): string | undefined {
  try {
    const text = readFileSync(path, "utf8").trim();
    return text || undefined;
  } catch {
    return undefined;
  }
}
