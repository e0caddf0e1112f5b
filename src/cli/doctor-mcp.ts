// rein doctor's lines for MCP servers: a configuration file that cannot be read (a broken .mcp.json)
// and each server entry that cannot be used fail, naming the file and why; the rest is one line.
// Nothing is started here (`rein mcp list` starts them); nothing configured says nothing.
import { mcpFor, type Context } from "../app/context.ts";

type Check = [name: string, ok: boolean, detail: string];

export function mcpChecks(ctx: Context): Check[] {
  const { servers, warnings } = mcpFor(ctx);
  const checks: Check[] = warnings.map((w) => ["mcp", false, w]);
  const usable = servers.filter((s) => s.entry);
  for (const s of servers.filter((s) => !s.entry)) {
    // an untrusted workspace's servers wait for trust: that is no fault of the file
    const untrusted = s.scope === "project" && !ctx.trusted && s.problem?.includes("not trusted");
    checks.push(["mcp", Boolean(untrusted), `${untrusted ? "note: " : ""}server "${s.name}" (${s.source}): ${s.problem ?? "cannot be used"}`]);
  }
  if (usable.length) checks.unshift(["mcp", true, `${usable.length} server${usable.length === 1 ? "" : "s"} configured (${usable.map((s) => s.name).join(", ")}); rein mcp list starts them and lists their tools`]);
  return checks;
}
