// rein plugin import claude: offers the plugins Claude Code installed (and knows its marketplaces),
// copied from Claude Code's folders, enabled as Claude Code has them; asks once for all of them.
import { homedir } from "node:os";
import { finishClaudeImport, prepareClaudeImport } from "../../app/plugins.ts";
import { UsageError } from "../../app/args.ts";
import type { Context } from "../../app/context.ts";
import { out, warn } from "../../app/output.ts";
import { askYes } from "./ask-yes.ts";
import { describePrepared } from "./plugin-install.ts";

export async function importPlugins(from: string | undefined, ctx: Context): Promise<number> {
  if (from !== "claude") throw new UsageError(`rein plugin import reads Claude Code's plugins: rein plugin import claude [--yes]`);
  const found = prepareClaudeImport(ctx.env.HOME || homedir(), ctx.paths.dataDir);
  for (const problem of found.problems) warn(problem);
  if (found.prepared.length === 0) {
    out("no Claude Code plugins to import (none installed, or rein has them all)\n");
    return 0;
  }
  const blocks = found.prepared.map(({ offer, prepared }) => [...describePrepared(prepared), `enabled in Claude Code: ${offer.enabled ? "yes (enabled here too)" : "no (installed here, not enabled)"}`].join("\n"));
  out(`${blocks.join("\n\n")}\n`);
  const n = found.prepared.length;
  const release = () => found.prepared.forEach(({ prepared }) => prepared.staged.done());
  const yes = await askYes(`Import these ${n} plugin${n === 1 ? "" : "s"}?`, ctx.args.yes, "nothing was imported: run again with --yes to import them (they run what is listed above)").catch((error: unknown) => {
    release();
    throw error;
  });
  if (!yes) {
    release();
    out("nothing was imported\n");
    return 1;
  }
  const { done, problems } = finishClaudeImport(found, { dataDir: ctx.paths.dataDir, cwd: ctx.cwd, userConfig: ctx.paths.userConfig });
  for (const problem of problems) warn(problem);
  out(`imported ${done.map((p) => `${p.id} ${p.version}`).join(", ") || "nothing"}${found.marketplaces.length ? `; marketplaces ${found.marketplaces.map((m) => m.name).join(", ")} read from Claude Code's folders` : ""}\n`);
  return problems.length ? 1 : 0;
}
