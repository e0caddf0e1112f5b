// The agent fields Claude Code gives a meaning beyond rein's core ones, read into the definition:
// `skills` (sent after a subagent's first prompt), `memory`, `hooks`, `mcpServers` and `effort` (applied
// to its session, session/agent-fields.ts), `initialPrompt` (the first turn when it runs as the main
// agent), `background` and `isolation` (the task tool), `omitClaudeMd` and `autoCompactWindow` (its
// task's prompt and window). Values are read as Claude Code 2.1.332 reads them (`"true"` for true,
// `effort: Med`, one bad `mcpServers` item costing only itself); a value of the wrong shape is a
// note and the field is left out; the agent still loads.
import type { AgentDefinition } from "./types.ts";

type Extra = Pick<AgentDefinition, "skills" | "memory" | "effort" | "initialPrompt" | "mcpServers" | "hooks" | "background" | "isolation" | "omitClaudeMd" | "autoCompactWindow">;

/** Claude Code's smallest `autoCompactWindow` */
export const MIN_COMPACT_WINDOW = 100_000;

const MEMORY_SCOPES = ["user", "project", "local"] as const;
const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;

export function claudeFields(fields: Record<string, unknown>, note: (text: string) => void): Extra {
  const extra: Extra = {};
  const skip = (field: string, what: string) => note(`${field} must be ${what}, got ${JSON.stringify(fields[field])?.slice(0, 60)}: ignored`);
  if (fields.skills !== undefined) {
    const skills = names(fields.skills);
    if (skills) extra.skills = skills;
    else skip("skills", "a list of skill names");
  }
  if (fields.memory !== undefined) {
    if ((MEMORY_SCOPES as readonly unknown[]).includes(fields.memory)) extra.memory = fields.memory as (typeof MEMORY_SCOPES)[number];
    else skip("memory", MEMORY_SCOPES.join(", ") + " or absent");
  }
  if (fields.effort !== undefined) {
    const effort = effortOf(fields.effort);
    if (effort !== undefined) extra.effort = effort;
    else skip("effort", `one of ${EFFORTS.join(", ")} or a whole number`);
  }
  if (fields.initialPrompt !== undefined) {
    if (typeof fields.initialPrompt === "string" && fields.initialPrompt.trim()) extra.initialPrompt = fields.initialPrompt.trim();
    else skip("initialPrompt", "text");
  }
  if (fields.mcpServers !== undefined) {
    const servers = Array.isArray(fields.mcpServers) ? fields.mcpServers : isRecord(fields.mcpServers) ? Object.entries(fields.mcpServers).map(([name, config]) => ({ [name]: config })) : undefined;
    if (!servers) skip("mcpServers", "a list of server names or configurations");
    else {
      // As in Claude Code, an item that is neither a name nor one `NAME: config` costs only itself.
      const good = servers.filter((s): s is string | Record<string, unknown> => typeof s === "string" || (isRecord(s) && Object.keys(s).length === 1 && isRecord(Object.values(s)[0])));
      for (const bad of servers.filter((s) => !good.includes(s as never))) note(`an mcpServers item must be a server name or one NAME: {configuration}, got ${JSON.stringify(bad)?.slice(0, 60)}: ignored`);
      if (good.length) extra.mcpServers = good;
    }
  }
  if (fields.hooks !== undefined) {
    if (isRecord(fields.hooks)) extra.hooks = fields.hooks;
    else skip("hooks", "an object of hook events");
  }
  if (fields.background !== undefined) {
    const background = flag(fields.background);
    if (background !== undefined) extra.background = background;
    else skip("background", "true or false");
  }
  if (fields.omitClaudeMd !== undefined) {
    const omit = flag(fields.omitClaudeMd);
    if (omit !== undefined) extra.omitClaudeMd = omit;
    else skip("omitClaudeMd", "true or false");
  }
  if (fields.autoCompactWindow !== undefined) {
    const window = fields.autoCompactWindow;
    if (typeof window === "number" && Number.isInteger(window) && window >= MIN_COMPACT_WINDOW) extra.autoCompactWindow = window;
    else skip("autoCompactWindow", `a whole number of tokens, at least ${MIN_COMPACT_WINDOW}`);
  }
  if (fields.isolation !== undefined) {
    if (fields.isolation === "worktree") extra.isolation = "worktree";
    else skip("isolation", '"worktree"');
  }
  return extra;
}

/** true, false, or Claude Code's "true"/"false" */
function flag(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  return value === "true" ? true : value === "false" ? false : undefined;
}

/** A level in any case (`Med` is medium), or a whole number (also written as text), as Claude Code reads `effort`. */
function effortOf(value: unknown): AgentDefinition["effort"] | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  const level = word === "med" ? "medium" : word;
  if ((EFFORTS as readonly string[]).includes(level)) return level as (typeof EFFORTS)[number];
  return /^-?\d+$/.test(word) ? Number.parseInt(word, 10) : undefined;
}

/** A list of names: a YAML list, or one string of names separated by commas or spaces. */
function names(value: unknown): string[] | undefined {
  if (typeof value === "string") return value.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.map((v) => v.trim()).filter(Boolean);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The first prompt of a run whose main agent has an `initialPrompt`, as Claude Code makes it:
 * `{{intent}}` in it stands for the prompt given, else the prompt follows it after a blank line
 * (recorded: test/fixtures/claude-code/agent-fields/recorded/main); with no prompt given, it is the prompt.
 */
export function initialTurn(initial: string, prompt: string | undefined): string {
  if (!prompt) return initial;
  return initial.includes("{{intent}}") ? initial.split("{{intent}}").join(prompt) : `${initial}\n\n${prompt}`;
}
