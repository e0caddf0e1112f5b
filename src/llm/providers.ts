// The provider table: the built-in providers (anthropic, openai, openrouter and the local presets)
// merged with the config's `providers`, and model names resolved against it. A name is
// `provider/model`; a bare name is an Anthropic model, so configs and `-m` from before keep working.
import { ANTHROPIC_MODELS, findRow, OPENAI_MODELS, pricing, usdFor, type Capabilities, type ChatCompat, type ModelCatalog, type ModelInfo, type ModelRow } from "./models.ts";
import type { Usage } from "../agent/types.ts";
import { PROVIDER_KEY_ENV } from "./provider-keys.ts";
import { INHERIT, isAlias, MODEL_ALIASES, resolveAlias } from "./aliases.ts";

export type ProviderApi = "anthropic" | "openai-chat";

export type ProviderSpec = {
  name: string;
  api: ProviderApi;
  baseURL: string;
  /** where the key comes from: an environment variable's name, or the key itself */
  apiKey?: { env: string } | { value: string };
  headers?: Record<string, string>;
  /** a local server: no key needed, and doctor checks that something listens */
  local: boolean;
  models: readonly ModelRow[];
  /** what a model the table does not list gets */
  defaults: { contextWindow: number; maxOutput: number; capabilities: Capabilities };
  compat?: Partial<ChatCompat>;
  /** "built-in", or the config file it came from */
  source: string;
};

export type ProviderTable = ReadonlyMap<string, ProviderSpec>;

const K = 1_000;
const CLOUD = { tools: true, images: true, caching: false, reasoning: false };
const LOCAL = { tools: true, images: false, caching: false, reasoning: false };
/** Local servers take max_tokens and often nothing newer. */
const LOCAL_COMPAT: Partial<ChatCompat> = { maxTokensField: "max_tokens" };

const local = (name: string, baseURL: string): ProviderSpec => ({
  name,
  api: "openai-chat",
  baseURL,
  local: true,
  models: [],
  // Local servers often run with a small context (Ollama's default is a few thousand tokens):
  // a window assumed too large would never compact in time.
  defaults: { contextWindow: 32 * K, maxOutput: 8 * K, capabilities: LOCAL },
  compat: LOCAL_COMPAT,
  source: "built-in",
});

export function builtinProviders(env: Record<string, string | undefined> = {}): ProviderSpec[] {
  return [
    {
      name: "anthropic",
      api: "anthropic",
      baseURL: env.ANTHROPIC_BASE_URL || "https://api.anthropic.com",
      apiKey: { env: "ANTHROPIC_API_KEY" },
      local: false,
      models: ANTHROPIC_MODELS,
      defaults: { contextWindow: 200 * K, maxOutput: 32 * K, capabilities: { ...CLOUD, caching: true } },
      source: "built-in",
    },
    {
      name: "openai",
      api: "openai-chat",
      baseURL: env.OPENAI_BASE_URL || "https://api.openai.com/v1",
      apiKey: { env: "OPENAI_API_KEY" },
      local: false,
      models: OPENAI_MODELS,
      defaults: { contextWindow: 128 * K, maxOutput: 16 * K, capabilities: CLOUD },
      compat: { maxTokensField: "max_completion_tokens" },
      source: "built-in",
    },
    {
      name: "openrouter",
      api: "openai-chat",
      baseURL: "https://openrouter.ai/api/v1",
      apiKey: { env: "OPENROUTER_API_KEY" },
      local: false,
      models: [],
      defaults: { contextWindow: 128 * K, maxOutput: 16 * K, capabilities: CLOUD },
      source: "built-in",
    },
    local("ollama", "http://localhost:11434/v1"),
    local("lmstudio", "http://localhost:1234/v1"),
    local("llamacpp", "http://localhost:8080/v1"),
    local("vllm", "http://localhost:8000/v1"),
  ];
}

/** The built-ins, with configured providers merged over them by name (their models added to the built-in ones). */
export function providerTable(configured: readonly ProviderSpec[] = [], env: Record<string, string | undefined> = {}): ProviderTable {
  const table = new Map<string, ProviderSpec>();
  for (const p of builtinProviders(env)) table.set(p.name, p); // a loop, not map: see permission/tool-names.ts
  for (const spec of configured) {
    const base = table.get(spec.name);
    table.set(spec.name, base ? { ...base, ...spec, models: [...spec.models, ...base.models], compat: { ...base.compat, ...spec.compat } } : spec);
  }
  return table;
}

export type Resolved = { provider: ProviderSpec; id: string; info: ModelInfo };

/** `openai/gpt-5.2` -> openai's gpt-5.2; `claude-sonnet-5-5` -> anthropic's; a string naming what is wrong otherwise. */
export function resolveModel(written: string, table: ProviderTable): Resolved | string {
  // An alias never reaches an API as written: here, without a session's model, it is Anthropic's.
  const name = isAlias(written) || written.trim().toLowerCase() === INHERIT ? resolveAlias(written, undefined, table) : written;
  const slash = name.indexOf("/");
  const providerName = slash === -1 ? "anthropic" : name.slice(0, slash);
  const id = slash === -1 ? name : name.slice(slash + 1);
  const provider = table.get(providerName);
  if (!provider) return `unknown provider "${providerName}" in model "${name}" (known: ${[...table.keys()].join(", ")}; a model is named provider/model)`;
  if (!id) return `model "${name}" names no model after "${providerName}/"`;
  if (slash === -1 && !findRow(provider.models, id) && /^[a-z0-9.]+$/i.test(id)) return unknownBareName(id, provider);
  return { provider, id, info: infoFor(provider, id) };
}

/** A single word that is no model and no alias (`opsu`, `gpt5`): a typo rather than a model to send. */
function unknownBareName(name: string, anthropic: ProviderSpec): string {
  return `unknown model "${name}": use one of ${anthropic.models.map((m) => m.id).join(", ")}, an alias (${[...MODEL_ALIASES, INHERIT].join(", ")}) or provider/model (rein models lists them all)`;
}

function infoFor(provider: ProviderSpec, id: string): ModelInfo {
  const row = findRow(provider.models, id);
  const capabilities = row?.capabilities ?? provider.defaults.capabilities;
  const compat = { ...provider.compat, ...row?.compat, ...(capabilities.images ? {} : { supportsImages: false }) };
  if (row) return { ...row, id, provider: provider.name, known: true, compat };
  return { id, provider: provider.name, ...provider.defaults, price: null, known: false, compat };
}

export function catalog(table: ProviderTable): ModelCatalog {
  const fallback = table.get("anthropic")!;
  return {
    resolve: (name, current) => resolveAlias(name, current, table),
    info(name) {
      const resolved = resolveModel(name, table);
      return typeof resolved === "string" ? infoFor(fallback, name) : resolved.info;
    },
  };
}

/** The built-in providers' catalog (no config): tests, and front ends that show a bare model. */
export const BUILTIN_CATALOG = catalog(providerTable());

export function modelInfo(name: string): ModelInfo {
  return BUILTIN_CATALOG.info(name);
}

export function costUsd(name: string, usage: Usage): number | null {
  const { price } = modelInfo(name);
  return price ? usdFor(price, usage) : null;
}

export function costFunction(name: string, models: ModelCatalog = BUILTIN_CATALOG): (usage: Usage) => number | null {
  return pricing(models.info(name));
}

/** The environment variables that hold a provider key: every one of them is kept from tools. */
export function keyVariables(table: ProviderTable): string[] {
  const names = new Set(PROVIDER_KEY_ENV);
  for (const spec of table.values()) if (spec.apiKey && "env" in spec.apiKey) names.add(spec.apiKey.env);
  return [...names];
}
