// Claude Code's tool vocabulary. A hook read from a Claude Code file sees Claude Code's tool names
// and input fields (absolute `file_path`, `run_in_background`, `-i`), so existing scripts work
// unchanged; what it sends back (an updated input) is turned into rein's fields again.
import { isAbsolute, resolve } from "node:path";
import { claudeToolName } from "../permission/tool-names.ts";

export type Dialect = "rein" | "claude";

export function toolNameFor(tool: string, dialect: Dialect): string {
  return dialect === "claude" ? claudeToolName(tool) : tool;
}

/** rein field -> Claude Code field, per tool */
const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  edit: { path: "file_path" },
  write: { path: "file_path" },
  read: { path: "file_path" },
  bash: { background: "run_in_background" },
  grep: { ignore_case: "-i" },
};
const PATH_TOOLS = new Set(["edit", "write", "read"]);

export function inputFor(tool: string, input: unknown, dialect: Dialect, cwd: string): unknown {
  if (dialect === "rein" || !isRecord(input)) return input;
  const names = FIELDS[tool] ?? {};
  const out = Object.fromEntries(Object.entries(input).map(([key, value]) => [names[key] ?? key, value]));
  if (PATH_TOOLS.has(tool) && typeof out.file_path === "string" && !isAbsolute(out.file_path)) out.file_path = resolve(cwd, out.file_path);
  return out;
}

/** An input a hook sent back, in rein's fields. */
export function inputFrom(tool: string, input: unknown, dialect: Dialect): unknown {
  if (dialect === "rein" || !isRecord(input)) return input;
  const back = Object.fromEntries(Object.entries(FIELDS[tool] ?? {}).map(([rein, claude]) => [claude, rein]));
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [back[key] ?? key, value]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
