// Finds files whose path matches a glob, skipping gitignored ones; newest first when all fit in the
// output, else the first ones in path order.
import { stat } from "node:fs/promises";
import * as v from "valibot";
import { defineTool } from "rein/tool";
import description from "../prompts/tools/glob.txt" with { type: "text" };
import { pathRequests } from "./lib/path-requests.ts";
import { INTERRUPTED, notAFolder, searchRoot } from "./lib/search-root.ts";
import { shownName } from "./lib/shown-name.ts";
import { compare, walk } from "./lib/walk.ts";

const LIMIT = 100;

export default defineTool({
  name: "glob",
  description,
  input: v.object({
    pattern: v.pipe(v.string(), v.minLength(1)),
    path: v.optional(v.string()),
  }),
  readOnly: true,
  permissions: ({ path }, ctx) => pathRequests("read", path ?? ".", ctx.cwd),
  async run({ pattern, path }, ctx) {
    const where = await searchRoot(path, ctx.cwd);
    if ("error" in where) return { output: where.error, isError: true };
    if (where.isFile) return notAFolder(path);
    const glob = new Bun.Glob(relativePattern(pattern, where.root));
    const matches: { path: string; rel: string }[] = [];
    for await (const entries of walk(where.root, ctx.signal)) {
      for (const entry of entries) if (entry.kind !== "dir" && glob.match(entry.rel)) matches.push(entry);
    }
    if (ctx.signal.aborted) return INTERRUPTED;
    if (matches.length === 0) return noMatch(pattern, path);
    if (matches.length > LIMIT) return cut(matches);
    const stamped = await Promise.all(
      matches.map(async ({ path: file, rel }) => ({ rel, mtime: (await stat(file).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    stamped.sort((a, b) => b.mtime - a.mtime || compare(a.rel, b.rel));
    return stamped.map((file) => shownName(file.rel)).join("\n");
  },
});

/**
 * More matches than are shown: the first LIMIT in path order, with no stat of any file (newest
 * first would need a stat per match, most of them never shown).
 */
function cut(matches: { rel: string }[]): string {
  const rels = matches.map((m) => m.rel).sort(compare);
  const shown = rels.slice(0, LIMIT).map(shownName);
  shown.push(`(${rels.length - LIMIT} more not shown; with over ${LIMIT} matches the list is in path order, not newest first; narrow the pattern)`);
  return shown.join("\n");
}

/** Patterns are relative to the folder; an absolute one inside it is taken as meant. */
function relativePattern(pattern: string, root: string): string {
  if (pattern.startsWith(`${root}/`)) return pattern.slice(root.length + 1);
  return pattern.replace(/^\.\//, "");
}

function noMatch(pattern: string, path: string | undefined): string {
  const where = path === undefined ? "" : ` under ${path}`;
  const hint = pattern.includes("**") ? "" : ` The pattern matches whole paths relative to the folder; use "**/${pattern}" to look in subfolders too.`;
  return `No files match "${pattern}"${where}.${hint}`;
}
