// Writes a whole file. An existing file is overwritten only when the model has seen its current
// content, so a write never silently loses work done since the last read.
import { mkdir, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { dirname } from "node:path";
import * as v from "valibot";
import { defineTool, readAllText, type ToolContext } from "rein/tool";
import description from "../prompts/tools/write.txt" with { type: "text" };
import { pathRequests, resolvePath } from "./lib/path-requests.ts";
import { bufferedStamp, countLines, fsErrorText, staleness, writtenStamp } from "./lib/text-file.ts";

export default defineTool({
  name: "write",
  description,
  input: v.object({
    path: v.string(),
    content: v.string(),
  }),
  permissions: ({ path }, { cwd }) => pathRequests("edit", path, cwd),
  // Before anyone is asked: a write that would be refused is refused now.
  async check({ path }, ctx) {
    const absolute = resolvePath(path, ctx.cwd);
    const existing = await stat(absolute).catch(() => undefined);
    return existing && (await refusalText(absolute, existing, ctx));
  },
  async run({ path, content }, ctx) {
    const absolute = resolvePath(path, ctx.cwd);
    const existing = await stat(absolute).catch(() => undefined);
    const refusal = existing && (await refusalText(absolute, existing, ctx));
    if (refusal) return { output: refusal, isError: true };
    try {
      await mkdir(dirname(absolute), { recursive: true });
      await ctx.fileAccess.writeText(absolute, content);
      // An editor serving the files may keep the write in an unsaved buffer: then the disk has no new
      // file yet, and the write is checked through the same file access it went through.
      const onDisk = await stat(absolute).catch(() => undefined);
      const stamp = onDisk ? writtenStamp(onDisk, content) : await bufferStamp(absolute, content, ctx);
      if (stamp instanceof Error) return { output: fsErrorText(stamp, absolute), isError: true };
      ctx.files.recordRead(absolute, stamp);
    } catch (error) {
      return { output: fsErrorText(error, absolute), isError: true };
    }
    const bytes = Buffer.byteLength(content);
    const lines = countLines(content);
    const what = existing ? "overwrote the previous content" : "created a new file";
    return `Wrote ${lines} ${lines === 1 ? "line" : "lines"} (${bytes} bytes) to ${absolute}: ${what}.`;
  },
});

/** The write as the file access holds it (a buffer the disk does not have yet), or the error reading it back. */
async function bufferStamp(path: string, content: string, ctx: ToolContext) {
  const held = await readAllText(ctx.fileAccess, path, ctx.signal).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (held instanceof Error) return held;
  if (held !== content) return new Error(`the editor holds other text for ${path} than was written`);
  return bufferedStamp(content);
}

async function refusalText(path: string, existing: Stats, ctx: Pick<ToolContext, "files" | "fileAccess">): Promise<string | undefined> {
  if (existing.isDirectory()) return `${path} is a directory: give the path of a file inside it.`;
  const stale = await staleness(path, existing, ctx.files, ctx.fileAccess);
  if (stale === "unread") {
    return `${path} already exists and you have not read it in this session. Read it first (overwriting content you have not seen loses work), then write again, or use edit to change part of it.`;
  }
  if (stale === "changed") {
    return `${path} changed on disk since you last read it (someone else may have edited it). Read it again, then write again so no one's changes are lost.`;
  }
  return undefined;
}
