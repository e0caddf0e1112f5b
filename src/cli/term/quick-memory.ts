// `# note` typed in the terminal saves the note as a project memory, `#~ note` as a user one
// (every project); it is not sent to the model. `##` and `#word` stay prompts (a heading, a tag).
// /memory lists what the session read and remembers; /memory edit NAME opens one in $EDITOR.
import chalk from "chalk";
import { homedir } from "node:os";
import { instructionSources, loadInstructions } from "../../app/factory.ts";
import { findMemory, listMemories, memoryDirs, quickMemory } from "../../app/memory.ts";
import { editMemory } from "../memory-command.ts";
import { instructionCap, reinDirs, type Context } from "../../app/context.ts";

/** What to print when the line was a memory, or undefined when it is a prompt. */
export async function quickMemoryLine(line: string, ctx: Pick<Context, "paths" | "projectRoot">): Promise<string | undefined> {
  const match = /^#(~?)\s+([\s\S]+)$/.exec(line.trim());
  if (!match) return undefined;
  const scope = match[1] ? "user" : "project";
  const saved = await quickMemory(memoryDirs(ctx.paths.dataDir, ctx.projectRoot), scope, match[2]!);
  if (typeof saved === "string") return chalk.red(saved);
  return chalk.dim(`remembered for ${scope === "user" ? "every project" : "this project"}: ${saved.name} (${saved.file}); sessions read it from the next one (this one after /memory reload)`);
}

/** "type feedback, this project" / "type user, every project": a memory's type and where it counts, each named. */
export function memoryLabel(m: { type: string; scope: string }): string {
  return `type ${m.type}, ${m.scope === "user" ? "every project" : "this project"}`;
}

/** What /memory shows: the instruction files this session read (and what was cut), and the memories. */
export function memoryReport(ctx: Context): string {
  const max = instructionCap(ctx.env);
  const home = ctx.env.HOME || homedir();
  const sources = instructionSources({ projectRoot: ctx.projectRoot, userInstructions: ctx.paths.userInstructions, cwd: ctx.cwd, home, reinDirs: reinDirs(ctx), trusted: ctx.trusted, ...(max ? { instructionMaxBytes: max } : {}) });
  const { files, warnings } = loadInstructions(sources);
  const dirs = memoryDirs(ctx.paths.dataDir, ctx.projectRoot);
  const { memories, broken } = listMemories(dirs);
  const lines = ["instruction files:", ...(files.length ? files.map((f) => `  ${f.path} (${f.scope}${f.cut ? ", cut" : ""}${f.imports.length ? `, ${f.imports.length} import${f.imports.length === 1 ? "" : "s"}` : ""})`) : ["  none"])];
  lines.push(...warnings.map((w) => `  ! ${w}`));
  lines.push(`memories (${dirs.project}, ${dirs.user}):`, ...(memories.length ? memories.map((m) => `  ${m.name} (${memoryLabel(m)}): ${m.description}`) : ["  none yet (# NOTE saves one)"]));
  lines.push(...broken.map((b) => `  ! ${b.file}: ${b.problem}`));
  lines.push("edit with: rein memory edit NAME; changes count from the next session, or now after /memory reload");
  return chalk.dim(lines.join("\n"));
}

/** /memory edit NAME: the memory in $VISUAL or $EDITOR, the terminal lent to it; what came of it. */
export async function memoryEditLine(ctx: Pick<Context, "paths" | "projectRoot" | "env">, name: string, lend: (run: () => void) => void): Promise<string> {
  const dirs = memoryDirs(ctx.paths.dataDir, ctx.projectRoot);
  const memory = findMemory(dirs, name);
  if (!memory) return chalk.yellow(`no memory named "${name}": /memory lists them`);
  const edited = await editMemory(dirs, memory.file, ctx.env, lend);
  return edited.saved ? chalk.dim(`${edited.message}; sessions read it from the next one (this one after /memory reload)`) : chalk.red(edited.message);
}
