// rein doctor's lines for language servers: one per configured server, saying whether it starts.
import { probeServers } from "../app/factory.ts";
import { lspFor, type Context } from "../app/context.ts";

type Check = [name: string, ok: boolean, detail: string];

export async function lspChecks(ctx: Context): Promise<Check[]> {
  const lsp = lspFor(ctx).lsp;
  if (!lsp) return [];
  const env = Object.fromEntries(Object.entries(ctx.env).filter((e): e is [string, string] => e[1] !== undefined && !/KEY|TOKEN|SECRET/i.test(e[0])));
  const probes = await probeServers(lsp.configs, ctx.projectRoot, env, lsp.logDir);
  return probes.map((p) => [`lsp ${p.name}`, p.ok, p.detail]);
}
