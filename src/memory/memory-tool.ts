// The memory tool: the model lists, reads, adds, updates and removes memories. Its permission is
// `memory` on the memory file's path, allowed by default for the memory folders only.
import * as v from "valibot";
import { defineTool, type Tool } from "../sdk.ts";
import { MEMORY_TYPES } from "./front-matter.ts";
import { findMemory, listMemories, removeMemory, saveMemory, slug, type MemoryDirs } from "./store.ts";
import { join } from "node:path";

const Input = v.object({
  action: v.picklist(["list", "read", "add", "update", "remove"]),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(120))),
  description: v.optional(v.string()),
  type: v.optional(v.picklist(MEMORY_TYPES)),
  text: v.optional(v.string()),
  scope: v.optional(v.picklist(["project", "user"]), "project"),
});

const DESCRIPTION = `Durable notes across sessions, outside the repository. action: list, read (name), add or update (name, description: one index line, type, text), remove (name); scope project (default) or user (every project). Never store secrets. A change counts from the next session.`;

export function memoryTool(dirs: MemoryDirs): Tool {
  return defineTool({
    name: "memory",
    description: DESCRIPTION,
    input: Input,
    permissions: (input) => [{ permission: "memory", pattern: join(dirs[input.scope], input.name ? `${slug(input.name)}.md` : "MEMORY.md"), always: [join(dirs[input.scope], "*")] }],
    async run(input) {
      if (input.action === "list") return { output: listing(dirs) };
      if (!input.name) return { output: `The ${input.action} action needs a name.`, isError: true };
      const found = findMemory(dirs, input.name);
      if (input.action === "read") return found ? { output: `${found.name} (${found.type}, ${found.scope}, updated ${found.updated}${found.source ? `, written by ${found.source}` : ""}; from ${found.file}):\n${found.text}` } : missing(input.name);
      if (input.action === "remove") {
        if (!found) return missing(input.name);
        const failed = await removeMemory(dirs, found);
        return failed ? { output: failed, isError: true } : { output: `Removed the memory "${found.name}".` };
      }
      if (input.action === "update" && !found) return missing(input.name);
      const text = input.text ?? found?.text;
      const type = input.type ?? found?.type;
      if (!text?.trim() || !type) return { output: "add needs text and a type (user, project, feedback or reference).", isError: true };
      const saved = await saveMemory(dirs, found?.scope ?? input.scope, { name: found?.name ?? input.name, description: input.description ?? found?.description ?? "", type, text });
      return typeof saved === "string" ? { output: saved, isError: true } : { output: `Saved the memory "${saved.name}" (${saved.scope}) to ${saved.file}; it is in the index from the next session.` };
    },
  });
}

function listing(dirs: MemoryDirs): string {
  const { memories, broken, folders } = listMemories(dirs);
  const lines = memories.map((m) => `- ${m.name} (${m.type}, ${m.scope}): ${m.description}`);
  for (const b of broken) lines.push(`- ${b.file}: unreadable, ${b.problem}`);
  for (const f of folders) lines.push(`- ${f.scope} memories: ${f.problem}`);
  return lines.length ? lines.join("\n") : "No memories yet.";
}

function missing(name: string) {
  return { output: `No memory named "${name}"; the list action names them all.`, isError: true };
}
