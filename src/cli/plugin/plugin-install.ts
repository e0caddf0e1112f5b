// rein plugin install SPEC | update [ID]: fetch, show what the plugin will run, ask, then copy it
// into rein's data folder, pinned, and enable it.
import { describeSource, finishInstall, prepareInstall, prepareUpdate, readInstalled, pluginStore, refreshMarketplace, readMarketplaces, runsSummary, bringsSummary, findInstalled, type Prepared, type InstalledPlugin } from "../../app/plugins.ts";
import { UsageError } from "../../app/args.ts";
import type { Context } from "../../app/context.ts";
import { out, warn } from "../../app/output.ts";
import { askYes } from "./ask-yes.ts";

const places = (ctx: Context) => ({ dataDir: ctx.paths.dataDir, cwd: ctx.cwd, userConfig: ctx.paths.userConfig });

export async function installPlugin(spec: string | undefined, ctx: Context): Promise<number> {
  if (!spec) throw new UsageError("rein plugin install needs a plugin: a folder, a git URL or NAME@MARKETPLACE");
  const prepared = prepareInstall(spec, places(ctx));
  if ("error" in prepared) return failed(prepared.error);
  return confirmAndFinish(prepared, ctx, "Install and enable");
}

export async function updatePlugins(which: string | undefined, ctx: Context): Promise<number> {
  const installed = readInstalled(pluginStore(ctx.paths.dataDir));
  if (typeof installed === "string") return failed(installed);
  const chosen = which ? findInstalled(which, ctx.paths.dataDir) : undefined;
  if (chosen && "error" in chosen) return failed(chosen.error);
  const targets = chosen ? [chosen] : Object.values(installed);
  if (targets.length === 0) return void out("no plugins installed\n"), 0;
  refreshMarketplaces(targets, ctx);
  let code = 0;
  for (const plugin of targets) code = Math.max(code, await updateOne(plugin, ctx));
  return code;
}

async function updateOne(plugin: InstalledPlugin, ctx: Context): Promise<number> {
  const prepared = prepareUpdate(plugin, places(ctx));
  if ("error" in prepared) return failed(`${plugin.id}: ${prepared.error}`);
  // The manifest's version pins a plugin (as in Claude Code); without one, its git commit does.
  if (prepared.version === plugin.version && prepared.version !== "local") {
    prepared.staged.done();
    out(`${plugin.id} is up to date (${plugin.version})\n`);
    return 0;
  }
  return confirmAndFinish(prepared, ctx, `Update ${plugin.version} ->`);
}

/** What the person reads before saying yes: where the plugin is from, what it runs, what else it brings. */
export function describePrepared(prepared: Prepared): string[] {
  const { plugin } = prepared;
  const runs = runsSummary(plugin);
  return [
    `plugin ${prepared.id} ${prepared.version} from ${describeSource(prepared.source)}`,
    ...(runs.length ? ["it will run:", ...runs.map((r) => `  ${r}`)] : ["it runs nothing by itself (no hooks, MCP or language servers, or bin/)"]),
    `it also brings: ${bringsSummary(plugin)}`,
    ...plugin.problems.map((p) => `not loaded: ${p}`),
  ];
}

async function confirmAndFinish(prepared: Prepared, ctx: Context, verb: string): Promise<number> {
  out(`${describePrepared(prepared).join("\n")}\n`);
  let yes: boolean;
  try {
    yes = await askYes(`${verb} ${prepared.id} ${prepared.version}?`, ctx.args.yes, `nothing was installed: run again with --yes to install ${prepared.id} (it runs what is listed above)`);
  } catch (error) {
    prepared.staged.done();
    throw error;
  }
  if (!yes) {
    prepared.staged.done();
    out("nothing was installed\n");
    return 1;
  }
  const done = finishInstall(prepared, places(ctx), warn);
  if ("error" in done) return failed(done.error);
  out(`installed ${done.id} ${done.version} in ${done.root}; enabled in ${ctx.paths.userConfig}\n`);
  return 0;
}

/** The git marketplaces the plugins came from, cloned again so update sees their current lists. */
function refreshMarketplaces(plugins: readonly InstalledPlugin[], ctx: Context): void {
  const known = readMarketplaces(pluginStore(ctx.paths.dataDir));
  if (typeof known === "string") return;
  for (const name of new Set(plugins.flatMap((p) => (p.marketplace ? [p.marketplace] : [])))) {
    const market = known[name];
    if (market?.source.kind !== "git") continue;
    const refreshed = refreshMarketplace(market, ctx.paths.dataDir);
    if ("error" in refreshed) warn(`marketplace ${name} was not refreshed: ${refreshed.error}`);
  }
}

function failed(message: string): number {
  warn(message);
  return 1;
}
