// rein plugin list | install SPEC | enable | disable | remove ID | update [ID] | marketplace ...
import { UsageError } from "../../app/args.ts";
import type { Context } from "../../app/context.ts";
import { importPlugins } from "./plugin-import.ts";
import { installPlugin, updatePlugins } from "./plugin-install.ts";
import { listPlugins } from "./plugin-list.ts";
import { managePlugin } from "./plugin-manage.ts";
import { marketplaceCommand } from "./plugin-marketplace.ts";

const USAGE = "rein plugin list | install PATH|GIT_URL|NAME@MARKETPLACE [--yes] | enable ID | disable ID | remove ID | update [ID] | import claude | marketplace add|list|remove";

export async function pluginCommand(rest: string[], ctx: Context): Promise<number> {
  const [action = "list", arg] = rest;
  switch (action) {
    case "list":
      return listPlugins(ctx);
    case "install":
      return installPlugin(arg, ctx);
    case "update":
      return updatePlugins(arg, ctx);
    case "enable":
    case "disable":
    case "remove":
      return managePlugin(action, arg, ctx);
    case "import":
      return importPlugins(arg, ctx);
    case "marketplace":
      return marketplaceCommand(rest.slice(1), ctx);
    default:
      throw new UsageError(`unknown action "${action}" (${USAGE})`);
  }
}
