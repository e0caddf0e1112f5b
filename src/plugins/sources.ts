// What enabled plugins feed the other parts' loaders: skills and commands folders (named
// `plugin:name`), agent folders (`plugin:agent`), hook configurations, MCP servers
// (`plugin:PLUGIN:SERVER`) and `bin/` folders. Each loader takes these as one more source.
import { basename } from "node:path";
import { claudeHooks } from "../config/claude-hooks.ts";
import { HOOK_EVENTS } from "../config/hooks-schema.ts";
import { fillDeep, fillPluginVars, pluginEnv } from "./plugin-env.ts";
import type { AgentFolderRead } from "../agents/sources.ts";
import type { CommandDirRead } from "../skills/commands.ts";
import type { SkillRootRead } from "../skills/discover.ts";
import type { Plugin } from "./read-plugin.ts";

/**
 * `checked`: `hooks` was read as Claude Code's hooks (config/claude-hooks.ts) when the plugin's runs
 * were made, which the installed plugins' index keeps: a start does not check them again.
 */
export type PluginHookSource = { file: string; hooks: Record<string, unknown>; env: Record<string, string>; checked?: { warnings: string[]; notes: string[] } };
export type PluginServerSource = { file: string; servers: Record<string, unknown> };
export type PluginFolder = { dir: string; prefix: string };

export type PluginSources = {
  /** `read`: what reading the folder gave, from an installed copy's index (each loader uses it instead of the files) */
  skills: (PluginFolder & { single?: string; read?: SkillRootRead })[];
  commands: (PluginFolder & { source: "user"; read?: CommandDirRead })[];
  agents: (PluginFolder & { read?: AgentFolderRead })[];
  hooks: PluginHookSource[];
  mcp: PluginServerSource[];
  /** language servers, named `plugin:PLUGIN:SERVER`, with the plugin's variables filled */
  lsp: (PluginServerSource & { env: Record<string, string> })[];
  /** folders for the end of the bash tool's PATH */
  bin: string[];
  warnings: string[];
};

/** What a plugin runs, its variables filled: the same for a copy every time, so the installed plugins' index keeps it (Plugin.runs). */
export type PluginRuns = Pick<PluginSources, "hooks" | "mcp" | "lsp" | "warnings">;

export function pluginRuns(plugin: Plugin): PluginRuns {
  const runs: PluginRuns = { hooks: [], mcp: [], lsp: [], warnings: [] };
  for (const set of plugin.hooks) runs.hooks.push(hookSource(plugin, set, runs.warnings));
  for (const set of plugin.mcpServers) runs.mcp.push(serverSource(plugin, set));
  for (const set of plugin.lspServers) {
    const servers = Object.fromEntries(Object.entries(set.servers).map(([name, raw]) => [`plugin:${plugin.name}:${name}`, fillDeep(raw, plugin)]));
    runs.lsp.push({ file: set.file, servers, env: pluginEnv(plugin) });
  }
  return runs;
}

/** The key of a skill root in ComponentReads.skills (plugin-index.ts). */
export const skillKey = (dir: string, single?: string) => `${single ?? ""}\u0000${dir}`;

export function pluginSources(plugins: readonly Plugin[]): PluginSources {
  const sources: PluginSources = { skills: [], commands: [], agents: [], hooks: [], mcp: [], lsp: [], bin: [], warnings: [] };
  for (const plugin of plugins) {
    const prefix = `${plugin.name}:`;
    const read = plugin.read;
    const skill = (dir: string, single?: string) => {
      const found = read?.skills[skillKey(dir, single)];
      return { dir, prefix, ...(single ? { single } : {}), ...(found ? { read: found } : {}) };
    };
    // Loops, not map: map's calls add up over a start's plugins past JavaScriptCore's optimizing threshold.
    for (const dir of plugin.skills) sources.skills.push(skill(dir));
    for (const dir of plugin.skillDirs) sources.skills.push(skill(dir, basename(dir)));
    if (plugin.skill) sources.skills.push(skill(plugin.root, plugin.name));
    for (const dir of plugin.commands) sources.commands.push({ dir, prefix, source: "user" as const, ...(read?.commands[dir] ? { read: read.commands[dir] } : {}) });
    for (const dir of plugin.agents) sources.agents.push({ dir, prefix, ...(read?.agents[dir] ? { read: read.agents[dir] } : {}) });
    const runs = plugin.runs ?? pluginRuns(plugin);
    sources.hooks.push(...runs.hooks);
    sources.mcp.push(...runs.mcp);
    sources.lsp.push(...runs.lsp);
    sources.warnings.push(...runs.warnings);
    if (plugin.bin) sources.bin.push(plugin.bin);
  }
  return sources;
}

/**
 * The plugin's variables are exported to its hooks; an exec-form handler (`args`) gets them
 * substituted too, as no shell does it, while a shell-form command is left for the shell to expand
 * (a root with a space in it stays one word inside quotes).
 */
function hookSource(plugin: Plugin, set: Plugin["hooks"][number], warnings: string[]): PluginHookSource {
  const hooks: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(set.hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      warnings.push(`plugin ${plugin.name}: ${set.file}: hook event "${event}" is not one rein runs (rein runs ${HOOK_EVENTS.join(", ")}); those hooks are skipped`);
      continue;
    }
    hooks[event] = Array.isArray(groups) ? groups.map((group) => fillGroup(group, plugin)) : groups;
  }
  const checked = { warnings: [] as string[], notes: [] as string[] };
  return { file: set.file, hooks: claudeHooks(hooks, set.file, checked.warnings, checked.notes), env: pluginEnv(plugin), checked };
}

function fillGroup(group: unknown, plugin: Plugin): unknown {
  if (!isRecord(group) || !Array.isArray(group.hooks)) return group;
  const handlers = group.hooks.map((handler) => {
    if (!isRecord(handler)) return handler;
    const shellForm = handler.type === "command" && handler.args === undefined && typeof handler.command === "string";
    const filled = fillDeep(handler, plugin) as Record<string, unknown>;
    return shellForm ? { ...filled, command: handler.command } : filled;
  });
  return { ...group, hooks: handlers };
}

/** Servers named `plugin:PLUGIN:SERVER` (tools `mcp__plugin_PLUGIN_SERVER__TOOL`, as in Claude Code), variables filled and exported. */
function serverSource(plugin: Plugin, set: Plugin["mcpServers"][number]): PluginServerSource {
  const servers: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(set.servers)) {
    const entry = fillDeep(raw, plugin);
    const stdio = isRecord(entry) && entry.url === undefined && (entry.type === undefined || entry.type === "stdio") && (entry.env === undefined || isRecord(entry.env));
    servers[`plugin:${plugin.name}:${name}`] = stdio ? { ...entry, env: { ...pluginEnv(plugin), ...(isRecord(entry.env) ? entry.env : {}) } } : entry;
  }
  return { file: set.file, servers };
}

/** The plugin a command, skill or agent name (`plugin:name`) belongs to. */
export function pluginOf(name: string, plugins: readonly Plugin[]): Plugin | undefined {
  return plugins.find((p) => name.startsWith(`${p.name}:`));
}

/** A plugin's command or skill text: `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` filled. */
export function pluginText(text: string, name: string, plugins: readonly Plugin[]): string {
  const plugin = pluginOf(name, plugins);
  return plugin ? fillPluginVars(text, plugin) : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
