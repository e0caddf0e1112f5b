// The config's `providers` entries (user file first, then the project's) as provider specs: a
// new provider needs `api` and `baseURL`; a built-in one may take a key, headers, a URL (from the
// user's file only: readConfigFile refuses them in a project's) and more models.
import type { ChatCompat, ModelRow, Prices } from "./models.ts";
import { builtinProviders, type ProviderApi, type ProviderSpec } from "./providers.ts";

type ModelEntry = {
  window?: number;
  maxOutput?: number;
  prices?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  compat?: Partial<ChatCompat>;
  tools?: boolean;
  images?: boolean;
  caching?: boolean;
  reasoning?: boolean;
};

export type ProviderEntry = {
  name: string;
  source: string;
  api?: ProviderApi;
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  local?: boolean;
  models?: Record<string, ModelEntry>;
  compat?: Partial<ChatCompat>;
};

/** The specs the entries make, or a sentence naming the file and key that is wrong. */
export function configuredProviders(entries: readonly ProviderEntry[]): ProviderSpec[] | string {
  const builtins = new Map<string, ProviderSpec>();
  for (const p of builtinProviders()) builtins.set(p.name, p); // a loop, not map: see permission/tool-names.ts
  const specs = new Map<string, ProviderSpec>();
  for (const entry of entries) {
    const base = specs.get(entry.name) ?? builtins.get(entry.name);
    if (!base) {
      const missing = !entry.api ? "api" : !entry.baseURL ? "baseURL" : undefined;
      if (missing) return `config error in ${entry.source}: "providers.${entry.name}.${missing}" is required for a provider rein does not know (built in: ${[...builtins.keys()].join(", ")})`;
    }
    const defaults = base?.defaults ?? { contextWindow: 128_000, maxOutput: 16_000, capabilities: { tools: true, images: false, caching: false, reasoning: false } };
    const models = Object.entries(entry.models ?? {}).map(([id, m]) => ({ ...modelRow(id, m, defaults), source: entry.source }));
    specs.set(entry.name, {
      name: entry.name,
      api: entry.api ?? base!.api,
      baseURL: entry.baseURL ?? base!.baseURL,
      ...(entry.apiKey ? { apiKey: keySource(entry.apiKey) } : base?.apiKey ? { apiKey: base.apiKey } : {}),
      ...(entry.headers || base?.headers ? { headers: { ...base?.headers, ...entry.headers } } : {}),
      local: entry.local ?? base?.local ?? false,
      models: [...models, ...(base?.models ?? [])],
      defaults,
      ...(entry.compat || base?.compat ? { compat: { ...base?.compat, ...entry.compat } } : {}),
      source: base && base.source !== "built-in" ? base.source : base && !entry.baseURL && !entry.api && !entry.apiKey ? "built-in" : entry.source,
    });
  }
  return [...specs.values()];
}

function keySource(text: string): { env: string } | { value: string } {
  return text.startsWith("env:") ? { env: text.slice(4) } : { value: text };
}

function modelRow(id: string, m: ModelEntry, defaults: ProviderSpec["defaults"]): ModelRow {
  const price: Prices | null = m.prices
    ? { input: m.prices.input, output: m.prices.output, cacheRead: m.prices.cacheRead ?? m.prices.input, cacheWrite: m.prices.cacheWrite ?? m.prices.input }
    : null;
  const c = defaults.capabilities;
  return {
    id,
    contextWindow: m.window ?? defaults.contextWindow,
    maxOutput: m.maxOutput ?? defaults.maxOutput,
    price,
    capabilities: { tools: m.tools ?? c.tools, images: m.images ?? c.images, caching: m.caching ?? c.caching, reasoning: m.reasoning ?? c.reasoning },
    ...(m.compat ? { compat: m.compat } : {}),
  };
}
