// Writes a whole file. An existing file is overwritten only when the model has seen its current
// content, so a write never silently loses work done since the last read.
import { mkdir, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { dirname } from "node:path";
import * as v from "valibot";
import { defineTool, type ToolContext } from "rein/tool";
import description from "../prompts/tools/write.txt" with { type: "text" };
import { pathRequests, resolvePath } from "./lib/path-requests.ts";
import { countLines, fsErrorText, staleness, writtenStamp } from "./lib/text-file.ts";

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
      ctx.files.recordRead(absolute, writtenStamp(await stat(absolute), content));
    } catch (error) {
      return { output: fsErrorText(error, absolute), isError: true };
    }
    const bytes = Buffer.byteLength(content);
    const lines = countLines(content);
    const what = existing ? "overwrote the previous content" : "created a new file";
    return `Wrote ${lines} ${lines === 1 ? "line" : "lines"} (${bytes} bytes) to ${absolute}: ${what}.`;
  },
});

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
