// Tool names in Claude Code's vocabulary or rein's, and the permission each built-in tool asks under.

const CLAUDE_NAMES: Record<string, string> = {
  bash: "bash",
  read: "read",
  write: "write",
  edit: "edit",
  multiedit: "edit",
  notebookedit: "edit",
  glob: "glob",
  grep: "grep",
  ls: "list",
  webfetch: "webfetch",
  todowrite: "todo",
  todoread: "todo",
  task: "task",
  agent: "task",
};

/** rein's name for a tool named in either vocabulary (`Bash`, `MultiEdit`, `Task`, `bash`); other names are kept as written. */
export function reinToolName(name: string): string {
  const trimmed = name.trim();
  return CLAUDE_NAMES[trimmed.toLowerCase()] ?? trimmed;
}

const TOOL_PERMISSIONS: Record<string, string> = {
  read: "read",
  glob: "read",
  grep: "read",
  list: "read",
  history: "read",
  write: "edit",
  edit: "edit",
  bash: "bash",
  webfetch: "webfetch",
  todo: "todo",
  task: "task",
};

/** The permission a tool's calls ask under (a tool of rein's own, or one named after its permission). */
export function toolPermission(tool: string): string {
  return TOOL_PERMISSIONS[tool] ?? tool;
}

/** `Bash(git *)`-style entries of a tools list are read as the tool alone. */
export function toolList(value: unknown): string[] | undefined {
  const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
  if (!items) return undefined;
  return items.map((item) => reinToolName(item.replace(/\(.*\)\s*$/, ""))).filter((name) => name.length > 0);
}
