// A memory from one line typed by a person (`# always use pnpm` in the terminal): named after its
// first words, typed `user` for the user's scope and `project` for the project's.
import { saveMemory, type Memory, type MemoryDirs, type MemoryScope } from "./store.ts";

export async function quickMemory(dirs: MemoryDirs, scope: MemoryScope, line: string, now = new Date()): Promise<Memory | string> {
  const text = line.trim();
  if (!text) return "nothing to remember: type # and then the note";
  const name = text.split(/\s+/).slice(0, 6).join(" ").replace(/[.,;:!?]+$/, "").slice(0, 60);
  return saveMemory(dirs, scope, { name, description: text.split("\n")[0]!.slice(0, 120), type: scope === "user" ? "user" : "project", text }, now);
}
