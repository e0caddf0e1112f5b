// rein memory list | show NAME | edit NAME | rm NAME: the memories the model reads, by hand.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { findMemory, listMemories, memoryDirs, parseMemory, removeMemory, saveMemory, type MemoryDirs } from "../app/memory.ts";
import { UsageError } from "../app/args.ts";
import type { Context } from "../app/context.ts";
import { out, warn } from "../app/output.ts";
import { readOwnText } from "../sdk/own-file.ts";
import { memoryLabel } from "./term/quick-memory.ts";

export async function memoryCommand(rest: readonly string[], ctx: Context): Promise<number> {
  const [action = "list", name] = rest;
  const dirs = memoryDirs(ctx.paths.dataDir, ctx.projectRoot);
  if (action === "list") return list(dirs);
  if (!["show", "edit", "rm"].includes(action)) throw new UsageError(`unknown action "${action}": rein memory list | show NAME | edit NAME | rm NAME`);
  if (!name) throw new UsageError(`rein memory ${action} needs the memory's name (rein memory list names them)`);
  const memory = findMemory(dirs, name);
  // Not found is an error: on stderr, so `rein memory show NAME > file` never writes it into the file.
  if (!memory) {
    warn(`no memory named "${name}" in ${dirs.project} or ${dirs.user}; rein memory list names them`);
    return 1;
  }
  if (action === "show") {
    out(`${memory.file}\n\n${readOwnText(memory.file)}`);
    return 0;
  }
  if (action === "rm") {
    const failed = await removeMemory(dirs, memory);
    if (failed) return warn(failed), 1;
    out(`removed ${memory.name} (${memory.file})\n`);
    return 0;
  }
  return edit(dirs, memory.file, ctx.env);
}

function list(dirs: MemoryDirs): number {
  const { memories, broken, folders } = listMemories(dirs);
  out(`project memories: ${dirs.project}\nuser memories: ${dirs.user}\n`);
  for (const f of folders) warn(f.problem);
  if (!memories.length && !broken.length && !folders.length) out("\nno memories yet\n");
  for (const m of memories) out(`\n${m.name}  (${memoryLabel(m)}, updated ${m.updated.slice(0, 10) || "?"})\n  ${m.description}\n`);
  for (const b of broken) out(`\n${b.file}  (${b.scope}): unreadable, ${b.problem}; fix it with rein memory edit or remove it\n`);
  return folders.length ? 1 : 0;
}

/** Opens $VISUAL or $EDITOR on the file, then saves it again (index line, `updated`, the secret check); a bad edit is undone. */
async function edit(dirs: MemoryDirs, file: string, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const edited = await editMemory(dirs, file, env, (run) => run());
  out(`${edited.message}\n`);
  return edited.saved ? 0 : 1;
}

/**
 * The edit of one memory file in the user's editor, which `lend` runs with the terminal (the
 * interactive terminal lends its own); the file is checked and saved again, or put back as it was.
 */
export async function editMemory(
  dirs: MemoryDirs,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  lend: (run: () => void) => void,
): Promise<{ saved: boolean; message: string }> {
  const before = readOwnText(file);
  const editor = env.VISUAL || env.EDITOR || "vi";
  let run: ReturnType<typeof spawnSync> | undefined;
  lend(() => void (run = spawnSync("sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit", env: { ...process.env, ...env } })));
  if (run?.status !== 0) {
    writeFileSync(file, before);
    return { saved: false, message: `the editor (${editor}) exited with ${run?.status ?? run?.signal}; the memory is as it was` };
  }
  const parsed = parseMemory(readOwnText(file));
  const scope = file.startsWith(dirs.user) ? "user" : "project";
  const saved = typeof parsed === "string" ? `not saved: ${parsed}` : await saveMemory(dirs, scope, { ...parsed.meta, text: parsed.text });
  if (typeof saved === "string") {
    writeFileSync(file, before);
    return { saved: false, message: `${saved}; the memory is as it was` };
  }
  // A renamed memory is saved under its new name's file: the old file and its index line go.
  const renamed = saved.file !== file ? await removeMemory(dirs, { scope, file }) : undefined;
  if (renamed) return { saved: true, message: `saved ${saved.name} (${saved.file}); the old file ${file} stays: ${renamed}` };
  return { saved: true, message: `saved ${saved.name} (${saved.file})` };
}
