// rein hooks list: every hook with its source, event, matcher and whether it runs here (trust).
// rein hooks test EVENT [--tool NAME] [--input JSON]: runs the matching hooks on a made-up payload.
import { describeHandler, tryHooks } from "../session/hook-runtime.ts";
import { hookProcessEnv } from "../session/session-hooks.ts";
import { UsageError } from "../app/args.ts";
import { runHooks, type Context } from "../app/context.ts";
import { out, warn } from "../app/output.ts";

export async function hooksCommand(rest: string[], ctx: Context): Promise<number> {
  const [action = "list", event] = rest;
  if (action === "list") return list(ctx);
  if (action === "test") return test(ctx, event);
  throw new UsageError(`unknown action "${action}" (rein hooks list | test EVENT [--tool NAME] [--input JSON])`);
}

function list(ctx: Context): number {
  const { entries, warnings } = runHooks(ctx);
  for (const warning of warnings) warn(warning);
  const rows = entries.map((e) => ({
    event: e.event,
    matcher: e.matcher ?? "*",
    handler: describeHandler(e.handler),
    source: e.file,
    scope: e.scope,
    active: e.active,
  }));
  if (ctx.args.json) {
    out(`${JSON.stringify({ hooks: rows }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    out("no hooks configured (a \"hooks\" key in rein's config, ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json)\n");
    return 0;
  }
  for (const row of rows) {
    const state = row.active ? "" : "  [inactive: the workspace is not trusted; run with --trust]";
    out(`${row.event.padEnd(19)}${row.matcher.padEnd(16)}${row.handler}  (${row.source})${state}\n`);
  }
  return 0;
}

async function test(ctx: Context, event: string | undefined): Promise<number> {
  if (!event) throw new UsageError("rein hooks test needs an event, e.g. rein hooks test PreToolUse --tool Bash --input '{\"command\":\"rm -rf /\"}'");
  const input = ctx.args.input === undefined ? undefined : parseInput(ctx.args.input);
  const env = hookProcessEnv(ctx.env, ctx.config.envPassthrough);
  const tried = await tryHooks(runHooks(ctx).entries, { event, ...(ctx.args.tool ? { tool: ctx.args.tool } : {}), ...(input !== undefined ? { input } : {}), cwd: ctx.cwd, projectDir: ctx.projectRoot, env });
  if ("problem" in tried) throw new UsageError(tried.problem);
  if (ctx.args.json) {
    out(`${JSON.stringify(tried, null, 2)}\n`);
    return 0;
  }
  if (tried.runs.length === 0) {
    out(`no active hook matches ${event}${ctx.args.tool ? ` for ${ctx.args.tool}` : ""}\n`);
    return 0;
  }
  for (const run of tried.runs) {
    out(`${run.handler}  (${run.source}): ${run.decision} in ${run.duration_ms} ms${run.error ? `; ${run.error}` : ""}${run.output ? `\n  ${run.output}` : ""}\n`);
  }
  const m = tried.merged;
  const parts = [
    `decision: ${m?.decision ?? "none"}`,
    m?.reason ? `reason: ${m.reason}` : "",
    m?.updatedInput ? `input becomes: ${JSON.stringify(m.updatedInput)}` : "",
    m?.context ? `context for the model: ${m.context}` : "",
    m?.stop ? `stops the run: ${m.stop}` : "",
  ].filter(Boolean);
  out(`${parts.join("\n")}\n`);
  return 0;
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input expects the tool's input as JSON, e.g. '{"command":"ls"}' (${(error as Error).message})`);
  }
}
