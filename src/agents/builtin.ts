// The built-in agents, as data like any agent file: build (today's default), plan (edits denied but
// Markdown under .rein/plans/), explore (read-only tools, a prompt for searching) and general.
import { join } from "node:path";
import explorePrompt from "../../prompts/agents/explore.txt" with { type: "text" };
import generalPrompt from "../../prompts/agents/general.txt" with { type: "text" };
import planPrompt from "../../prompts/agents/plan.txt" with { type: "text" };
import type { Rule } from "../permission/evaluate.ts";
import type { AgentDefinition } from "./types.ts";

/** the agent a session runs as when none was chosen */
export const DEFAULT_AGENT = "build";

const READ_ONLY_TOOLS = ["read", "glob", "grep", "list", "bash", "webfetch", "history"];

/** Where plan mode may write: Markdown files under the project's .rein/plans/. */
function plansFolder(projectRoot: string): string {
  return join(projectRoot, ".rein", "plans");
}

export function builtinAgents(projectRoot: string): AgentDefinition[] {
  const base = { rules: [] as Rule[], source: "built-in", project: false };
  return [
    { ...base, name: DEFAULT_AGENT, description: "The default agent: reads, edits and runs commands as your rules allow.", prompt: "", mode: "primary" },
    {
      ...base,
      name: "plan",
      description: "Plans without changing the project: edits are denied except Markdown files under .rein/plans/.",
      prompt: planPrompt.trim(),
      mode: "primary",
      permissionMode: "plan",
      rules: [{ permission: "edit", pattern: `${plansFolder(projectRoot)}/*.md`, action: "allow" }],
    },
    {
      ...base,
      name: "explore",
      description: "Searches and reads the code fast, read-only; for questions like 'where is X handled?'.",
      prompt: explorePrompt.trim(),
      mode: "subagent",
      permissionMode: "plan",
      tools: READ_ONLY_TOOLS,
      rules: [{ permission: "edit", pattern: "*", action: "deny" }],
    },
    {
      ...base,
      name: "general",
      description: "A subagent with the parent's tools, for a task of several steps (research, a change across files).",
      prompt: generalPrompt.trim(),
      mode: "subagent",
    },
  ];
}
