// rein plugin list: each plugin of this run, where it is, what it brings (commands, skills, agents,
// hooks, MCP servers, bin/), and every line of what failed to load.
import { homedir } from "node:os";
import { describeHandler } from "../../session/hook-runtime.ts";
import { loadExtensions } from "../../session/skills.ts";
import { loadAgents } from "../../app/factory.ts";
import { describeSource, pluginStore, readInstalled } from "../../app/plugins.ts";
import { agentPlaces, mcpFor, runHooks, runPlugins, type Context } from "../../app/context.ts";
import { out } from "../../app/output.ts";

export type PluginRow = {
  name: string;
  id: string;
  root: string;
  version?: string;
  /** where an installed plugin came from; absent for a folder in ~/.config/rein/plugins */
  source?: string;
  commands: string[];
  skills: string[];
  agents: string[];
  hooks: string[];
  mcp_servers: string[];
  lsp_servers: string[];
  bin?: string;
};

/** `problems`: what did not load; `notes`: what loaded with something left out or read leniently. */
export type PluginListing = { plugins: PluginRow[]; disabled: { id: string; version: string; source: string }[]; problems: string[]; notes: string[] };

export function pluginRows(ctx: Context): PluginListing {
  const active = runPlugins(ctx);
  const read = readInstalled(pluginStore(ctx.paths.dataDir));
  const installed = typeof read === "string" ? {} : read;
  const loaded = loadExtensions({ cwd: ctx.cwd, projectRoot: ctx.projectRoot, home: ctx.env.HOME || homedir(), configDir: ctx.paths.configDir, trusted: ctx.trusted }, [], active);
  const { agents, report } = loadAgents(agentPlaces(ctx));
  const hookLoad = runHooks(ctx);
  const hooks = hookLoad.entries;
  const servers = mcpFor(ctx).servers;
  const plugins = active.plugins.map((p): PluginRow => {
    const mine = (name: string) => name.startsWith(`${p.name}:`);
    const within = (file: string) => file.startsWith(`${p.root}/`);
    return {
      name: p.name,
      id: p.id,
      root: p.root,
      ...(p.version ? { version: p.version } : {}),
      ...(installed[p.id]?.root === p.root ? { source: describeSource(installed[p.id]!.source) } : {}),
      commands: loaded.commands.filter((c) => c.kind === "command" && mine(c.name)).map((c) => `/${c.name}`),
      skills: loaded.skills.skills.filter((s) => mine(s.name)).map((s) => s.name),
      agents: agents.filter((a) => mine(a.name)).map((a) => a.name),
      hooks: hooks.filter((h) => within(h.file)).map((h) => `${h.event}${h.matcher ? `(${h.matcher})` : ""} ${describeHandler(h.handler)}`),
      mcp_servers: servers.filter((s) => s.name.startsWith(`plugin:${p.name}:`)).map((s) => (s.problem ? `${s.name} (${s.problem})` : s.name)),
      lsp_servers: p.lspServers.flatMap((set) => Object.keys(set.servers)),
      ...(p.bin ? { bin: p.bin } : {}),
    };
  });
  const on = new Set(active.plugins.map((p) => p.root));
  const disabled = Object.values(installed).filter((p) => !on.has(p.root)).map((p) => ({ id: p.id, version: p.version, source: describeSource(p.source) }));
  const ofPlugins = (line: string) => active.plugins.some((p) => line.includes(`${p.root}/`));
  const problems = [...active.problems, ...report.warnings.filter(ofPlugins), ...loaded.problems.filter((l) => ofPlugins(l) && !active.problems.includes(l)), ...hookLoad.warnings.filter(ofPlugins)];
  const notes = [...report.notes.filter(ofPlugins), ...loaded.skills.warnings.filter(ofPlugins), ...hookLoad.notes.filter(ofPlugins)];
  return { plugins, disabled, problems, notes };
}

export function listPlugins(ctx: Context): number {
  const listing = pluginRows(ctx);
  const { plugins, disabled, problems, notes } = listing;
  if (ctx.args.json) {
    out(`${JSON.stringify(listing, null, 2)}\n`);
    return 0;
  }
  const lines = plugins.length || disabled.length ? [] : ["no plugins (rein plugin install PATH | GIT_URL | NAME@MARKETPLACE)"];
  for (const row of plugins) {
    lines.push(`${row.id}${row.version ? ` ${row.version}` : ""}  ${row.root}`);
    if (row.source) lines.push(`  from: ${row.source}`);
    const part = (label: string, items: readonly string[]) => items.length && lines.push(`  ${label}: ${items.join(", ")}`);
    part("commands", row.commands);
    part("skills", row.skills);
    part("agents", row.agents);
    part("hooks", row.hooks);
    part("MCP servers", row.mcp_servers);
    part("language servers", row.lsp_servers);
    if (row.bin) lines.push(`  bin: ${row.bin} (on the bash tool's PATH)`);
  }
  if (disabled.length) lines.push("installed, not enabled here:", ...disabled.map((p) => `  ${p.id} ${p.version}  from ${p.source} (rein plugin enable ${p.id})`));
  if (problems.length) lines.push("problems:", ...problems.map((p) => `  ${p}`));
  if (notes.length) lines.push("notes:", ...notes.map((p) => `  ${p}`));
  out(`${lines.join("\n")}\n`);
  return 0;
}
