// Claude Code's tool vocabulary. A hook read from a Claude Code file (and `claude-stream-json`) sees
// Claude Code's tool names, input fields (absolute `file_path`, `run_in_background`, `-i`) and the
// structured `tool_response` Claude Code gives each tool, so existing scripts work unchanged; what a
// hook sends back (an updated input) is turned into rein's fields again. Pure.
import { isAbsolute, resolve } from "node:path";
import { claudeToolName, toolAliases } from "../permission/tool-names.ts";

export type Dialect = "rein" | "claude";

/** rein's plumbing: no Claude Code tool stands for it, so it fires no Claude-shaped hook. */
const PLUMBING: ReadonlySet<string> = new Set(["load_tools"]);
/** Claude Code 2.1.332's names where they differ from the first in the permission table. */
const NAMES: Readonly<Record<string, string>> = { task: "Agent", skill: "Skill", load_tools: "ToolSearch" };

export function toolNameFor(tool: string, dialect: Dialect): string {
  return dialect === "claude" ? claudeName(tool) : tool;
}

/** The name Claude Code gives a rein tool (`task` -> `Agent`, `list` -> `LS`); MCP and user tools keep theirs. */
export function claudeName(tool: string): string {
  return NAMES[tool] ?? claudeToolName(tool);
}

/** Every Claude Code name of a rein tool (`task`: `Agent` and `Task`), what a Claude Code matcher is matched on. */
export function claudeAliases(tool: string): string[] {
  return [...new Set([claudeName(tool), ...toolAliases(tool).slice(1)])];
}

/** Whether a tool call fires hooks of this dialect (rein's plumbing fires no Claude-shaped hook). */
export function firesFor(tool: string, dialect: Dialect): boolean {
  return dialect === "rein" || !PLUMBING.has(tool);
}

/** rein field -> Claude Code field, per tool */
const FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  edit: { path: "file_path" },
  write: { path: "file_path" },
  read: { path: "file_path" },
  list: {},
  bash: { background: "run_in_background" },
  grep: { ignore_case: "-i" },
  skill: { name: "skill" },
  task_update: { task_id: "taskId", active_form: "activeForm", add_blocks: "addBlocks", add_blocked_by: "addBlockedBy" },
  task_create: { active_form: "activeForm" },
};
const PATH_TOOLS = new Set(["edit", "write", "read"]);
const GREP_MODES: Readonly<Record<string, string>> = { files: "files_with_matches", content: "content" };

/**
 * A call's input in the dialect. `raw` is the input as the model sent it: fields rein's schema
 * drops (Bash's `description`) are kept for Claude Code's hooks.
 */
export function inputFor(tool: string, input: unknown, dialect: Dialect, cwd: string, raw?: unknown): unknown {
  if (dialect === "rein" || !isRecord(input)) return input;
  const names = FIELDS[tool] ?? {};
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(input).map(([key, value]) => [names[key] ?? key, value]));
  if (isRecord(raw)) for (const [key, value] of Object.entries(raw)) if (!(key in input) && !(key in out)) out[key] = value;
  if (PATH_TOOLS.has(tool) && typeof out.file_path === "string" && !isAbsolute(out.file_path)) out.file_path = resolve(cwd, out.file_path);
  if (tool === "list") out.path = resolve(cwd, typeof out.path === "string" ? out.path : ".");
  if (tool === "edit" && out.replace_all === undefined) out.replace_all = false;
  if (tool === "grep" && typeof out.output_mode === "string") out.output_mode = GREP_MODES[out.output_mode] ?? out.output_mode;
  // rein's deferred-tool loader as Claude Code's ToolSearch selects tools by name
  if (tool === "load_tools" && Array.isArray(input.names)) return { query: `select:${input.names.join(",")}`, max_results: input.names.length };
  return out;
}

/** An input a hook sent back, in rein's fields. */
export function inputFrom(tool: string, input: unknown, dialect: Dialect): unknown {
  if (dialect === "rein" || !isRecord(input)) return input;
  const back = Object.fromEntries(Object.entries(FIELDS[tool] ?? {}).map(([rein, claude]) => [claude, rein]));
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(input).map(([key, value]) => [back[key] ?? key, value]));
  if (tool === "grep" && typeof out.output_mode === "string") out.output_mode = out.output_mode === "content" ? "content" : "files";
  return out;
}

/** What a call ended with, as `tool_end` has it. */
export type CallEnd = { output: string; isError: boolean; metadata?: Record<string, unknown> };

/**
 * Claude Code's structured `tool_response` for a call that succeeded: Bash `{stdout, stderr,
 * interrupted, isImage, noOutputExpected}`, Write `{type, filePath, content, structuredPatch,
 * originalFile, userModified}`, Edit `{filePath, oldString, newString, originalFile,
 * structuredPatch, userModified, replaceAll}`, Read `{type: "text", file: {filePath, content,
 * numLines, startLine, totalLines}}`, and so on; a tool Claude Code does not have gets its output.
 * `input` is in Claude Code's fields (inputFor).
 */
export function claudeResponse(tool: string, input: Record<string, unknown>, end: CallEnd): unknown {
  const text = end.output;
  switch (tool) {
    case "bash":
      return { stdout: text.replace(/\n+$/, ""), stderr: "", interrupted: false, isImage: false, noOutputExpected: text === "" };
    case "write": {
      const created = !/overwrote/.test(text);
      return { type: created ? "create" : "update", filePath: input.file_path, content: input.content, structuredPatch: [], originalFile: null, userModified: false };
    }
    case "edit":
      return { filePath: input.file_path, oldString: input.old_string, newString: input.new_string, originalFile: null, structuredPatch: patchOf(end.metadata?.diff), userModified: false, replaceAll: input.replace_all === true };
    case "read":
      return readResponse(String(input.file_path ?? ""), text, end.metadata);
    case "glob": {
      const filenames = text.startsWith("No files match") ? [] : text.split("\n").filter((line) => line && !line.startsWith("("));
      return { filenames, durationMs: 0, numFiles: filenames.length, truncated: /more not shown/.test(text) };
    }
    case "grep": {
      const lines = text.startsWith("No matches") ? [] : text.split("\n").filter((line) => line && !line.startsWith("("));
      if (input.output_mode === "content") return { mode: "content", numFiles: new Set(lines.map((l) => l.split(":")[0])).size, filenames: [], content: lines.join("\n"), numLines: lines.length };
      return { mode: "files_with_matches", filenames: lines, numFiles: lines.length };
    }
    case "todo": {
      const todos = Array.isArray(end.metadata?.todos) ? end.metadata.todos : (input.todos ?? []);
      return { oldTodos: [], newTodos: todos };
    }
    case "webfetch": {
      const meta = end.metadata ?? {};
      return { bytes: Buffer.byteLength(text), code: meta.status ?? 200, codeText: "OK", result: text, durationMs: 0, url: meta.url ?? input.url };
    }
    case "websearch":
      return { query: input.query ?? "", results: [text], durationSeconds: 0 };
    case "load_tools": {
      const names = typeof input.query === "string" ? input.query.replace(/^select:/, "").split(",").filter(Boolean) : [];
      return { matches: names, query: input.query ?? "", total_deferred_tools: names.length };
    }
    case "task":
      return { status: "completed", prompt: input.prompt, content: [{ type: "text", text }], totalDurationMs: 0, totalTokens: 0, totalToolUseCount: 0 };
    default:
      return tool.startsWith("mcp__") ? [{ type: "text", text }] : text;
  }
}

/** The lines rein's read shows (`     N\tTEXT`) back as the file's text, with Claude Code's counts. */
function readResponse(filePath: string, text: string, metadata: Record<string, unknown> | undefined): unknown {
  if (metadata?.image) return { type: "image", file: { base64: "", type: (metadata.image as { mediaType?: string }).mediaType ?? "", originalSize: (metadata.image as { bytes?: number }).bytes ?? 0 } };
  const lines: string[] = [];
  let startLine = 1;
  for (const line of text.split("\n")) {
    const m = /^ *(\d+)\t(.*)$/.exec(line);
    if (!m) continue;
    if (lines.length === 0) startLine = Number(m[1]);
    lines.push(m[2]!);
  }
  const more = /read with offset=(\d+) to continue/.exec(text);
  const content = lines.length ? `${lines.join("\n")}\n` : "";
  return { type: "text", file: { filePath, content, numLines: lines.length, startLine, totalLines: more ? Number(more[1]) - 1 : startLine + lines.length - 1 } };
}

/** A unified diff's hunks as Claude Code's `structuredPatch`. */
function patchOf(diff: unknown): { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] {
  if (typeof diff !== "string") return [];
  const hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] = [];
  for (const line of diff.split("\n")) {
    const head = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (head) hunks.push({ oldStart: Number(head[1]), oldLines: Number(head[2] ?? 1), newStart: Number(head[3]), newLines: Number(head[4] ?? 1), lines: [] });
    else if (hunks.length && /^[ +-]/.test(line) && !line.startsWith("---") && !line.startsWith("+++")) hunks[hunks.length - 1]!.lines.push(line);
  }
  return hunks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A call's input in Claude Code's fields, as an object. */
export function claudeInputOf(tool: string, input: unknown, cwd: string, raw?: unknown): Record<string, unknown> {
  const out = inputFor(tool, input, "claude", cwd, raw);
  return isRecord(out) ? out : {};
}

/** A model turn's content blocks with Claude Code's tool names and input fields in its tool_use blocks. */
export function claudeContent<B extends { type: string }>(content: readonly B[], cwd: string): B[] {
  return content.map((block) => {
    if (block.type !== "tool_use") return block;
    const call = block as unknown as { name: string; input: unknown };
    return { ...block, name: claudeName(call.name), input: claudeInputOf(call.name, call.input, cwd) };
  });
}
