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
  mode: AgentMode;
  /** not listed to the model as a subagent_type (it can still be chosen by name) */
  hidden?: boolean;
  /** "built-in", or the file it was read from */
  source: string;
  /** read from the repository: loosens nothing without trust */
  project: boolean;
};

/** What reading agent files found beside the agents: files skipped (warnings) and fields ignored (notes). */
export type AgentReport = { warnings: string[]; notes: string[] };
