// Replaces an exact string in a file the model has read and that has not changed since. A failed
// match says where the text the model meant probably is; CRLF files stay CRLF.
import { stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import * as v from "valibot";
import { defineTool, readAllText, type ToolContext, type ToolResult } from "rein/tool";
import description from "../prompts/tools/edit.txt" with { type: "text" };
import { editDiff } from "./lib/edit-diff.ts";
import { notFoundText } from "./lib/edit-near-match.ts";
import { pathRequests, resolvePath } from "./lib/path-requests.ts";
import { formatBytes, fsErrorText, staleness, writtenStamp } from "./lib/text-file.ts";

const MAX_EDIT_BYTES = 10 * 1024 * 1024;
const MAX_LISTED_MATCHES = 20;
const MAX_OUTPUT_DIFF_LINES = 40;
const MAX_METADATA_DIFF_LINES = 2000;
const MAX_DIFF_LINE_CHARS = 500;

export default defineTool({
  name: "edit",
  description,
  input: v.object({
    path: v.string(),
    old_string: v.string(),
    new_string: v.string(),
    replace_all: v.optional(v.boolean()),
  }),
  permissions: ({ path }, { cwd }) => pathRequests("edit", path, cwd),
  // Before anyone is asked: an edit of a file the model has not read (or that changed since) is refused now.
  async check({ path }, ctx) {
    const absolute = resolvePath(path, ctx.cwd);
    const info = await stat(absolute).catch(() => undefined);
    return info && (await refusalText(absolute, info, ctx));
  },
  async run({ path, old_string, new_string, replace_all = false }, ctx) {
    const absolute = resolvePath(path, ctx.cwd);
    if (old_string === "") return fail("old_string is empty. Give the exact text to replace; to create a file, use write.");
    if (old_string === new_string) return fail("old_string and new_string are the same, so the edit would change nothing. Put the new text in new_string.");
    let info: Stats;
    try {
      info = await stat(absolute);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      return fail(missing ? `${absolute} does not exist. Check the path (glob finds files by name), or create the file with write.` : fsErrorText(error, absolute));
    }
    const refusal = await refusalText(absolute, info, ctx);
    if (refusal) return fail(refusal);
    try {
      return await replaceInFile(absolute, old_string, new_string, replace_all, ctx);
    } catch (error) {
      return fail(fsErrorText(error, absolute));
    }
  },
});

async function replaceInFile(path: string, oldString: string, newString: string, all: boolean, ctx: ToolContext): Promise<ToolResult> {
  const raw = await readAllText(ctx.fileAccess, path, ctx.signal);
  // Work on LF text so old_string copied from read (which drops the \r) matches, then restore CRLF.
  const crlf = usesCrlf(raw);
  const text = crlf ? raw.replaceAll("\r\n", "\n") : raw;
  const from = crlf ? oldString.replaceAll("\r\n", "\n") : oldString;
  const to = crlf ? newString.replaceAll("\r\n", "\n") : newString;
  if (from === to) return fail("old_string and new_string differ only in line endings, and the file's line endings are kept, so the edit would change nothing.");
  const matches = positions(text, from);
  if (matches.length === 0) return fail(notFoundText(path, text, from));
  if (matches.length > 1 && !all) return fail(severalText(path, text, matches));

  const updated = all ? text.split(from).join(to) : text.slice(0, matches[0]) + to + text.slice(matches[0]! + from.length);
  const written = crlf ? updated.replaceAll("\n", "\r\n") : updated;
  await ctx.fileAccess.writeText(path, written);
  ctx.files.recordRead(path, writtenStamp(await stat(path), written));

  const hunks = editDiff(text, updated, matches, from.length, to);
  const diff = `--- ${path}\n+++ ${path}\n${clip(hunks, MAX_METADATA_DIFF_LINES)}`;
  const count = matches.length === 1 ? "1 occurrence" : `${matches.length} occurrences`;
  return { output: `Edited ${path}: replaced ${count}.\n${clip(hunks, MAX_OUTPUT_DIFF_LINES)}`, metadata: { diff } };
}

async function refusalText(path: string, info: Stats, ctx: Pick<ToolContext, "files" | "fileAccess">): Promise<string | undefined> {
  if (info.isDirectory()) return `${path} is a directory: give the path of a file inside it.`;
  const stale = await staleness(path, info, ctx.files, ctx.fileAccess);
  if (stale === "unread") return `You have not read ${path} in this session. Read it first, then edit it with text copied from what you read.`;
  if (stale === "changed") return `${path} changed on disk since you last read it. Read it again to see its current content, then redo the edit.`;
  if (info.size > MAX_EDIT_BYTES) {
    return `${path} is ${formatBytes(info.size)}, too large for edit (limit ${formatBytes(MAX_EDIT_BYTES)}). Change it with bash instead (e.g. sed -i).`;
  }
  return undefined;
}

/** True when every line break is CRLF: a file with mixed endings is edited as it is. */
function usesCrlf(text: string): boolean {
  return text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
}

/** Start offsets of the non-overlapping matches, left to right (as split/join replaces them). */
function positions(text: string, search: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) found.push(i);
  return found;
}

function severalText(path: string, text: string, matches: number[]): string {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const at of matches.slice(0, MAX_LISTED_MATCHES)) {
    for (let i = text.indexOf("\n", scanned); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
    scanned = at;
    lines.push(line);
  }
  const more = matches.length > MAX_LISTED_MATCHES ? ` and ${matches.length - MAX_LISTED_MATCHES} more` : "";
  return `old_string matches ${matches.length} places in ${path} (at lines ${lines.join(", ")}${more}). Include more surrounding lines in old_string so it matches exactly one, or set replace_all to true to change every one.`;
}

function clip(diff: string, maxLines: number): string {
  const lines = diff.split("\n").map((line) => (line.length > MAX_DIFF_LINE_CHARS ? `${line.slice(0, MAX_DIFF_LINE_CHARS)}…` : line));
  if (lines.length <= maxLines) return lines.join("\n");
  return `${lines.slice(0, maxLines).join("\n")}\n… (${lines.length - maxLines} more diff lines)`;
}

function fail(output: string): ToolResult {
  return { output, isError: true };
}
