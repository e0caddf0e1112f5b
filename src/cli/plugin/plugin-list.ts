// rein plugin list: each plugin of this run, where it is, what it brings (commands, skills, agents,
// hooks, MCP servers, bin/), and every line of what failed to load.
import { homedir } from "node:os";
import { describeHandler } from "../../session/session-hooks.ts";
import { loadExtensions } from "../../session/skills.ts";
import { loadAgents } from "../../session/factory.ts";
import { agentPlaces, mcpFor, runHooks, runPlugins, type Context } from "../context.ts";
import { out } from "../output.ts";

export type PluginRow = {
  name: string;
  id: string;
  root: string;
  version?: string;
  commands: string[];
  skills: string[];
  agents: string[];
  hooks: string[];
  mcp_servers: string[];
  bin?: string;
};

export function pluginRows(ctx: Context): { plugins: PluginRow[]; problems: string[] } {
  const active = runPlugins(ctx);
  const loaded = loadExtensions({ cwd: ctx.cwd, projectRoot: ctx.projectRoot, home: ctx.env.HOME || homedir(), configDir: ctx.paths.configDir, trusted: ctx.trusted }, [], active);
  const agents = loadAgents(agentPlaces(ctx)).agents;
  const hooks = runHooks(ctx).entries;
  const servers = mcpFor(ctx).servers;
  const plugins = active.plugins.map((p): PluginRow => {
    const mine = (name: string) => name.startsWith(`${p.name}:`);
    const within = (file: string) => file.startsWith(`${p.root}/`);
    return {
      name: p.name,
      id: p.id,
      root: p.root,
      ...(p.version ? { version: p.version } : {}),
      commands: loaded.commands.filter((c) => c.kind === "command" && mine(c.name)).map((c) => `/${c.name}`),
      skills: loaded.skills.skills.filter((s) => mine(s.name)).map((s) => s.name),
      agents: agents.filter((a) => mine(a.name)).map((a) => a.name),
      hooks: hooks.filter((h) => within(h.file)).map((h) => `${h.event}${h.matcher ? `(${h.matcher})` : ""} ${describeHandler(h.handler)}`),
      mcp_servers: servers.filter((s) => s.name.startsWith(`plugin:${p.name}:`)).map((s) => (s.problem ? `${s.name} (${s.problem})` : s.name)),
      ...(p.bin ? { bin: p.bin } : {}),
    };
  });
  return { plugins, problems: active.problems };
}

export function listPlugins(ctx: Context): number {
  const { plugins, problems } = pluginRows(ctx);
  if (ctx.args.json) {
    out(`${JSON.stringify({ plugins, problems }, null, 2)}\n`);
    return 0;
  }
  const lines = plugins.length ? [] : ["no plugins (rein plugin install PATH | GIT_URL | NAME@MARKETPLACE)"];
  for (const row of plugins) {
    lines.push(`${row.name}${row.version ? ` ${row.version}` : ""}  ${row.root}`);
    const part = (label: string, items: readonly string[]) => items.length && lines.push(`  ${label}: ${items.join(", ")}`);
    part("commands", row.commands);
    part("skills", row.skills);
    part("agents", row.agents);
    part("hooks", row.hooks);
    part("MCP servers", row.mcp_servers);
    if (row.bin) lines.push(`  bin: ${row.bin} (on the bash tool's PATH)`);
  }
  if (problems.length) lines.push("problems:", ...problems.map((p) => `  ${p}`));
  out(`${lines.join("\n")}\n`);
  return 0;
}
