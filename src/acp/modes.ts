// The modes an ACP client can switch a session between: rein's permission modes and the
// workspace's primary agents (`agent:NAME`). A mode is applied by reopening the session with it.

import { sessionSettings } from "../session/chosen-model.ts";

export type ModeChoice = { permissionMode: string } | { agent: string };

/** What a mode id asks for; undefined when it is none of the offered ones. */
export function modeChoice(id: string, offered: readonly { id: string }[]): ModeChoice | undefined {
  if (!offered.some((m) => m.id === id)) return undefined;
  return id.startsWith("agent:") ? { agent: id.slice("agent:".length) } : { permissionMode: id };
}

export const MODE_TEXT: Record<string, string> = {
  default: "asks before edits, commands and anything outside the workspace",
  plan: "reads and plans; changes nothing",
  "accept-edits": "edits files in the workspace without asking; asks for commands",
  auto: "runs what the rules do not forbid without asking",
};

/**
 * The mode a session was switched to, kept in its row's settings as the server keeps what a session
 * was created with (`permission_mode`, `agent`), so `session/load` and the server open it in that mode.
 */
export function storedMode(settings: string | null | undefined): string | undefined {
  const kept = sessionSettings(settings);
  if (typeof kept.agent === "string" && kept.agent) return `agent:${kept.agent}`;
  return typeof kept.permission_mode === "string" && kept.permission_mode ? kept.permission_mode : undefined;
}

/** The row's settings JSON with `choice` as the session's mode (its other keys kept). */
export function withMode(settings: string | null | undefined, choice: ModeChoice): string {
  const { agent: _agent, permission_mode: _mode, ...rest } = sessionSettings(settings);
  return JSON.stringify({ ...rest, ...("agent" in choice ? { agent: choice.agent } : { permission_mode: choice.permissionMode }) });
}

