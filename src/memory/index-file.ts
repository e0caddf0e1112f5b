// Where a project's and the user's memories are, and their index (MEMORY.md) as it is on disk: what
// a session's prompt needs at start, without the store's writers and readers of memories (store.ts).
import { basename, join } from "node:path";
import { digestHex } from "../sdk/digest.ts";
import { missingFile, readOwnText, readProblem } from "../sdk/own-file.ts";

export type MemoryScope = "project" | "user";
export type MemoryDirs = Record<MemoryScope, string>;

export const INDEX = "MEMORY.md";

/** The project's folder is named after it and a hash of its path: two checkouts of one name stay apart. */
export function memoryDirs(dataDir: string, projectRoot: string): MemoryDirs {
  const hash = digestHex("sha1", projectRoot).slice(0, 12);
  return { project: join(dataDir, "memory", "projects", `${basename(projectRoot) || "root"}-${hash}`), user: join(dataDir, "memory", "user") };
}

/** The index as it is on disk ("" when there is none; `warnings` hears why when it cannot be read). */
export function readIndex(dir: string, warnings?: string[]): string {
  const file = join(dir, INDEX);
  try {
    return readOwnText(file);
  } catch (error) {
    if (warnings && !missingFile(error)) warnings.push(`${file}: skipped: ${readProblem(error)}`);
    return "";
  }
}
