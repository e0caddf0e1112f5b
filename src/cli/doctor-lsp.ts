// rein doctor's lines for language servers: one per configured server, saying whether it starts.
import { probeServers } from "../app/lsp-probe.ts";
import { lspFor, serverEnv, type Context } from "../app/context.ts";

type Check = [name: string, ok: boolean, detail: string];

export async function lspChecks(ctx: Context): Promise<Check[]> {
  const lsp = lspFor(ctx).lsp;
  if (!lsp) return [];
  const env = serverEnv(ctx);
  const probes = await probeServers(lsp.configs, ctx.projectRoot, env, lsp.logDir);
  return probes.map((p) => [`lsp ${p.name}`, p.ok, p.detail]);
}
