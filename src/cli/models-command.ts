// rein models: the providers and models this configuration can use, with where each came from.
import { providerListing } from "../app/factory.ts";
import type { Context } from "../app/context.ts";
import { out, warn } from "../app/output.ts";

export function modelsCommand(ctx: Context): number {
  const listing = providerListing(ctx.config, ctx.env);
  // What is wrong goes to stderr, as every usage and config error does: stdout is the listing alone.
  if (typeof listing === "string") {
    warn(listing);
    return 2;
  }
  out(`model in use: ${ctx.config.model}\n`);
  for (const p of listing) {
    out(`\n${p.name} (${p.api}, ${p.baseURL}; key ${p.key}; from ${p.source})\n`);
    if (p.models.length === 0) out(`  any model: ${p.name}/MODEL-ID\n`);
    for (const m of p.models) {
      const price = m.price ? `$${m.price.input}/$${m.price.output} per M tokens` : "prices unknown (cost shown as null)";
      const can = (Object.keys(m.capabilities) as (keyof typeof m.capabilities)[]).filter((k) => m.capabilities[k]).join(", ");
      const from = m.source === "built-in" ? "" : `  (from ${m.source})`;
      out(`  ${m.name.padEnd(32)} ${tokens(m.contextWindow).padStart(6)} window ${tokens(m.maxOutput).padStart(5)} out  ${price}  [${can}]${from}\n`);
    }
  }
  return 0;
}

function tokens(n: number): string {
  return n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(2)}M` : `${Math.round(n / 1000)}k`;
}
