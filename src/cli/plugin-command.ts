// rein plugin list: the plugins in rein's plugins folder, what each brings, and what failed to load.
import { homedir } from "node:os";
import { join } from "node:path";
import { loadExtensions } from "../session/skills.ts";
import { UsageError } from "./args.ts";
import type { Context } from "./context.ts";
import { out } from "./output.ts";

export function pluginCommand(rest: string[], ctx: Context): number {
  const [action = "list"] = rest;
  if (action !== "list") throw new UsageError(`unknown action "${action}" (rein plugin list [--json]; install, enable and marketplaces are not there yet: copy or link a plugin folder into ${join(ctx.paths.configDir, "plugins")})`);
  const loaded = loadExtensions({ cwd: ctx.cwd, projectRoot: ctx.projectRoot, home: ctx.env.HOME || homedir(), configDir: ctx.paths.configDir, trusted: ctx.trusted });
  const rows = loaded.plugins.map((p) => {
    const mine = (name: string) => name.startsWith(`${p.name}:`);
    return {
      name: p.name,
      root: p.root,
      ...(p.version ? { version: p.version } : {}),
      commands: loaded.commands.filter((c) => c.kind === "command" && mine(c.name)).map((c) => `/${c.name}`),
      skills: loaded.skills.skills.filter((s) => mine(s.name)).map((s) => s.name),
      not_loaded: p.unused,
    };
  });
  const problems = loaded.problems.filter((p) => p.includes(join(ctx.paths.configDir, "plugins")) || p.startsWith("plugin "));
  if (ctx.args.json) {
    out(`${JSON.stringify({ plugins: rows, problems }, null, 2)}\n`);
    return 0;
  }
  const lines = rows.length ? [] : [`no plugins in ${join(ctx.paths.configDir, "plugins")}`];
  for (const row of rows) {
    lines.push(`${row.name}${row.version ? ` ${row.version}` : ""}  ${row.root}`);
    if (row.commands.length) lines.push(`  commands: ${row.commands.join(", ")}`);
    if (row.skills.length) lines.push(`  skills: ${row.skills.join(", ")}`);
    if (row.not_loaded.length) lines.push(`  not loaded yet: ${row.not_loaded.join(", ")}`);
  }
  if (problems.length) lines.push("problems:", ...problems.map((p) => `  ${p}`));
  out(`${lines.join("\n")}\n`);
  return 0;
}
