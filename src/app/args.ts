// Parses argv into a typed command line. Unknown flags and bad values are usage errors with a
// one-line hint (exit 2).
import { PERMISSION_MODES, type PermissionMode } from "../permission/modes.ts";

/** The modes by name, for the help text (cli may not import permission/; config/schema.ts would load valibot for them). */
export { PERMISSION_MODES };
import { arityProblem, flagProblem, scopeOf } from "./flag-scope.ts";

export type OutputFormat = "text" | "json" | "stream-json" | "claude-stream-json" | "claude-json";
export type OnAsk = "deny" | "fail";
export type Mode = PermissionMode;

export type Args = {
  command: string[];
  print: boolean;
  prompt?: string;
  /** --compact: compact the resumed session instead of running a prompt */
  compact: boolean;
  /** with --compact, what the summary should keep above all (the argument in place of a prompt) */
  focus?: string;
  continue: boolean;
  resume?: string;
  model?: string;
  maxTurns?: number;
  maxCost?: number;
  cwd?: string;
  permissionMode?: Mode;
  /** --agent NAME: the agent the session runs as */
  agent?: string;
  allow: string[];
  deny: string[];
  ask: string[];
  outputFormat: OutputFormat;
  onAsk: OnAsk;
  /** "stream-json": user turns as NDJSON on stdin (Claude Code's input shape) */
  inputFormat?: "text" | "stream-json";
  /** claude-stream-json: also the model's stream as Claude Code's `stream_event` lines */
  includePartialMessages: boolean;
  verbose: boolean;
  serve: boolean;
  port?: number;
  hostname?: string;
  trust: boolean;
  /** run the main session in a git worktree of this name (session/worktree.ts) */
  worktree?: string;
  sandbox: boolean;
  help: boolean;
  version: boolean;
  json: boolean;
  format?: string;
  yes: boolean;
  /** --older-than, in milliseconds */
  olderThan?: number;
  at?: number;
  /** rein hooks test: the tool and its input (JSON) of the made-up call */
  tool?: string;
  input?: string;
  /** rein mcp add/remove: which config file (user or project), and a remote server's URL */
  scope?: string;
  url?: string;
  /** rein undo: how many turns */
  turns?: number;
  code: boolean;
  conversation: boolean;
  /** rein permissions explain: decide as a session holding untrusted content would */
  tainted: boolean;
  force: boolean;
  /** Claude Code's flags (claude-flags.ts reads them into rein's settings) */
  allowedTools: string[];
  disallowedTools: string[];
  tools?: string;
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
  settings?: string;
  settingSources?: string;
  mcpConfig: string[];
  strictMcpConfig: boolean;
  addDir: string[];
  sessionId?: string;
  forkSession: boolean;
  dangerouslySkipPermissions: boolean;
  fallbackModel?: string;
  jsonSchema?: string;
  agents?: string;
  /** --permission-mode dontAsk: nothing asks; what no rule allows is refused */
  dontAsk?: boolean;
};

export class UsageError extends Error {}

type Kind = "bool" | "string" | "list";
type Spec = { key: keyof Args; kind: Kind; short?: string; check?: (value: string, flag: string) => unknown };

const oneOf = (values: readonly string[]) => (value: string, flag: string) => {
  if (!values.includes(value)) throw new UsageError(`${flag} expects one of ${values.join(", ")}, got "${value}"`);
  return value;
};
const positiveInt = (value: string, flag: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} expects a positive integer, got "${value}"`);
  return Number(value);
};
const positiveNumber = (value: string, flag: string) => {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value) || Number(value) <= 0) throw new UsageError(`${flag} expects a positive number (US dollars), got "${value}"`);
  return Number(value);
};
const port = (value: string, flag: string) => {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`${flag} expects a port number 0-65535, got "${value}"`);
  return Number(value);
};

/** Claude Code's mode names beside rein's own. */
const CLAUDE_PERMISSION_MODES: Record<string, PermissionMode> = { acceptEdits: "accept-edits", bypassPermissions: "auto", dontAsk: "default" };
const permissionMode = (value: string, flag: string) => CLAUDE_PERMISSION_MODES[value] ?? oneOf([...PERMISSION_MODES, ...Object.keys(CLAUDE_PERMISSION_MODES)])(value, flag);
const settingSources = (value: string, flag: string) => {
  const bad = value.split(",").map((s) => s.trim()).find((s) => s && !["user", "project", "local"].includes(s));
  if (bad !== undefined) throw new UsageError(`${flag} expects a comma-separated list of user, project, local; got "${bad}"`);
  return value;
};
const uuid = (value: string, flag: string) => {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw new UsageError(`${flag} expects a UUID such as 123e4567-e89b-12d3-a456-426614174000, got "${value}"`);
  return value.toLowerCase();
};

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const duration = (value: string, flag: string) => {
  const match = /^(\d+)([smhdw])$/.exec(value);
  if (!match) throw new UsageError(`${flag} expects a duration such as 30d, 12h, 90m or 2w, got "${value}"`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
};

const FLAGS: Record<string, Spec> = {
  "--print": { key: "print", kind: "bool", short: "-p" },
  "--compact": { key: "compact", kind: "bool" },
  "--continue": { key: "continue", kind: "bool", short: "-c" },
  "--resume": { key: "resume", kind: "string", short: "-r" },
  "--model": { key: "model", kind: "string", short: "-m" },
  "--max-turns": { key: "maxTurns", kind: "string", check: positiveInt },
  "--max-cost": { key: "maxCost", kind: "string", check: positiveNumber },
  "--cwd": { key: "cwd", kind: "string" },
  "--permission-mode": { key: "permissionMode", kind: "string", check: permissionMode },
  "--agent": { key: "agent", kind: "string" },
  "--allow": { key: "allow", kind: "list" },
  "--deny": { key: "deny", kind: "list" },
  "--ask": { key: "ask", kind: "list" },
  "--output-format": { key: "outputFormat", kind: "string", check: oneOf(["text", "json", "stream-json", "claude-stream-json", "claude-json"]) },
  "--on-ask": { key: "onAsk", kind: "string", check: oneOf(["deny", "fail"]) },
  "--input-format": { key: "inputFormat", kind: "string", check: oneOf(["text", "stream-json"]) },
  "--include-partial-messages": { key: "includePartialMessages", kind: "bool" },
  // Claude Code wants it with stream-json; rein's streams are always complete, so it changes nothing.
  "--verbose": { key: "verbose", kind: "bool" },
  "--serve": { key: "serve", kind: "bool" },
  "--port": { key: "port", kind: "string", check: port },
  "--hostname": { key: "hostname", kind: "string" },
  "--trust": { key: "trust", kind: "bool" },
  "--worktree": { key: "worktree", kind: "string" },
  "--sandbox": { key: "sandbox", kind: "bool" },
  "--help": { key: "help", kind: "bool", short: "-h" },
  "--version": { key: "version", kind: "bool", short: "-v" },
  "--json": { key: "json", kind: "bool" },
  "--format": { key: "format", kind: "string", check: oneOf(["md", "json"]) },
  "--yes": { key: "yes", kind: "bool", short: "-y" },
  "--older-than": { key: "olderThan", kind: "string", check: duration },
  "--at": { key: "at", kind: "string", check: positiveInt },
  "--tool": { key: "tool", kind: "string" },
  "--tainted": { key: "tainted", kind: "bool" },
  "--turns": { key: "turns", kind: "string", check: positiveInt },
  "--code": { key: "code", kind: "bool" },
  "--conversation": { key: "conversation", kind: "bool" },
  "--force": { key: "force", kind: "bool" },
  "--input": { key: "input", kind: "string" },
  "--scope": { key: "scope", kind: "string", check: oneOf(["user", "project"]) },
  "--url": { key: "url", kind: "string" },
  // Claude Code's print-mode flags, with its meaning.
  "--allowedTools": { key: "allowedTools", kind: "list" },
  "--allowed-tools": { key: "allowedTools", kind: "list" },
  "--disallowedTools": { key: "disallowedTools", kind: "list" },
  "--disallowed-tools": { key: "disallowedTools", kind: "list" },
  "--tools": { key: "tools", kind: "string" },
  "--system-prompt": { key: "systemPrompt", kind: "string" },
  "--system-prompt-file": { key: "systemPromptFile", kind: "string" },
  "--append-system-prompt": { key: "appendSystemPrompt", kind: "string" },
  "--append-system-prompt-file": { key: "appendSystemPromptFile", kind: "string" },
  "--settings": { key: "settings", kind: "string" },
  "--setting-sources": { key: "settingSources", kind: "string", check: settingSources },
  "--mcp-config": { key: "mcpConfig", kind: "list" },
  "--strict-mcp-config": { key: "strictMcpConfig", kind: "bool" },
  "--add-dir": { key: "addDir", kind: "list" },
  "--session-id": { key: "sessionId", kind: "string", check: uuid },
  "--fork-session": { key: "forkSession", kind: "bool" },
  "--max-budget-usd": { key: "maxCost", kind: "string", check: positiveNumber },
  "--dangerously-skip-permissions": { key: "dangerouslySkipPermissions", kind: "bool" },
  "--fallback-model": { key: "fallbackModel", kind: "string" },
  "--json-schema": { key: "jsonSchema", kind: "string" },
  "--agents": { key: "agents", kind: "string" },
};

const SHORT = new Map(Object.entries(FLAGS).flatMap(([long, spec]) => (spec.short ? [[spec.short, long] as const] : [])));

export function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    command: [],
    print: false,
    compact: false,
    continue: false,
    allow: [],
    deny: [],
    ask: [],
    outputFormat: "text",
    onAsk: "deny",
    includePartialMessages: false,
    verbose: false,
    serve: false,
    trust: false,
    sandbox: false,
    help: false,
    version: false,
    json: false,
    yes: false,
    code: false,
    conversation: false,
    force: false,
    tainted: false,
    allowedTools: [],
    disallowedTools: [],
    mcpConfig: [],
    strictMcpConfig: false,
    addDir: [],
    forkSession: false,
    dangerouslySkipPermissions: false,
  };
  const record = args as unknown as Record<string, unknown>;
  const positionals: string[] = [];
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const long = SHORT.get(name) ?? name;
    const spec = FLAGS[long];
    if (!spec) throw new UsageError(`unknown option ${name}${suggest(name)}`);
    given.add(long);
    if (spec.kind === "bool") {
      if (eq > 0) throw new UsageError(`${long} takes no value`);
      record[spec.key] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${long} needs a value`);
    const checked = spec.check ? spec.check(value, long) : value;
    if (long === "--permission-mode" && value === "dontAsk") args.dontAsk = true;
    if (spec.kind === "list") (record[spec.key] as string[]).push(value);
    else record[spec.key] = checked;
  }
  if (args.print) {
    const first = positionals.shift();
    if (args.compact) args.focus = first;
    else args.prompt = first;
    if (positionals.length > 0) {
      const hint = args.compact ? 'quote the whole focus: rein -c -p --compact "..."' : 'quote the whole prompt: rein -p "..."';
      throw new UsageError(`unexpected argument "${positionals[0]}" (${hint})`);
    }
  } else if (positionals[0] !== undefined && !COMMANDS.includes(positionals[0])) args.prompt = terminalPrompt(positionals);
  args.command = positionals;
  if (args.continue && args.resume) throw new UsageError("--continue and --resume cannot be used together");
  if (args.compact) checkCompact(args);
  if (args.dangerouslySkipPermissions) {
    if (args.permissionMode && args.permissionMode !== "auto") throw new UsageError(`--dangerously-skip-permissions and --permission-mode ${args.permissionMode} cannot be used together`);
    args.permissionMode = "auto";
  }
  if (args.systemPrompt !== undefined && args.systemPromptFile !== undefined) throw new UsageError("--system-prompt and --system-prompt-file cannot be used together");
  if (args.forkSession && !args.continue && !args.resume) throw new UsageError("--fork-session needs a session to fork: add -c or -r ID");
  if (args.print && args.serve) throw new UsageError("-p and --serve cannot be used together");
  const stray = args.prompt ?? args.command[0];
  if (args.serve && stray !== undefined) throw new UsageError(`unexpected argument "${stray}": rein --serve takes no prompt or command (see rein --help)`);
  const scope = scopeOf(args.print, args.serve, args.command);
  const problem = flagProblem(scope, given) ?? arityProblem(scope, args.command);
  if (problem) throw new UsageError(problem);
  return args;
}

const COMMANDS = ["sessions", "teams", "tools", "skills", "plugin", "permissions", "doctor", "models", "hooks", "acp", "mcp", "memory", "undo", "redo", "checkpoints"];

/**
 * `rein "fix the test"` starts the terminal with that prompt. One word near a command's name is a
 * typo rather than a prompt; words not quoted together are a usage error, as in print mode.
 */
function terminalPrompt(positionals: string[]): string {
  const prompt = positionals.shift()!;
  const near = COMMANDS.find((command) => distance(prompt, command) <= 2);
  if (near && /^[a-z]+$/.test(prompt)) throw new UsageError(`unknown command "${prompt}" (did you mean ${near}?)`);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" (quote the whole prompt: rein "...")`);
  return prompt;
}

/** --compact compacts a stored session from print mode; its one argument is the focus, never a prompt. */
function checkCompact(args: Args): void {
  if (!args.print) throw new UsageError("--compact works in print mode: rein -c -p --compact [FOCUS] (in the terminal: /compact [FOCUS])");
  if (!args.continue && !args.resume) {
    throw new UsageError("--compact needs a session to compact: rein -c -p --compact [FOCUS], or rein -r ID -p --compact [FOCUS]");
  }
  if (args.focus === "-") throw new UsageError("--compact does not read stdin: give the focus as an argument, rein -c -p --compact \"FOCUS\"");
}

function suggest(name: string): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const flag of Object.keys(FLAGS)) {
    const d = distance(name, flag);
    if (d < bestDistance) [best, bestDistance] = [flag, d];
  }
  return best ? ` (did you mean ${best}? see rein --help)` : " (see rein --help)";
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}
