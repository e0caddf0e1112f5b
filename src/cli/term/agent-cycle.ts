// Tab at an empty prompt: the session runs as the next primary agent from the next turn (round
// and round; /agents names them all); the prompt names the agent unless it is the first (build).
// Shift-Tab is the permission mode's, as in Claude Code (mode-cycle.ts).
import chalk from "chalk";
import { visible } from "./editor.ts";
import type { SlashHost } from "./slash.ts";

export type AgentHost = Pick<SlashHost, "agent" | "primaryAgents" | "switchAgent" | "agents">;

/** What a Tab did: a line to print, or a hint under the prompt. */
export type Cycled = { print: string } | { hint: string };

export function cycleAgent(host: AgentHost | undefined, step: 1 | -1, working: boolean): Cycled {
  const names = host?.primaryAgents?.() ?? [];
  const current = host?.agent?.();
  if (!host?.switchAgent || !current || names.length < 2) return { hint: names.length === 1 ? `${names[0]} is the only agent to run as` : "" };
  if (working) return { hint: "the agent changes between turns: press Tab again once this one ends" };
  const at = names.indexOf(current);
  const next = names[(at + step + names.length) % names.length]!;
  try {
    host.switchAgent(next);
  } catch (error) {
    return { print: chalk.red(`rein: ${visible((error as Error).message)}`) };
  }
  const about = host.agents?.().find((a) => a.name === next)?.description.split("\n")[0] ?? "";
  return { print: chalk.dim(visible(`agent: ${next}${about ? ` · ${about}` : ""} (Tab: the next one)`)) };
}

/** "plan " before the prompt's `›`; nothing for the first (default) agent. */
export function agentLabel(host: AgentHost | undefined): string {
  const agent = host?.agent?.();
  return agent && agent !== host?.primaryAgents?.()[0] ? `${visible(agent)} ` : "";
}
