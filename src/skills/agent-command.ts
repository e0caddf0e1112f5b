// A command or skill whose front matter names an `agent`: its prompt asks the model to hand the task
// to that agent through the task tool (the agent runs it in a child session, as OpenCode's subtask
// commands and Claude Code's forked skills do). An agent that is not there is the command's error.
import template from "../../prompts/commands/agent.txt" with { type: "text" };

/**
 * The agent a command means, given the agents a task may start, or why there is none. A plugin's
 * command (`kit:review`) naming `reviewer` means its own plugin's `kit:reviewer` when there is one.
 */
export function resolveAgent(command: string, agent: string, subagents: readonly string[]): { agent: string } | { error: string } {
  const prefix = command.includes(":") ? command.slice(0, command.indexOf(":") + 1) : "";
  const found = [`${prefix}${agent}`, agent].find((name) => subagents.includes(name));
  if (found) return { agent: found };
  const known = subagents.length ? `the agents a task can run here are ${subagents.join(", ")}` : "no agent here can run a task";
  return { error: `/${command} asks for the agent ${agent} (its front matter), which is not defined here: ${known} (agent files: docs/agents.md)` };
}

export function forAgent(text: string, agent: string): string {
  return `${template.replaceAll("{agent}", agent)}${text}`;
}
