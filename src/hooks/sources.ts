// Where hooks come from: the `hooks` of rein's config files (already checked, see
// config/hooks-schema.ts) and of Claude Code's settings files. Everything is concatenated; project
// sources run only in a trusted workspace (they are listed, inactive, otherwise). Enabled plugins'
// hook files are one more source, read like Claude Code's files, with the plugin's variables.
import { join } from "node:path";
import { claudeHooks } from "../config/claude-hooks.ts";
import type { HookEvent, HookHandler, HooksConfig } from "../config/hooks-schema.ts";
import type { Dialect } from "./dialect.ts";
import { matcherProblem } from "./matcher.ts";
import { readOptionalJson } from "../config/optional-json.ts";

export type HookEntry = {
  event: HookEvent;
  matcher?: string;
  handler: HookHandler;
  /** the file it was defined in */
  file: string;
  scope: "user" | "project";
  dialect: Dialect;
  /** false for a project source in a workspace that is not trusted */
  active: boolean;
  /** exported to the handler's process besides the session's (a plugin's CLAUDE_PLUGIN_ROOT...) */
  env?: Readonly<Record<string, string>>;
  /** an agent file's own hook: active only in that agent's session (not in the subagents it starts) */
  agent?: string;
};

/** An `async: true` (or `asyncRewake: true`) command hook: it runs in the background and decides nothing. */
export function isAsync(entry: HookEntry): boolean {
  return entry.handler.type === "command" && (entry.handler.async === true || entry.handler.asyncRewake === true);
}

export type HookSourcesInput = {
  /** the `hooks` of rein's config files, user first */
  rein: readonly { file: string; scope: "user" | "project"; hooks: HooksConfig }[];
  home: string;
  projectRoot: string;
  trusted: boolean;
  /**
   * enabled plugins' hook configurations (event -> matcher groups), with their variables; `checked`:
   * already read by claudeHooks when the installed plugins' index was written, with what it said then
   */
  plugins?: readonly { file: string; hooks: Record<string, unknown>; env: Readonly<Record<string, string>>; checked?: { warnings: readonly string[]; notes: readonly string[] } }[];
};

/** `warnings`: what was not loaded (a group, a file); `notes`: what was left out of what loaded (a key rein does not read). */
export function hookEntries(input: HookSourcesInput): { entries: HookEntry[]; warnings: string[]; notes: string[] } {
  const warnings: string[] = [];
  const notes: string[] = [];
  const entries: HookEntry[] = [];
  const add = (file: string, scope: HookEntry["scope"], dialect: Dialect, hooks: HooksConfig, env?: HookEntry["env"]) => {
    for (const [event, groups] of Object.entries(hooks) as [HookEvent, HooksConfig[HookEvent]][]) {
      groups?.forEach((group, g) => {
        const problem = matcherProblem(group.matcher);
        if (problem) warnings.push(`${file}: hooks.${event}[${g}]: ${problem}`);
        for (const handler of group.hooks) {
          entries.push({ event, ...(group.matcher !== undefined ? { matcher: group.matcher } : {}), handler, file, scope, dialect, active: scope === "user" || input.trusted, ...(env ? { env } : {}) });
        }
      });
    }
  };
  for (const source of input.rein) add(source.file, source.scope, "rein", source.hooks);
  const claudeFiles: [string, HookEntry["scope"]][] = [
    [join(input.home, ".claude", "settings.json"), "user"],
    [join(input.projectRoot, ".claude", "settings.json"), "project"],
    [join(input.projectRoot, ".claude", "settings.local.json"), "project"],
  ];
  // Started in the home folder, ~/.claude/settings.json is the user's file, read once as such.
  const seen = new Set<string>();
  for (const [file, scope] of claudeFiles) {
    if (seen.has(file)) continue;
    seen.add(file);
    const hooks = readClaudeHooks(file, warnings, notes);
    if (hooks) add(file, scope, "claude", hooks);
  }
  for (const plugin of input.plugins ?? []) {
    if (!plugin.checked) {
      add(plugin.file, "user", "claude", claudeHooks(plugin.hooks, plugin.file, warnings, notes), plugin.env);
      continue;
    }
    warnings.push(...plugin.checked.warnings);
    notes.push(...plugin.checked.notes);
    add(plugin.file, "user", "claude", plugin.hooks as HooksConfig, plugin.env);
  }
  return { entries, warnings, notes };
}

/**
 * An agent file's `hooks` (Claude Code's), active only while that agent runs: read as a settings
 * file's are; as a subagent its `Stop` hooks are made `SubagentStop` (the event that ends a
 * subagent's run), as the main agent (`--agent NAME`) they stay `Stop`.
 */
export function agentHookEntries(agent: { name: string; source: string; hooks: Record<string, unknown> }, warnings: string[], notes: string[], runs: "subagent" | "main" = "subagent"): HookEntry[] {
  const read = claudeHooks(agent.hooks, agent.source, warnings, notes);
  // As a subagent its Stop runs as SubagentStop, beside a SubagentStop of its own (both run, as in Claude Code).
  const { Stop: stop, ...rest } = read;
  const hooks: HooksConfig = runs === "main" || !stop ? read : { ...rest, SubagentStop: [...(rest.SubagentStop ?? []), ...stop] };
  const entries: HookEntry[] = [];
  for (const [event, groups] of Object.entries(hooks) as [HookEvent, HooksConfig[HookEvent]][]) {
    for (const group of groups ?? []) {
      const problem = matcherProblem(group.matcher);
      if (problem) warnings.push(`${agent.source}: hooks.${event}: ${problem}`);
      for (const handler of group.hooks) entries.push({ event, ...(group.matcher !== undefined ? { matcher: group.matcher } : {}), handler, file: agent.source, scope: "user", dialect: "claude", active: true, agent: agent.name });
    }
  }
  return entries;
}

/** A Claude Code settings file's hooks, group by group: what is wrong costs that group and a warning, never the rest. */
function readClaudeHooks(file: string, warnings: string[], notes: string[]): HooksConfig | undefined {
  const read = readOptionalJson(file);
  // No such file: nothing to load. One that cannot be read, or holds no object, is told once, by the
  // settings reader (config/claude-settings.ts); one that is not JSON costs its hooks too.
  if (!read || ("problem" in read && read.kind !== "invalid")) return undefined;
  if ("problem" in read) {
    warnings.push(`${file}: ${read.problem}; its hooks were not loaded`);
    return undefined;
  }
  const hooks = read.json.hooks;
  if (hooks === undefined) return undefined;
  if (!isRecord(hooks)) {
    warnings.push(`${file}: "hooks" is not an object of events; its hooks were not loaded`);
    return undefined;
  }
  return claudeHooks(hooks, file, warnings, notes);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
