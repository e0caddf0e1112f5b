// `# note` typed in the terminal saves the note as a project memory, `#~ note` as a user one
// (every project); it is not sent to the model. `##` and `#word` stay prompts (a heading, a tag).
import chalk from "chalk";
import { memoryDirs, quickMemory } from "../../session/memory.ts";
import type { Context } from "../context.ts";

/** What to print when the line was a memory, or undefined when it is a prompt. */
export async function quickMemoryLine(line: string, ctx: Pick<Context, "paths" | "projectRoot">): Promise<string | undefined> {
  const match = /^#(~?)\s+([\s\S]+)$/.exec(line.trim());
  if (!match) return undefined;
  const scope = match[1] ? "user" : "project";
  const saved = await quickMemory(memoryDirs(ctx.paths.dataDir, ctx.projectRoot), scope, match[2]!);
  if (typeof saved === "string") return chalk.red(saved);
  return chalk.dim(`remembered for ${scope === "user" ? "every project" : "this project"}: ${saved.name} (${saved.file}); sessions read it from the next one`);
}
