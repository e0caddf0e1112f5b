// rein plugin ACTION: list for now.
import { UsageError } from "../args.ts";
import type { Context } from "../context.ts";
import { listPlugins } from "./plugin-list.ts";

export function pluginCommand(rest: string[], ctx: Context): number {
  const [action = "list"] = rest;
  if (action === "list") return listPlugins(ctx);
  throw new UsageError(`unknown action "${action}" (rein plugin list [--json])`);
}
