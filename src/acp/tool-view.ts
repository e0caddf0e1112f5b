// How a rein tool call looks to an ACP client: its kind, a title from its main argument, the paths
// it touches (absolute, with the line an edit starts at) and, for edits and writes, a diff: the
// whole file before and after when its text is known (file-change.ts), else the call's snippets. Pure.
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { FileChange } from "./file-change.ts";

const KINDS: Record<string, ToolKind> = {
  read: "read",
  list: "read",
  glob: "search",
  grep: "search",
  edit: "edit",
  write: "edit",
  bash: "execute",
  webfetch: "fetch",
  todo: "think",
};

type Input = Record<string, unknown>;

const field = (input: unknown, name: string): string | undefined => {
  const value = (input as Input | null)?.[name];
  return typeof value === "string" ? value : undefined;
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

/** The tool's name and its main argument, on one line: `bash: ls -la`, `edit: src/a.ts`. */
export function toolTitle(name: string, input: unknown): string {
  if (name === "todo") return "Update the task list";
  const main = field(input, "command") ?? field(input, "path") ?? field(input, "pattern") ?? field(input, "url") ?? field(input, "query");
  const line = main?.split("\n")[0]?.trim();
  if (!line) return name;
  return `${name}: ${line.length > 120 ? `${line.slice(0, 119)}…` : line}`;
}

export function toolLocations(input: unknown, cwd: string, change?: FileChange): ToolCallLocation[] {
  const path = field(input, "path");
  return path ? [{ path: absolute(path, cwd), ...(change ? { line: change.line } : {}) }] : [];
}

/** What a finished call shows: its output and, for a successful edit or write, the change as a diff. */
export function toolContent(name: string, input: unknown, output: string, isError: boolean, cwd: string, change?: FileChange): ToolCallContent[] {
  const content: ToolCallContent[] = [];
  const path = field(input, "path");
  if (!isError && change) content.push(change.diff);
  else if (!isError && path && name === "edit") {
    const oldText = field(input, "old_string");
    const newText = field(input, "new_string");
    if (oldText !== undefined && newText !== undefined) content.push({ type: "diff", path: absolute(path, cwd), oldText, newText });
  }
  else if (!isError && path && name === "write") {
    const newText = field(input, "content");
    if (newText !== undefined) content.push({ type: "diff", path: absolute(path, cwd), oldText: null, newText });
  }
  if (output) content.push({ type: "content", content: { type: "text", text: output } });
  return content;
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
