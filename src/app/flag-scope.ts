// Which flags and how many arguments each mode and subcommand takes: a flag given where it does
// nothing, or an argument nobody reads, is a usage error (exit 2) rather than silently ignored.

/** "print", "interactive", "serve", or a subcommand with its action ("sessions rm", "doctor"). */
export type Scope = string;

const RUN = ["print", "interactive", "serve"];
/** the flags of a run that also shape `rein acp`'s sessions */
const SESSIONS = [...RUN, "acp"];
const RULES = [...SESSIONS, "permissions explain"];
/** the commands that work on a stored session's checkpoints */
const UNDO = ["undo", "redo", "checkpoints list", "checkpoints diff", "checkpoints restore"];

/** Where each flag applies; a flag not listed applies everywhere. */
const FLAG_SCOPES: Record<string, readonly Scope[]> = {
  "--continue": [...RUN, ...UNDO],
  "--resume": [...RUN, ...UNDO],
  "--turns": ["undo"],
  "--code": ["undo"],
  "--conversation": ["undo"],
  "--force": ["undo", "redo", "checkpoints restore"],
  "--model": [...SESSIONS, "doctor", "models"],
  "--max-turns": SESSIONS,
  "--max-cost": SESSIONS,
  "--permission-mode": RULES,
  "--agent": RUN,
  "--allow": RULES,
  "--deny": RULES,
  "--ask": RULES,
  "--trust": [...RULES, "tools list", "skills list", "plugin list", "doctor", "models", "hooks list", "hooks test", "mcp list", "mcp get", "mcp login"],
  "--sandbox": [...SESSIONS, "doctor"],
  "--output-format": ["print"],
  "--on-ask": ["print"],
  "--input-format": ["print"],
  "--include-partial-messages": ["print"],
  "--verbose": ["print"],
  "--compact": ["print"],
  "--port": ["serve"],
  "--hostname": ["serve"],
  "--json": [...UNDO.filter((s) => s !== "checkpoints diff"), "sessions list", "sessions trash", "sessions export", "sessions prune", "sessions fork", "tools list", "skills list", "plugin list", "plugin marketplace", "permissions explain", "hooks list", "hooks test", "mcp list", "mcp get", "teams list", "teams show"],
  "--tool": ["hooks test", "permissions explain"],
  "--tainted": ["permissions explain"],
  "--input": ["hooks test"],
  "--format": ["sessions export"],
  "--yes": ["sessions prune", "plugin install", "plugin update", "plugin import"],
  "--older-than": ["sessions prune"],
  "--at": ["sessions fork"],
  "--scope": ["mcp add", "mcp remove"],
  "--url": ["mcp add"],
  "--allowedTools": RULES,
  "--allowed-tools": RULES,
  "--disallowedTools": RULES,
  "--disallowed-tools": RULES,
  "--tools": SESSIONS,
  "--system-prompt": SESSIONS,
  "--system-prompt-file": SESSIONS,
  "--append-system-prompt": SESSIONS,
  "--append-system-prompt-file": SESSIONS,
  "--settings": [...RULES, "doctor"],
  "--setting-sources": [...RULES, "doctor"],
  "--mcp-config": [...SESSIONS, "mcp list"],
  "--strict-mcp-config": [...SESSIONS, "mcp list"],
  "--add-dir": RULES,
  "--session-id": ["print", "interactive"],
  "--fork-session": ["print", "interactive"],
  "--max-budget-usd": SESSIONS,
  "--dangerously-skip-permissions": RULES,
  "--fallback-model": SESSIONS,
  "--json-schema": ["print"],
  "--agents": RUN,
};

/** The most arguments after the action (a missing one is left to the command, which says what it needs). */
const MAX_ARGS: Record<string, number> = {
  "sessions list": 0,
  "sessions show": 1,
  "sessions export": 1,
  "sessions rm": 1,
  "sessions trash": 0,
  "sessions restore": 1,
  "sessions prune": 0,
  "sessions fork": 1,
  "tools list": 0,
  "tools init": 1,
  "skills list": 0,
  "plugin list": 0,
  "plugin install": 1,
  "plugin update": 1,
  "plugin enable": 1,
  "plugin disable": 1,
  "plugin remove": 1,
  "plugin import": 1,
  "plugin marketplace": 2,
  "hooks list": 0,
  "hooks test": 1,
  "teams list": 0,
  "teams show": 1,
  "mcp list": 0,
  "mcp get": 1,
  "mcp add": Infinity,
  "mcp remove": 1,
  "mcp login": 1,
  "mcp logout": 1,
  "memory list": 0,
  "memory show": 1,
  "memory edit": 1,
  "memory rm": 1,
  "permissions explain": Infinity,
  doctor: 0,
  models: 0,
  acp: 0,
  undo: 0,
  redo: 0,
  "checkpoints list": 0,
  "checkpoints diff": 1,
  "checkpoints restore": 1,
};

const DEFAULT_ACTION: Record<string, string> = { checkpoints: "list", sessions: "list", tools: "list", skills: "list", plugin: "list", hooks: "list", teams: "list", mcp: "list", memory: "list" };
/** Commands without actions: what follows the command's name is its arguments. */
const NO_ACTIONS = new Set(["doctor", "models", "acp", "undo", "redo"]);

/** The scope of a command line from its mode flags and positionals. */
export function scopeOf(print: boolean, serve: boolean, command: readonly string[]): Scope {
  if (print) return "print";
  if (serve) return "serve";
  const [name, action] = command;
  if (name === undefined) return "interactive";
  if (NO_ACTIONS.has(name)) return name;
  return `${name} ${action ?? DEFAULT_ACTION[name] ?? ""}`.trim();
}

/** What is wrong with using these flags in this scope, if anything. */
export function flagProblem(scope: Scope, flags: Iterable<string>): string | undefined {
  for (const flag of flags) {
    const scopes = FLAG_SCOPES[flag];
    if (!scopes || scopes.includes(scope)) continue;
    return `${flag} does nothing ${describe(scope)}; it works with ${scopes.map(describe).map((s) => s.replace(/^(in|with) /, "")).join(", ")} (see rein --help)`;
  }
  return undefined;
}

/** What is wrong with the number of arguments a subcommand got, if anything. */
export function arityProblem(scope: Scope, command: readonly string[]): string | undefined {
  const max = MAX_ARGS[scope];
  const given = command.slice(NO_ACTIONS.has(scope) ? 1 : 2);
  if (max === undefined || given.length <= max) return undefined;
  const what = max === 0 ? "takes no arguments" : "takes one argument";
  return `unexpected argument "${given[max]}": rein ${scope} ${what}${scope === "sessions rm" ? " (remove sessions one at a time)" : ""}`;
}

function describe(scope: Scope): string {
  if (scope === "print") return "with -p (print mode)";
  if (scope === "serve") return "with --serve";
  if (scope === "interactive") return "in the terminal";
  return `with rein ${scope}`;
}
