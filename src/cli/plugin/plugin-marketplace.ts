// rein plugin marketplace add PATH | GIT_URL | list | remove NAME
import { addMarketplace, describeSource, listMarketplaces, removeMarketplace } from "../../app/plugins.ts";
import { UsageError } from "../../app/args.ts";
import type { Context } from "../../app/context.ts";
import { out, warn } from "../../app/output.ts";

const USAGE = "rein plugin marketplace add PATH | GIT_URL | list | remove NAME";

export function marketplaceCommand(rest: string[], ctx: Context): number {
  const [action = "list", arg] = rest;
  if (action === "add") {
    if (!arg) throw new UsageError(`rein plugin marketplace add needs a folder or a git URL (${USAGE})`);
    const added = addMarketplace(arg, { dataDir: ctx.paths.dataDir, cwd: ctx.cwd });
    if ("error" in added) return failed(added.error);
    const names = added.listed.plugins.map((p) => p.name);
    out(`added marketplace ${added.known.name} (${names.length} plugin${names.length === 1 ? "" : "s"}: ${names.join(", ")}); install one with rein plugin install NAME@${added.known.name}\n`);
    return 0;
  }
  if (action === "remove") {
    if (!arg) throw new UsageError(`rein plugin marketplace remove needs a name (${USAGE})`);
    const removed = removeMarketplace(arg, ctx.paths.dataDir);
    if ("error" in removed) return failed(removed.error);
    out(`removed marketplace ${removed.name}; plugins installed from it stay installed\n`);
    return 0;
  }
  if (action !== "list") throw new UsageError(`unknown action "${action}" (${USAGE})`);
  const all = listMarketplaces(ctx.paths.dataDir);
  if ("error" in all) return failed(all.error);
  if (ctx.args.json) {
    out(`${JSON.stringify({ marketplaces: all.map(({ known, listed }) => ({ ...known, ...(typeof listed === "string" ? { problem: listed } : { plugins: listed.plugins.map((p) => p.name) }) })) }, null, 2)}\n`);
    return 0;
  }
  const lines = all.length ? [] : [`no marketplaces (${USAGE})`];
  for (const { known, listed } of all) {
    lines.push(`${known.name}  ${describeSource(known.source)}`);
    lines.push(typeof listed === "string" ? `  problem: ${listed}` : `  plugins: ${listed.plugins.map((p) => `${p.name}${p.description ? ` (${p.description})` : ""}`).join(", ") || "none"}`);
  }
  out(`${lines.join("\n")}\n`);
  return 0;
}

function failed(message: string): number {
  warn(message);
  return 1;
}
