// rein plugin enable | disable | remove ID: `enabledPlugins` in the user config, and the copy in
// rein's data folder (remove keeps the plugin's data folder).
import { findInstalled, removeInstalled, setEnabled } from "../../app/plugins.ts";
import { UsageError } from "../../app/args.ts";
import type { Context } from "../../app/context.ts";
import { out, warn } from "../../app/output.ts";

export function managePlugin(action: "enable" | "disable" | "remove", which: string | undefined, ctx: Context): number {
  if (!which) throw new UsageError(`rein plugin ${action} needs an installed plugin's name or id (see rein plugin list)`);
  const plugin = findInstalled(which, ctx.paths.dataDir);
  if ("error" in plugin) return failed(plugin.error);
  const where = { dataDir: ctx.paths.dataDir, cwd: ctx.cwd, userConfig: ctx.paths.userConfig };
  const problem = action === "remove" ? removeInstalled(plugin, where) : setEnabled(ctx.paths.userConfig, plugin.id, action === "enable");
  if (problem) return failed(problem);
  if (action === "remove") out(`removed ${plugin.id} ${plugin.version}; its data folder, if it made one, is kept under ${ctx.paths.dataDir}/plugins/data\n`);
  else out(`${action}d ${plugin.id} in ${ctx.paths.userConfig}\n`);
  return 0;
}

function failed(message: string): number {
  warn(message);
  return 1;
}
