// The hook wiring of a Session: which hooks there are (read from every source at start), and the
// session's hooks when it has any. The engine, its runners and the transcripts hooks read live in
// hook-runtime.ts, loaded at the first point one of a session's hooks listens at: without hooks, or
// before one fires, they cost nothing.
import type { AgentEvent, StampedEvent, StreamFn } from "../agent/types.ts";
import type { AgentRunner } from "../hooks/agent.ts";
import { hookEntries, type HookEntry, type HookSourcesInput } from "../hooks/sources.ts";
import type { HookPoints } from "../hooks/points.ts";
import { PROVIDER_KEY_ENV } from "../llm/provider-keys.ts";
import { childEnv } from "../permission/child-env.ts";
import { lazySessionHooks } from "./lazy-hooks.ts";

/** The environment of hook processes outside a session (rein hooks test): no provider keys, as in a session. */
export function hookProcessEnv(env: Readonly<Record<string, string | undefined>>, passthrough: readonly string[]): Record<string, string> {
  return childEnv(env, { passthrough, secrets: PROVIDER_KEY_ENV });
}

export type { HookEntry } from "../hooks/sources.ts";
export type { HookPoints } from "../hooks/points.ts";
export { hookDepthStop, MAX_HOOK_DEPTH } from "../hooks/depth.ts";

/** Every hook from every source (rein's config files, Claude Code's settings files), and what was wrong in Claude Code's. */
export function loadHooks(input: HookSourcesInput): { entries: HookEntry[]; warnings: string[]; notes: string[] } {
  return hookEntries(input);
}

/** The hooks a session runs: the entries from every source, and what the payload says of the session. */
export type SessionHookSettings = {
  entries: readonly HookEntry[];
  projectDir: string;
  permissionMode: string;
  /** the level an agent file's `effort` asks, for Claude Code payloads' `effort` */
  effort?: string;
  /** the front end, as Claude Code's CLAUDE_CODE_ENTRYPOINT says it: `sdk-cli` (headless, the default) or `cli` (the terminal) */
  entrypoint?: string;
  /** a subagent's session: its hooks speak of the parent session and name the agent (SubagentStart, SubagentStop) */
  subagent?: { parentId: string; agentType: string };
};

export type SessionHooks = {
  points: HookPoints;
  record: (event: StampedEvent) => void;
  /** the session rests (a run ended, it is let go): the transcript file is closed until the next event */
  rest: () => void;
};

/** What the session's hooks need of the session. */
export type HookSession = {
  id: string;
  cwd: string;
  outputDir: string;
  env: Readonly<Record<string, string>>;
  emit: (event: AgentEvent) => void;
  /** the model prompt hooks ask */
  model: () => { stream: StreamFn; model: string };
  /** the subagent agent hooks run */
  agent: AgentRunner;
  /** an asyncRewake hook exited 2: its note goes to the model now */
  wake?: (note: string) => void;
  /** the session's stored events after a seq, for the transcripts of hooks loaded after the session began */
  history?: (afterSeq: number) => StampedEvent[];
};

/**
 * The session's hooks, or undefined when none is active (then nothing of the hook engine loads).
 * With the session's `history`, the engine loads at the first point a hook listens at (lazy-hooks.ts).
 */
export function sessionHooks(settings: SessionHookSettings | undefined, session: HookSession): SessionHooks | undefined {
  if (!settings || !settings.entries.some((entry) => entry.active)) return undefined;
  // Synchronous, as the session's constructor is; the bundle keeps the module unevaluated until here.
  const start = () => (require("./hook-runtime.ts") as typeof import("./hook-runtime.ts")).startSessionHooks(settings, session);
  return session.history ? lazySessionHooks(settings, start, session.history) : start();
}
