// Shift-Tab, as in Claude Code: the session's permission mode cycles (default, accept-edits, and
// auto when the run began in auto mode), from the next tool call on, even while a turn runs. Plan
// is the plan agent, which Tab reaches. The prompt shows a mode other than the default below it.
import chalk from "chalk";
import type { PermissionMode } from "../../config/load.ts";
import type { SlashHost } from "./slash.ts";

export type ModeHost = Pick<SlashHost, "permissionMode" | "permissionModes" | "switchMode">;

/** The modes Shift-Tab goes through, starting from the one the run began in. */
export function modeCycle(started: PermissionMode): PermissionMode[] {
  return started === "auto" ? ["default", "accept-edits", "auto"] : ["default", "accept-edits"];
}

/** Switches to the next mode; the line to print. */
export function cycleMode(host: ModeHost | undefined, to?: PermissionMode): string | undefined {
  const modes = host?.permissionModes?.() ?? [];
  const current = host?.permissionMode?.();
  if (!host?.switchMode || !current || modes.length < 2) return undefined;
  const next = to ?? modes[(modes.indexOf(current) + 1) % modes.length]!;
  host.switchMode(next);
  return chalk.dim(`permission mode: ${next}${ABOUT[next] ? ` · ${ABOUT[next]}` : ""} (shift+tab: the next one)`);
}

/** The line under the prompt in a mode other than the default. */
export function modeLine(host: ModeHost | undefined): string | undefined {
  const mode = host?.permissionMode?.();
  // Plan is the plan agent's, which the prompt names already.
  return mode && mode !== "default" && mode !== "plan" ? chalk.dim(`⏵⏵ ${mode} on (shift+tab to cycle)`) : undefined;
}

const ABOUT: Partial<Record<PermissionMode, string>> = {
  default: "edits and commands that are not read-only ask",
  "accept-edits": "edits in the workspace run without asking",
  auto: "everything runs unless a deny rule or a protected path forbids it",
};
