// The memory store: a folder per project under rein's data folder (never in the repository, so
// nothing is committed by accident) and one for the user, each holding MEMORY.md (one line per
// memory) and one Markdown file per memory. Writes take the folder's lock, go to a temporary file
// and are renamed into place, so two processes writing at once lose nothing.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { formatMemory, parseMemory, type MemoryMeta, type MemoryType } from "./front-matter.ts";
import { withLock } from "./lock.ts";
import { secretIn } from "./secrets.ts";
import { missingFile, readOwnText, readProblem } from "../sdk/own-file.ts";
import { INDEX, readIndex, type MemoryDirs, type MemoryScope } from "./index-file.ts";

export { INDEX, memoryDirs, readIndex, type MemoryDirs, type MemoryScope } from "./index-file.ts";

export type Memory = MemoryMeta & { scope: MemoryScope; file: string; text: string };
export type BrokenMemory = { scope: MemoryScope; file: string; problem: string };
export type MemoryInput = { name: string; description: string; type: MemoryType; text: string; source?: string };

export function slug(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "memory";
}

/** A memory folder that cannot be read (a file where the folder should be, no permission): why, in one line. */
export type FolderProblem = { scope: MemoryScope; dir: string; problem: string };

/** Every memory in both folders, the files whose front matter cannot be read (listed, never dropped), and folders that cannot be read. */
export function listMemories(dirs: MemoryDirs): { memories: Memory[]; broken: BrokenMemory[]; folders: FolderProblem[] } {
  const memories: Memory[] = [];
  const broken: BrokenMemory[] = [];
  const folders: FolderProblem[] = [];
  for (const scope of ["project", "user"] as const) {
    const names = memoryFiles(dirs[scope]);
    if (typeof names === "string") {
      folders.push({ scope, dir: dirs[scope], problem: names });
      continue;
    }
    for (const name of names) {
      const file = join(dirs[scope], name);
      let text: string | undefined;
      try {
        text = readIfThere(file);
      } catch (error) {
        broken.push({ scope, file, problem: readProblem(error) });
        continue;
      }
      if (text === undefined) continue; // removed by another process since the listing
      const parsed = parseMemory(text);
      if (typeof parsed === "string") broken.push({ scope, file, problem: parsed });
      else memories.push({ ...parsed.meta, scope, file, text: parsed.text });
    }
  }
  return { memories, broken, folders };
}

function readIfThere(file: string): string | undefined {
  try {
    return readOwnText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A memory by its name or file name, project ones first. */
export function findMemory(dirs: MemoryDirs, name: string): Memory | undefined {
  const wanted = slug(name.replace(/\.md$/, ""));
  return listMemories(dirs).memories.find((m) => basename(m.file, ".md") === wanted || slug(m.name) === wanted);
}

/** Writes a memory (a new one, or the one of that name) and its index line; a sentence when it cannot. */
export async function saveMemory(dirs: MemoryDirs, scope: MemoryScope, input: MemoryInput, now = new Date()): Promise<Memory | string> {
  const secret = secretIn(`${input.name}\n${input.description}\n${input.text}`);
  if (secret) return `not saved: the memory holds what looks like a secret (${secret}); memories never keep secrets, so write it without the value`;
  const dir = dirs[scope];
  // The name and description are one index line each: a line break in them would break MEMORY.md.
  const line = (text: string) => text.replace(/\s+/g, " ").trim();
  const meta: MemoryMeta = { name: line(input.name), description: line(input.description), type: input.type, updated: now.toISOString(), ...(input.source ? { source: input.source } : {}) };
  const file = join(dir, `${slug(meta.name)}.md`);
  return writing(dir, async () => {
    await withLock(dir, () => {
      atomicWrite(file, formatMemory(meta, input.text));
      editIndex(dir, basename(file), `- [${meta.name}](${basename(file)}) (${meta.type}): ${meta.description || firstLine(input.text)}`);
    });
    return { ...meta, scope, file, text: input.text.trim() };
  });
}

export async function removeMemory(dirs: MemoryDirs, memory: Pick<Memory, "scope" | "file">): Promise<string | undefined> {
  const dir = dirs[memory.scope];
  return writing(dir, async () => {
    await withLock(dir, () => {
      rmSync(memory.file, { force: true });
      editIndex(dir, basename(memory.file), undefined);
    });
    return undefined;
  });
}

/** Replaces (or removes, or adds at the end) the index line that links to `file`; other lines, written by hand, stay. */
function editIndex(dir: string, file: string, line: string | undefined): void {
  const lines = readIndex(dir).split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  const at = lines.findIndex((l) => l.includes(`](${file})`));
  if (at >= 0) line ? lines.splice(at, 1, line) : lines.splice(at, 1);
  else if (line) lines.push(line);
  atomicWrite(join(dir, INDEX), lines.length ? `${lines.join("\n")}\n` : "");
}

function atomicWrite(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

async function writing<T>(dir: string, work: () => Promise<T>): Promise<T | string> {
  try {
    mkdirSync(dir, { recursive: true });
    return await work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EROFS" || code === "EACCES" || code === "EPERM") return `not saved: the memory folder ${dir} cannot be written (${code}); make it writable, or set REIN_DATA_DIR to a folder that is`;
    if (code === "ENOTDIR" || code === "EEXIST") return `not saved: ${folderProblem(dir, code)}`;
    return `not saved: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The folder's memory files; none when it does not exist yet; why not, when it cannot be read. */
function memoryFiles(dir: string): string[] | string {
  try {
    return readdirSync(dir).filter((name) => name.endsWith(".md") && name !== INDEX && !name.startsWith(".")).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [];
    return folderProblem(dir, code);
  }
}

/** Why `dir` cannot be a memory folder, naming the file that stands where a folder should be. */
export function folderProblem(dir: string, code: string | undefined): string {
  if (code === "ENOTDIR" || code === "EEXIST") {
    let at = dir;
    while (dirname(at) !== at && !isFile(at)) at = dirname(at);
    return `the memory folder ${dir} cannot be used: ${isFile(at) ? at : "a part of its path"} is a file, not a folder; move or remove that file (or set REIN_DATA_DIR to another folder)`;
  }
  return `the memory folder ${dir} cannot be read (${code ?? "unknown error"}); make it readable, or set REIN_DATA_DIR to a folder that is`;
}

function isFile(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]!.slice(0, 120);
}
