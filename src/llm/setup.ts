// Everything a run needs to talk to models: the provider table (built-ins and the config's
// `providers`), the catalog of windows and prices, the routed stream, and the names of the
// environment variables holding keys (kept from every tool's environment).
import type { StreamFn } from "../agent/types.ts";
import { configuredProviders, type ProviderEntry } from "./configured.ts";
import type { ModelCatalog } from "./models.ts";
import { catalog, keyVariables, providerTable, resolveModel, type ProviderTable } from "./providers.ts";
import { providerKey, routedStream, type RouterOptions } from "./router.ts";

export type ProviderSetup = {
  table: ProviderTable;
  models: ModelCatalog;
  stream: StreamFn;
  /** makes the model's provider now, so its connection opens while rein starts */
  prepare: (model: string) => void;
  keyNames: string[];
};

export type SetupOptions = Omit<RouterOptions, "table"> & { entries?: readonly ProviderEntry[] };

/** The setup, or a sentence naming the config file and key that is wrong. */
export function providerSetup(options: SetupOptions): ProviderSetup | string {
  const configured = configuredProviders(options.entries ?? []);
  if (typeof configured === "string") return configured;
  const table = providerTable(configured, options.env);
  const routed = routedStream({ ...options, table });
  const models = { ...catalog(table), problem: (name: string) => modelProblem(name, { table }, options) };
  return { table, models, stream: routed.stream, prepare: routed.prepare, keyNames: keyVariables(table) };
}

/** Why `model` cannot run with this setup (an unknown provider, a missing key), or undefined when it can. */
export function modelProblem(model: string, setup: Pick<ProviderSetup, "table">, options: Pick<RouterOptions, "env" | "anthropic">): string | undefined {
  const resolved = resolveModel(model, setup.table);
  if (typeof resolved === "string") return resolved;
  const key = providerKey(resolved.provider, options);
  return typeof key === "string" ? key : undefined;
}
