// The agent fields Claude Code gives a meaning beyond rein's core ones, read into the definition:
// `skills` (loaded into the agent's prompt), `memory`, `hooks`, `mcpServers` and `effort` (applied
// to its session, session/agent-fields.ts), `initialPrompt` (the first turn when it runs as the main
// agent), `background` and `isolation` (the task tool).
// A value of the wrong shape is a note and the field is left out; the agent still loads.
import type { AgentDefinition } from "./types.ts";

type Extra = Pick<AgentDefinition, "skills" | "memory" | "effort" | "initialPrompt" | "mcpServers" | "hooks" | "background" | "isolation">;

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
    const effort = fields.effort;
    if ((EFFORTS as readonly unknown[]).includes(effort) || (typeof effort === "number" && Number.isInteger(effort) && effort > 0)) extra.effort = effort as NonNullable<Extra["effort"]>;
    else skip("effort", `one of ${EFFORTS.join(", ")} or a whole number`);
  }
  if (fields.initialPrompt !== undefined) {
    if (typeof fields.initialPrompt === "string" && fields.initialPrompt.trim()) extra.initialPrompt = fields.initialPrompt.trim();
    else skip("initialPrompt", "text");
  }
  if (fields.mcpServers !== undefined) {
    const servers = Array.isArray(fields.mcpServers) ? fields.mcpServers : isRecord(fields.mcpServers) ? Object.entries(fields.mcpServers).map(([name, config]) => ({ [name]: config })) : undefined;
    if (servers && servers.every((s) => typeof s === "string" || isRecord(s))) extra.mcpServers = servers as (string | Record<string, unknown>)[];
    else skip("mcpServers", "a list of server names or configurations");
  }
  if (fields.hooks !== undefined) {
    if (isRecord(fields.hooks)) extra.hooks = fields.hooks;
    else skip("hooks", "an object of hook events");
  }
  if (fields.background !== undefined) {
    if (typeof fields.background === "boolean") extra.background = fields.background;
    else skip("background", "true or false");
  }
  if (fields.isolation !== undefined) {
    if (fields.isolation === "worktree") extra.isolation = "worktree";
    else skip("isolation", '"worktree"');
  }
  return extra;
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
 * `{{intent}}` in it stands for the prompt given, else the prompt follows it on the next line; with
 * no prompt given, it is the prompt.
 */
export function initialTurn(initial: string, prompt: string | undefined): string {
  if (!prompt) return initial;
  return initial.includes("{{intent}}") ? initial.split("{{intent}}").join(prompt) : `${initial}\n${prompt}`;
}
