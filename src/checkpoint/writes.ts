// The files a call of rein's own file tools (edit, write) is about to write, known exactly from its
// permission requests, so its checkpoint reads those files and nothing else. Any other changing
// call (a shell command, an MCP or user tool) may write anything: undefined.
import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import type { Request } from "./side-effects.ts";

/** The built-in tools whose `edit` requests name exactly the files they write. */
const FILE_TOOLS = new Set(["edit", "write"]);

export type Writes = {
  /** inside the workspace, relative to it */
  inside: string[];
  /** outside the workspace, absolute and resolved */
  outside: string[];
};

/** The files the call writes, or undefined when they cannot be known before it runs. */
export function exactWrites(tool: string | undefined, requests: readonly Request[], workTree: string): Writes | undefined {
  if (!tool || !FILE_TOOLS.has(tool)) return undefined;
  const writes: Writes = { inside: [], outside: [] };
  for (const request of requests) {
    if (request.permission !== "edit") continue;
    const resolved = resolveFile(request.pattern);
    // A link (or a folder) where the file goes: what gets written is elsewhere, so look at everything.
    if (!resolved) return undefined;
    const rel = relative(workTree, resolved);
    if (rel === "") return undefined;
    if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) writes.outside.push(resolved);
    else if (!rel.split(sep).includes(".git")) writes.inside.push(rel);
  }
  return writes;
}

/** The path with its folders' links resolved; undefined when the file itself is a link or a folder. */
function resolveFile(path: string): string | undefined {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || stat.isDirectory()) return undefined;
  } catch {
    // not there yet: it will be created
  }
  return join(realAncestor(dirname(path)), basename(path));
}

function realAncestor(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    const parent = dirname(dir);
    return parent === dir ? dir : join(realAncestor(parent), basename(dir));
  }
}
