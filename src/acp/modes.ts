// The modes an ACP client can switch a session between: rein's permission modes and the
// workspace's primary agents (`agent:NAME`). A mode is applied by reopening the session with it.

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
