// One agent file read as the agent it defines, in the format of the folder it was found in: rein's
// and Claude Code's front matter (name, tools, disallowedTools, permissionMode, maxTurns) or
// OpenCode's (file name as the name, mode, permission, tools as a map, hidden, maxSteps).
import type { Action, Rule } from "../permission/evaluate.ts";
import { PERMISSION_MODES, type PermissionMode } from "../permission/modes.ts";
import { reinToolName, toolPermission } from "../permission/tool-names.ts";
import { claudeFields } from "./claude-fields.ts";
import { frontMatter } from "./front-matter.ts";
import { toolList } from "./tool-names.ts";
import { AGENT_MODES, type AgentDefinition, type AgentMode } from "./types.ts";

export type AgentFormat = "rein" | "claude" | "opencode";
export type AgentFile = { path: string; /** the path below the agents folder, without `.md` */ id: string; text: string; format: AgentFormat; project: boolean };
export type Parsed = { agent?: AgentDefinition; warning?: string; notes: string[] };

// The fields an agent file may set (Claude Code's, then OpenCode's); others are accepted and unused.
const CLAUDE_FIELDS = ["name", "description", "tools", "disallowedTools", "model", "permissionMode", "maxTurns", "skills", "memory", "effort", "initialPrompt", "mcpServers", "hooks", "background", "isolation", "omitClaudeMd", "autoCompactWindow", "color"];
const OPENCODE_FIELDS = ["description", "mode", "model", "permission", "tools", "hidden", "maxSteps", "disable", "temperature", "top_p", "color"];
const FIELDS = [...new Set([...CLAUDE_FIELDS, ...OPENCODE_FIELDS])];
const CLAUDE_MODES: Record<string, PermissionMode> = {
  default: "default",
  manual: "default",
  acceptEdits: "accept-edits",
  plan: "plan",
  auto: "auto",
  bypassPermissions: "auto",
  // dontAsk: the default rules, and what they would ask is refused (AgentDefinition.dontAsk)
  dontAsk: "default",
};

export function parseAgentFile(file: AgentFile): Parsed {
  const read = frontMatter(file.text, FIELDS, file.format === "opencode");
  if (typeof read === "string") return { warning: `agent file ${file.path} skipped: ${read}`, notes: [] };
  const { fields, body } = read;
  const notes: string[] = [];
  const note = (text: string) => notes.push(`agent file ${file.path}: ${text}`);
  if (read.lenient) note(`the front matter is not strict YAML (${read.lenient}), so it was read leniently; quote values that hold ": " or "#"`);
  const written = typeof fields.description === "string" ? fields.description.trim() : "";
  // OpenCode loads an agent file without front matter (or without a description): its first line says what it is.
  const description = written || (file.format === "opencode" ? (body.split("\n").find((l) => l.trim())?.replace(/^#+\s*/, "").trim().slice(0, 120) ?? `the ${file.id} agent`) || `the ${file.id} agent` : "");
  if (!description) return { warning: `agent file ${file.path} skipped: it has no \`description\` (say in one line what the agent is for)`, notes };
  if (fields.disable === true) return { notes };

  const name = file.format === "opencode" || typeof fields.name !== "string" || !fields.name.trim() ? file.id : fields.name.trim();
  // Claude Code's agent files define subagents (--agent NAME still runs one as the main agent); rein's and OpenCode's default to both.
  const agent: AgentDefinition = { name, description, prompt: body, rules: [], mode: file.format === "claude" ? "subagent" : "all", source: file.path, project: file.project };
  if (file.format === "claude" && typeof fields.name !== "string") return { warning: `agent file ${file.path} skipped: it has no \`name\``, notes };

  const model = typeof fields.model === "string" ? fields.model.trim() : undefined;
  // An alias (`opus`) stays as written: the run resolves it for the provider in use (llm/aliases.ts).
  if (model && model !== "inherit") agent.model = model;
  const turnsWritten = fields.maxTurns ?? fields.maxSteps;
  // Claude Code also takes the number as text (`maxTurns: "7"`).
  const turns = typeof turnsWritten === "string" && /^\d+$/.test(turnsWritten.trim()) ? Number(turnsWritten.trim()) : turnsWritten;
  if (typeof turns === "number" && Number.isInteger(turns) && turns > 0) agent.maxTurns = turns;
  else if (turnsWritten !== undefined) note(`maxTurns/maxSteps must be a positive whole number, got ${JSON.stringify(turnsWritten)}: ignored`);
  if (typeof fields.mode === "string") {
    if ((AGENT_MODES as readonly string[]).includes(fields.mode)) agent.mode = fields.mode as AgentMode;
    else note(`mode must be one of ${AGENT_MODES.join(", ")}, got "${fields.mode}": ignored`);
  }
  if (fields.hidden === true) agent.hidden = true;
  if (typeof fields.permissionMode === "string") {
    const mode = CLAUDE_MODES[fields.permissionMode] ?? ((PERMISSION_MODES as readonly string[]).includes(fields.permissionMode) ? (fields.permissionMode as PermissionMode) : undefined);
    if (fields.permissionMode === "dontAsk") agent.dontAsk = true;
    if (mode) agent.permissionMode = mode;
    else note(`permissionMode "${fields.permissionMode}" is not one rein has (${PERMISSION_MODES.join(", ")}): ignored`);
  }

  if (fields.tools && typeof fields.tools === "object" && !Array.isArray(fields.tools)) {
    agent.rules.push(...toolSwitches(fields.tools as Record<string, unknown>));
  } else {
    const tools = toolList(fields.tools, note);
    if (tools) agent.tools = tools;
  }
  const disallowed = toolList(fields.disallowedTools, note);
  if (disallowed) agent.disallowedTools = disallowed;
  if (fields.permission !== undefined) agent.rules.push(...permissionRules(fields.permission, note));
  Object.assign(agent, claudeFields(fields, note));
  return { agent, notes };
}

/** OpenCode's `tools: {write: false, "mcp_*": false}`: a tool switched off is denied outright. */
function toolSwitches(map: Record<string, unknown>): Rule[] {
  return Object.entries(map).map(([tool, on]) => ({ permission: toolPermissionOf(tool), pattern: "*", action: on === false ? ("deny" as const) : ("allow" as const) }));
}

const toolPermissionOf = (tool: string) => (tool.includes("*") ? tool : toolPermission(reinToolName(tool)));

/** OpenCode's `permission: {edit: deny, bash: {"git *": allow, "*": ask}}`, in the order written (the last match wins). */
function permissionRules(value: unknown, note: (text: string) => void): Rule[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    note("permission must map permissions to allow, ask or deny: ignored");
    return [];
  }
  const rules: Rule[] = [];
  for (const [permission, setting] of Object.entries(value as Record<string, unknown>)) {
    const name = permission === "*" ? "*" : toolPermissionOf(permission);
    if (isAction(setting)) {
      rules.push({ permission: name, pattern: "*", action: setting });
      continue;
    }
    if (!setting || typeof setting !== "object") {
      note(`permission.${permission} must be allow, ask, deny or a map of patterns: ignored`);
      continue;
    }
    // The catch-all first: a later, narrower pattern is what wins where it matches.
    const entries = Object.entries(setting as Record<string, unknown>).sort(([a], [b]) => Number(b === "*") - Number(a === "*"));
    for (const [pattern, action] of entries) {
      if (isAction(action)) rules.push({ permission: name, pattern, action });
      else note(`permission.${permission}."${pattern}" must be allow, ask or deny: ignored`);
    }
  }
  return rules;
}

function isAction(value: unknown): value is Action {
  return value === "allow" || value === "ask" || value === "deny";
}
