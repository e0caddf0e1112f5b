// What /lsp and the server show of one configured language server, before or after the hub loads.
import type { LspServerConfig } from "./config.ts";

export type ServerState = { name: string; source: string; state: "not started" | "starting" | "running" | "failed"; detail?: string; languages: string[] };

/** A server's state; with no live slot yet, a config's own problem is its failure. */
export function serverState(config: LspServerConfig, live: { failed?: string; starting?: boolean; running?: boolean } = {}): ServerState {
  const base = { name: config.name, source: config.source, languages: [...new Set(Object.values(config.entry?.extensionToLanguage ?? {}))] };
  const failed = live.failed ?? config.problem;
  if (failed) return { ...base, state: "failed", detail: failed };
  if (live.starting) return { ...base, state: "starting" };
  if (live.running) return { ...base, state: "running" };
  return { ...base, state: "not started" };
}
