// The providers and models of a run: what it can reach, what `rein models` lists, what a model
// name stands for, and why a model cannot run.
import type { ProviderEntry } from "../llm/configured.ts";
import { listProviders, type ProviderListing } from "../llm/model-list.ts";
import { modelProblem, providerSetup, type ProviderSetup } from "../llm/setup.ts";
import type { RunSettings } from "./factory.ts";

/** The providers a run can reach, or a sentence naming what in the config is wrong. */
export function runProviders(settings: RunSettings): ProviderSetup | string {
  return providerSetup({
    entries: settings.providers ?? [],
    env: settings.env,
    anthropic: { ...(settings.apiKey ? { apiKey: settings.apiKey } : {}), ...(settings.baseURL ? { baseURL: settings.baseURL } : {}) },
    ...(settings.retry ? { retry: settings.retry } : {}),
    ...(settings.idleTimeoutMs ? { idleTimeoutMs: settings.idleTimeoutMs } : {}),
  });
}

/** What `rein models` lists for this configuration, or a sentence naming what in the config is wrong. */
export function providerListing(
  config: { providers: readonly ProviderEntry[]; apiKey?: string; baseURL?: string },
  env: Readonly<Record<string, string | undefined>>,
): ProviderListing[] | string {
  const anthropic = { ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.baseURL ? { baseURL: config.baseURL } : {}) };
  const setup = providerSetup({ entries: config.providers, env, anthropic });
  return typeof setup === "string" ? setup : listProviders(setup.table, { env, anthropic });
}

/** The model a name stands for in this run: an alias (`opus`) for the provider of `current`, `inherit` as `current`. */
export function modelFor(settings: RunSettings, name: string, current?: string): string {
  const setup = runProviders(settings);
  return typeof setup === "string" ? name : (setup.models.resolve?.(name, current) ?? name);
}

/** Why the run's model cannot run (a bad `providers` entry, an unknown provider, a missing key), or undefined. */
export function runProblem(settings: RunSettings, model = settings.model): string | undefined {
  const setup = runProviders(settings);
  if (typeof setup === "string") return setup;
  return modelProblem(model, setup, { env: settings.env, anthropic: { ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) } });
}

/** A budget cannot be kept for a model without prices: say so rather than pretend. */
export function budgetWarning(settings: RunSettings): string | undefined {
  const setup = runProviders(settings);
  if (settings.maxCost === undefined || typeof setup === "string" || setup.models.info(settings.model).price) return undefined;
  return `the prices of model ${settings.model} are unknown: the cost budget of $${settings.maxCost} (--max-cost) cannot be enforced`;
}

