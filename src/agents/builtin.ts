// The built-in agents, as data like any agent file: build (today's default), plan (edits denied but
// Markdown under .rein/plans/), coordinator (leads a team of workers), explore (read-only tools, a
// prompt for searching) and general.
import { join } from "node:path";
import coordinatorPrompt from "../../prompts/agents/coordinator.txt" with { type: "text" };
import explorePrompt from "../../prompts/agents/explore.txt" with { type: "text" };
import generalPrompt from "../../prompts/agents/general.txt" with { type: "text" };
import planPrompt from "../../prompts/agents/plan.txt" with { type: "text" };
import type { Rule } from "../permission/evaluate.ts";
import type { AgentDefinition } from "./types.ts";

/** the agent a session runs as when none was chosen */
export const DEFAULT_AGENT = "build";

const READ_ONLY_TOOLS = ["read", "glob", "grep", "list", "bash", "webfetch", "history"];
/** the coordinator's: the team's tools and the read-only ones, without bash */
export const COORDINATOR_TOOLS = ["task", "send_message", "task_stop", "task_output", "team_create", "team_delete", "task_create", "task_update", "task_list", "read", "glob", "grep", "list", "webfetch", "history", "todo"];

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
      name: "coordinator",
      description: "Leads a team: splits the work among background workers, messages and stops them, checks their results; changes nothing itself.",
      prompt: coordinatorPrompt.trim(),
      // primary only: a task never runs it, so a worker cannot become a coordinator
      mode: "primary",
      tools: COORDINATOR_TOOLS,
      rules: [
        { permission: "edit", pattern: "*", action: "deny" },
        { permission: "bash", pattern: "*", action: "deny" },
      ],
    },
    {
      ...base,
      name: "explore",
      description: "Read-only and fast: searches and reads the code ('where is X handled?').",
      prompt: explorePrompt.trim(),
      mode: "subagent",
      permissionMode: "plan",
      tools: READ_ONLY_TOOLS,
      rules: [{ permission: "edit", pattern: "*", action: "deny" }],
    },
    {
      ...base,
      name: "general",
      description: "Has your tools; for work of several steps (research, a change across files).",
      prompt: generalPrompt.trim(),
      mode: "subagent",
    },
  ];
}
