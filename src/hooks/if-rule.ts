// A handler's `if`: one permission rule, `Tool` or `Tool(pattern)` (`Bash(git *)`, `Edit(*.ts)`),
// checked against the call's main input (the command line, the file path, the URL, the search
// pattern). Only tool events have a call: a hook with `if` on any other event never runs. A rule
// that cannot be read lets the hook run (it fails open, as Claude Code's does).
import { matchWildcard } from "../permission/wildcard.ts";
import { toolNames } from "./dialect.ts";

const MAIN_FIELD: Readonly<Record<string, string>> = { bash: "command", edit: "path", write: "path", read: "path", glob: "pattern", grep: "pattern", list: "path", webfetch: "url" };

export function ifAllows(rule: string | undefined, tool: string | undefined, input: unknown): boolean {
  if (rule === undefined) return true;
  if (tool === undefined) return false;
  const read = /^\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*$/s.exec(rule);
  if (!read) return true;
  const [, name, pattern] = read;
  if (!toolNames(tool).includes(name!)) return false;
  if (pattern === undefined || pattern === "" || pattern === "*") return true;
  const field = MAIN_FIELD[tool];
  const value = field && typeof input === "object" && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof value !== "string") return true;
  return matchWildcard(pattern, value) || (field === "path" && matchWildcard(pattern, value.split("/").at(-1) ?? value));
}
