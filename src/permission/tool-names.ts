// rein's built-in tools by their names in rein's vocabulary and Claude Code's, and the permission a
// rule names to cover each. Hook matchers, agents' tool lists and `allowed-tools` all read tool
// names through this table, so a name means the same tool wherever a user writes it.

/** `asks: false`: its calls make no permission request (a rule for it can only hide it from an agent). */
type BuiltinTool = { claude: readonly string[]; permission: string; asks?: false };

const TABLE: Readonly<Record<string, BuiltinTool>> = {
  bash: { claude: ["Bash"], permission: "bash" },
  // The first Claude Code name is the one a Claude Code hook is shown.
  edit: { claude: ["Edit", "MultiEdit", "NotebookEdit"], permission: "edit" },
  write: { claude: ["Write"], permission: "edit" },
  read: { claude: ["Read"], permission: "read" },
  glob: { claude: ["Glob"], permission: "read" },
  grep: { claude: ["Grep"], permission: "read" },
  list: { claude: ["LS"], permission: "read" },
  webfetch: { claude: ["WebFetch"], permission: "webfetch" },
  websearch: { claude: ["WebSearch"], permission: "websearch" },
  lsp: { claude: ["LSP"], permission: "read" },
  todo: { claude: ["TodoWrite", "TodoRead"], permission: "todo", asks: false },
  task: { claude: ["Task", "Agent"], permission: "task" },
  history: { claude: [], permission: "read", asks: false },
  // The team's tools: Claude Code's names for the same tools (SendMessage, TaskStop, TaskOutput, the task list's).
  send_message: { claude: ["SendMessage"], permission: "send_message", asks: false },
  task_stop: { claude: ["TaskStop", "KillShell"], permission: "task_stop", asks: false },
  task_output: { claude: ["TaskOutput"], permission: "task_output", asks: false },
  task_create: { claude: ["TaskCreate"], permission: "task_create", asks: false },
  task_update: { claude: ["TaskUpdate"], permission: "task_update", asks: false },
  task_list: { claude: ["TaskList"], permission: "task_list", asks: false },
  team_create: { claude: ["TeamCreate"], permission: "team_create", asks: false },
  team_delete: { claude: ["TeamDelete"], permission: "team_delete", asks: false },
};

const BUILTIN = new Map(Object.entries(TABLE));

/** rein's built-in tools, by rein's names. */
export const BUILTIN_TOOLS: readonly string[] = [...BUILTIN.keys()];

// Plain loops in these module-level tables: map and flatMap calls at every start add up to enough
// for JavaScriptCore to compile Array.prototype.map with its optimizing JIT.
const BY_NAME = new Map<string, string>();
for (const [tool, { claude }] of BUILTIN) {
  BY_NAME.set(tool.toLowerCase(), tool);
  for (const name of claude) BY_NAME.set(name.toLowerCase(), tool);
}

/** rein's name for a built-in tool named in either vocabulary, in any case (`Bash`, `MultiEdit`, `task`); any other name (`mcp__x__y`, a user tool) is kept as written. */
export function reinToolName(name: string): string {
  const trimmed = name.trim();
  return BY_NAME.get(trimmed.toLowerCase()) ?? trimmed;
}

/** Every name of a tool: rein's first, then Claude Code's (a matcher in either vocabulary matches it). */
export function toolAliases(tool: string): string[] {
  return [tool, ...(BUILTIN.get(tool)?.claude ?? [])];
}

/** The name Claude Code gives a rein tool (`edit` -> `Edit`); a tool Claude Code has no name for keeps its own. */
export function claudeToolName(tool: string): string {
  return BUILTIN.get(tool)?.claude[0] ?? tool;
}

/** A built-in tool's permission and whether its calls ask it; undefined for any other tool. */
export function builtinPermission(tool: string): { permission: string; asks: boolean } | undefined {
  const entry = BUILTIN.get(tool);
  return entry && { permission: entry.permission, asks: entry.asks !== false };
}

/** The permission a rule names to cover a tool (`write` -> `edit`, `glob` -> `read`); any other tool is its own permission. */
export function toolPermission(tool: string): string {
  return BUILTIN.get(tool)?.permission ?? tool;
}
