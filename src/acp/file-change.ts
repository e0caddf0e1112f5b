// The whole-file change an edit or write makes, as ACP shows it (as Claude's ACP adapter does): a
// diff whose `oldText` is the file as it is (null for a new file) and `newText` the file as it will
// be, and the line the change starts at. The file's text is taken when the call starts, before it
// runs: through the editor's buffers when the client serves files, else from the disk.
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { readAllText, type FileAccess } from "../sdk.ts";

/** The file's text before the call: null when there was no file, undefined when it could not be read. */
export type Before = string | null | undefined;

/** Files larger than this are shown as the call's snippets, not whole. */
const MAX_WHOLE_BYTES = 2 * 1024 * 1024;

export type FileChange = { diff: Extract<ToolCallContent, { type: "diff" }>; line: number };

export const changesFiles = (name: string) => name === "edit" || name === "write";

export function pathOf(input: unknown, cwd: string): string | undefined {
  const path = (input as Record<string, unknown> | null)?.path;
  if (typeof path !== "string" || !path) return undefined;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The file's current text, read at once from the disk (before the tool can change it), or asked of the editor. */
export function readBefore(path: string, access: FileAccess | undefined): Before | Promise<Before> {
  if (access) {
    return readAllText(access, path).then(
      (text) => (text.length > MAX_WHOLE_BYTES ? undefined : text),
      () => diskBefore(path, true),
    );
  }
  return diskBefore(path, false);
}

function diskBefore(path: string, missingOnly: boolean): Before {
  try {
    const text = readFileSync(path, "utf8");
    return missingOnly || text.length > MAX_WHOLE_BYTES ? undefined : text;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

/** The change `name` (edit or write) with `input` makes to a file whose text is `before`; undefined when it cannot be known. */
export function fileChange(name: string, input: unknown, before: Before, cwd: string): FileChange | undefined {
  const path = pathOf(input, cwd);
  const fields = (input ?? {}) as Record<string, unknown>;
  if (!path || before === undefined) return undefined;
  if (name === "write") {
    if (typeof fields.content !== "string") return undefined;
    return { diff: { type: "diff", path, oldText: before, newText: fields.content }, line: 1 };
  }
  if (name !== "edit" || before === null || typeof fields.old_string !== "string" || typeof fields.new_string !== "string") return undefined;
  const replaced = replace(before, fields.old_string, fields.new_string, fields.replace_all === true);
  if (!replaced) return undefined;
  return { diff: { type: "diff", path, oldText: before, newText: replaced.text }, line: replaced.line };
}

/** The replacement as the edit tool makes it (CRLF files matched as LF and kept CRLF); undefined when it would fail. */
function replace(raw: string, oldString: string, newString: string, all: boolean): { text: string; line: number } | undefined {
  const crlf = raw.includes("\r\n") && !/(^|[^\r])\n/.test(raw);
  const lf = (s: string) => (crlf ? s.replaceAll("\r\n", "\n") : s);
  const text = lf(raw);
  const from = lf(oldString);
  const to = lf(newString);
  const at = from === "" ? -1 : text.indexOf(from);
  if (at < 0) return undefined;
  if (!all && text.indexOf(from, at + from.length) !== -1) return undefined;
  const updated = all ? text.split(from).join(to) : text.slice(0, at) + to + text.slice(at + from.length);
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return { text: crlf ? updated.replaceAll("\n", "\r\n") : updated, line };
}
