// rein permissions explain [--json] [flags] -- 'COMMAND LINE'
import { explainCommand } from "../session/explain.ts";
import { UsageError } from "./args.ts";
import type { Context } from "./context.ts";
import { out } from "./output.ts";

export function permissionsCommand(rest: string[], ctx: Context): number {
  const [action, ...words] = rest;
  if (action !== "explain") throw new UsageError(`unknown action "${action ?? ""}" (rein permissions explain -- 'COMMAND')`);
  const command = words.join(" ").trim();
  if (!command) throw new UsageError("rein permissions explain needs a command line: rein permissions explain -- 'git push'");
  const result = explainCommand(command, ctx.cwd, ctx.config.permissionMode, ctx.config.rules);
  if (ctx.args.json) {
    out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const lines = [`${result.decision}: ${command}`];
  for (const r of result.requests) {
    const why = r.rule ? `rule ${r.rule}` : "no rule matches: ask";
    const opaque = r.opaque ? " (not resolvable statically: only a bare allow may allow it)" : "";
    lines.push(`  ${r.permission}(${r.pattern}) -> ${r.action}, ${why}${opaque}`);
    if (r.always.length > 0 && r.action === "ask") lines.push(`    "always" would save: ${r.always.map((p) => `${r.permission}(${p})`).join(", ")}`);
  }
  out(`${lines.join("\n")}\n`);
  return 0;
}
