// A bounded tree of a folder: read breadth-first, so a cut keeps the top levels whole.
import * as v from "valibot";
import { defineTool } from "rein/tool";
import description from "../prompts/tools/list.txt" with { type: "text" };
import { pathRequests } from "./lib/path-requests.ts";
import { INTERRUPTED, notAFolder, searchRoot } from "./lib/search-root.ts";
import { shownName } from "./lib/shown-name.ts";
import { readFolder, rootFolder, subfolder, type Entry, type Folder } from "./lib/walk.ts";

const DEFAULT_DEPTH = 3;
const MAX_DEPTH = 6;
const LIMIT = 300;

export default defineTool({
  name: "list",
  description,
  input: v.object({
    path: v.optional(v.string()),
    depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_DEPTH))),
  }),
  readOnly: true,
  permissions: ({ path }, ctx) => pathRequests("read", path ?? ".", ctx.cwd),
  async run({ path, depth = DEFAULT_DEPTH }, ctx) {
    const where = await searchRoot(path, ctx.cwd);
    if ("error" in where) return { output: where.error, isError: true };
    if (where.isFile) return notAFolder(path);
    const { shown, cut } = await collect(await rootFolder(where.root), depth, ctx.signal);
    if (ctx.signal.aborted) return INTERRUPTED;
    const lines = [`${shownName(where.root.replace(/\/$/, ""))}/`, ...render(shown, "")];
    if (lines.length === 1) lines.push("  (empty)");
    if (cut) lines.push(`(cut at ${LIMIT} entries; list a subfolder or pass a lower depth to see the rest)`);
    return lines.join("\n");
  },
});

/** Each folder's shown entries by its relative path, level by level until the limit. */
async function collect(root: Folder, depth: number, signal: AbortSignal) {
  const shown = new Map<string, Entry[]>();
  const queue = [root];
  let count = 0;
  for (let next = 0; next < queue.length && !signal.aborted; next++) {
    const folder = queue[next]!;
    const { entries, rules } = await readFolder(folder);
    const kept = entries.slice(0, LIMIT - count);
    shown.set(folder.rel, kept);
    count += kept.length;
    if (kept.length < entries.length) return { shown, cut: true };
    for (const entry of kept) {
      if (entry.kind === "dir" && entry.depth < depth) queue.push(subfolder(entry, rules));
    }
  }
  return { shown, cut: false };
}

function render(shown: Map<string, Entry[]>, rel: string): string[] {
  return (shown.get(rel) ?? []).flatMap((entry) => [
    `${"  ".repeat(entry.depth)}${shownName(entry.name)}${entry.kind === "dir" ? "/" : ""}`,
    ...(entry.kind === "dir" ? render(shown, entry.rel) : []),
  ]);
}
