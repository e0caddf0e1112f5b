// rein doctor's view of the providers: the model's provider and every configured one get their key
// checked and their endpoint asked (a few seconds at most); a built-in cloud provider with a key
// set is asked too; the local presets nobody configured are only probed, and get a line only when
// one answers.
import { checkAnthropicApi, checkChatApi, type ApiCheck } from "./api-check.ts";
import type { ProviderEntry } from "./configured.ts";
import { keyWhere } from "./model-list.ts";
import { resolveModel, type ProviderSpec } from "./providers.ts";
import { keyHint, providerKey } from "./router.ts";
import { providerSetup } from "./setup.ts";

export type ProviderCheck = { name: string; ok: boolean; detail: string };

export type ReportOptions = {
  model: string;
  entries: readonly ProviderEntry[];
  env: Readonly<Record<string, string | undefined>>;
  anthropic: { apiKey?: string; baseURL?: string };
  timeoutMs: number;
  /** providers the caller reports itself */
  skip?: readonly string[];
};

export async function providerReport(options: ReportOptions): Promise<ProviderCheck[] | string> {
  const setup = providerSetup({ entries: options.entries, env: options.env, anthropic: options.anthropic });
  if (typeof setup === "string") return setup;
  const resolved = resolveModel(options.model, setup.table);
  const inUse = new Set([typeof resolved === "string" ? "" : resolved.provider.name, ...options.entries.map((e) => e.name)]);
  const checks = [...setup.table.values()].filter((spec) => !options.skip?.includes(spec.name)).map(async (spec): Promise<ProviderCheck | undefined> => {
    const used = inUse.has(spec.name);
    const key = providerKey(spec, options);
    if (typeof key === "string") return used ? { name: spec.name, ok: false, detail: `no key: set ${keyWhere(spec)}` } : undefined;
    if (!used && !spec.local && !key.key) return undefined;
    const answer = await ask(spec, key.key, options);
    // A local server nobody configured or uses that is not running is not news: no line.
    if (!used && spec.local && !answer.ok) return undefined;
    const mine = typeof resolved !== "string" && spec.name === resolved.provider.name;
    const role = !used ? " (not in use)" : !answer.ok && spec.local ? `: start the server, or set providers.${spec.name}.baseURL in the user config` : mine ? " (the model's provider)" : "";
    return { name: spec.name, ok: answer.ok || (!used && spec.local), detail: `${key.key ? "key set; " : ""}${answer.detail}${role}` };
  });
  return (await Promise.all(checks)).filter((c): c is ProviderCheck => c !== undefined);
}

function ask(spec: ProviderSpec, apiKey: string | undefined, options: ReportOptions): Promise<ApiCheck> {
  if (spec.api === "anthropic") {
    const builtin = spec.source === "built-in";
    const baseURL = builtin ? (options.anthropic.baseURL ?? spec.baseURL) : spec.baseURL;
    return checkAnthropicApi({ apiKey: apiKey ?? "", baseURL, timeoutMs: options.timeoutMs });
  }
  return checkChatApi({ baseURL: spec.baseURL, ...(apiKey ? { apiKey } : {}), ...(spec.headers ? { headers: spec.headers } : {}), timeoutMs: options.timeoutMs, local: spec.local, keyHint: keyHint(spec) });
}
