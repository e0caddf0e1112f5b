// rein permissions explain [--json] [--permission-mode M] [--allow R] [--deny R] [--ask R] -- 'LINE'
import { explainCommand } from "../app/explain.ts";
import { sandboxAvailable } from "../app/factory.ts";
import { explainTool } from "../app/explain-tool.ts";
import { formatRule } from "../app/rules.ts";
import { UsageError } from "../app/args.ts";
import { runSettingsForExplain, type Context } from "../app/context.ts";
import { out } from "../app/output.ts";

export async function permissionsCommand(rest: string[], ctx: Context): Promise<number> {
  const [action, ...words] = rest;
  if (action !== "explain") throw new UsageError(`unknown action "${action ?? ""}" (rein permissions explain -- 'COMMAND')`);
  const tool = ctx.args.tool;
  if (tool && words.length > 0) throw new UsageError("give either --tool NAME or a command line, not both");
  const line = tool ?? words.join(" ").trim();
  if (!line) throw new UsageError("rein permissions explain needs a command line: rein permissions explain -- 'git push'");
  // Where commands run sandboxed, a line whose reads cannot be resolved need not ask (see the engine).
  const sandboxed = ctx.config.sandbox !== "off" && sandboxAvailable().ok;
  const result = tool ? explainTool(tool, runSettingsForExplain(ctx)) : await explainCommand(line, { ...runSettingsForExplain(ctx), sandboxed, tainted: ctx.args.tainted });
  if (ctx.args.json) {
    out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const lines = [`${result.decision}: ${line}`];
  if ("tainted" in result && result.tainted) lines.push(`(${result.tainted}: a person must approve it, whatever the rules allow)`);
  if (result.read_only) lines.push("(allowed as read-only by the analysis: where bubblewrap works it runs with nothing writable, credentials hidden, no network)");
  if (result.commands.length > 0) lines.push("", "commands:");
  for (const c of result.commands) {
    const wrapped = c.wrappers ? ` (through ${c.wrappers.join(", ")})` : "";
    lines.push(`  ${[...(c.env ?? []), ...c.argv].join(" ")}${wrapped}${c.opaque ? `  [opaque: ${c.opaque}]` : ""}`);
  }
  lines.push("", "requests:");
  for (const r of result.requests) {
    const why = r.rule ? `rule ${r.rule.action} ${formatRule(r.rule)} from ${r.rule.source}` : "";
    const reason = r.reason ? (why ? `; ${r.reason}` : r.reason) : "";
    lines.push(`  ${r.decision.padEnd(5)} ${r.permission}(${r.pattern}): ${why}${reason}`);
    if (r.decision === "ask" && r.always.length > 0) lines.push(`        "always" would save: ${r.always.map((pattern) => formatRule({ permission: r.permission, pattern })).join(", ")}`);
  }
  out(`${lines.join("\n")}\n`);
  return 0;
}

