// An agent is data: a name, a description, a system prompt, a rule set, a tool list, a model, a
// turn limit and a mode. Built-in agents and agent files all become this.
import type { Rule } from "../permission/evaluate.ts";
import type { PermissionMode } from "../permission/modes.ts";

export const AGENT_MODES = ["primary", "subagent", "all"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

export type AgentDefinition = {
  name: string;
  description: string;
  /** the system prompt's agent part (the file's body); empty: the session's own prompt alone */
  prompt: string;
  /** the agent's rules, in order (the last match wins among them); see combine.ts for how they meet the user's */
  rules: Rule[];
  /** the tools offered (rein names); undefined: every tool of the session */
  tools?: string[];
  /** tools never offered (rein names) */
  disallowedTools?: string[];
  /** undefined: the parent's (or the session's) model */
  model?: string;
  maxTurns?: number;
  /** the permission mode the agent runs in (its rules come before the agent's own) */
  permissionMode?: PermissionMode;
  /** Claude Code's `permissionMode: dontAsk`: what its rules would ask is refused, no one is asked (session/agent-fields.ts) */
  dontAsk?: boolean;
  mode: AgentMode;
  /** not listed to the model as a subagent_type (it can still be chosen by name) */
  hidden?: boolean;
  /** "built-in", or the file it was read from */
  source: string;
  /** read from the repository: loosens nothing without trust */
  project: boolean;
  /** skills whose text follows a subagent's first prompt, in its first message (Claude Code's `skills`, session/subagents.ts) */
  skills?: string[];
  /** its memory folder, whose MEMORY.md is read into its prompt as a subagent (session/agent-fields.ts): ~/.claude/agent-memory/NAME/ (user), .claude/agent-memory/NAME/ (project), .claude/agent-memory-local/NAME/ (local) */
  memory?: "user" | "project" | "local";
  /** Claude Code's reasoning effort: a level (sent to a model that takes one: session/agent-fields.ts withEffort, llm/models.ts effortFor) or a number (sends none) */
  effort?: "low" | "medium" | "high" | "xhigh" | "max" | number;
  /** sent as the first user turn when the agent runs as the main agent, before any prompt given */
  initialPrompt?: string;
  /** MCP servers for the agent: names of configured servers (their tools offered past `tools`), or `{NAME: config}` entries started for its runs only (session/agent-fields.ts) */
  mcpServers?: (string | Record<string, unknown>)[];
  /** hooks active only while the agent runs (as a subagent its Stop hooks fire as SubagentStop), in the hooks.json shape */
  hooks?: Record<string, unknown>;
  /** every task of it runs in the background, whatever the call says (as in Claude Code) */
  background?: boolean;
  /** "worktree": runs in its own git worktree (applied by the worktree support) */
  isolation?: "worktree";
  /** as a subagent, its prompt has none of the instruction files (CLAUDE.md, AGENTS.md...): Claude Code's `omitClaudeMd` */
  omitClaudeMd?: boolean;
  /** as a subagent, the window (tokens) its conversation is compacted by, when smaller than its model's (Claude Code's `autoCompactWindow`) */
  autoCompactWindow?: number;
};

/** What reading agent files found beside the agents: files skipped (warnings) and fields ignored (notes). */
export type AgentReport = { warnings: string[]; notes: string[] };
