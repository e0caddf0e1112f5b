// What `rein models` shows: each provider rein can reach, where it came from, whether its key is
// there, and the models it lists (a provider without a list takes any model id).
import type { ModelRow } from "./models.ts";
import { providerKey, type RouterOptions } from "./router.ts";
import type { ProviderSpec, ProviderTable } from "./providers.ts";

export type ProviderListing = {
  name: string;
  api: string;
  baseURL: string;
  /** "set", "missing (set OPENAI_API_KEY)", or "none needed" */
  key: string;
  keyOk: boolean;
  source: string;
  models: (Pick<ModelRow, "contextWindow" | "maxOutput" | "price" | "capabilities"> & { name: string; source: string })[];
};

export function listProviders(table: ProviderTable, options: Pick<RouterOptions, "env" | "anthropic">): ProviderListing[] {
  return [...table.values()].map((spec) => {
    const key = providerKey(spec, options);
    const keyText = typeof key === "string" ? `missing (set ${keyWhere(spec)})` : key.key ? "set" : "none needed";
    return {
      name: spec.name,
      api: spec.api,
      baseURL: spec.name === "anthropic" && spec.source === "built-in" ? (options.anthropic?.baseURL ?? spec.baseURL) : spec.baseURL,
      key: keyText,
      keyOk: typeof key !== "string",
      source: spec.source,
      models: spec.models.map((m) => ({
        name: spec.name === "anthropic" ? m.id : `${spec.name}/${m.id}`,
        contextWindow: m.contextWindow,
        maxOutput: m.maxOutput,
        price: m.price,
        capabilities: m.capabilities,
        source: m.source ?? "built-in",
      })),
    };
  });
}

/** Where a provider's key is set: its variable, or the config key. */
export function keyWhere(spec: ProviderSpec): string {
  if (spec.name === "anthropic" && spec.source === "built-in") return 'ANTHROPIC_API_KEY, or "apiKey" in the user config';
  const source = spec.apiKey;
  return source && "env" in source ? source.env : `providers.${spec.name}.apiKey in ${spec.source}`;
}
