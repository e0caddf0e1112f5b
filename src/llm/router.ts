// The stream a session runs on: each request goes to the provider its model names
// (`provider/model`, or a bare Anthropic name), so a session switched to another model mid-way
// sends its next turn there. Providers are made on first use and kept.
import type { ModelRequest, ProviderEvent, StreamFn } from "../agent/types.ts";
import { anthropicStream } from "./anthropic.ts";
import { effortFor } from "./models.ts";
import { resolveModel, type ProviderSpec, type ProviderTable, type Resolved } from "./providers.ts";
import type { RetryPolicy } from "./retry.ts";

type Env = Record<string, string | undefined>;

export type RouterOptions = {
  table: ProviderTable;
  env: Env;
  /** the Anthropic key and URL as the config resolved them (`apiKey`, `baseURL`, ANTHROPIC_*) */
  anthropic?: { apiKey?: string; baseURL?: string };
  retry?: Partial<RetryPolicy>;
  idleTimeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

/** The routed stream, and `prepare(model)` to make that model's provider now (it opens its connection ahead). */
export function routedStream(options: RouterOptions): { stream: StreamFn; prepare: (model: string) => void } {
  const made = new Map<string, StreamFn | string>();
  const providerFor = (resolved: Resolved): StreamFn | string => {
    const { provider, info } = resolved;
    const key = info.compat && Object.keys(info.compat).length ? `${provider.name}\u0000${JSON.stringify(info.compat)}` : provider.name;
    let stream = made.get(key);
    if (stream === undefined) {
      stream = makeProvider({ ...provider, compat: info.compat }, options);
      made.set(key, stream);
    }
    return stream;
  };
  const prepare = (model: string) => {
    const resolved = resolveModel(model, options.table);
    if (typeof resolved !== "string") providerFor(resolved);
  };
  const stream: StreamFn = (request, signal) => {
    const resolved = resolveModel(request.model, options.table);
    if (typeof resolved === "string") return failed(resolved);
    const { id, info } = resolved;
    const stream = providerFor(resolved);
    if (typeof stream === "string") return failed(stream, "auth");
    // The loop sizes its replies for the model it started with; a model switched to may allow less.
    // An effort goes only to a model that takes one, capped at the highest level it takes.
    const { effort: asked, ...rest } = request;
    const effort = effortFor(info, asked);
    const sent: ModelRequest = { ...rest, model: id, max_tokens: Math.min(request.max_tokens, info.maxOutput), ...(effort ? { effort } : {}) };
    return stream(sent, signal);
  };
  return { stream, prepare };
}

/** The key a provider uses: undefined when it needs none, a sentence when it needs one that is missing. */
export function providerKey(spec: ProviderSpec, options: Pick<RouterOptions, "env" | "anthropic">): { key?: string } | string {
  if (spec.name === "anthropic" && spec.source === "built-in") {
    return options.anthropic?.apiKey ? { key: options.anthropic.apiKey } : keyMissing(spec);
  }
  const source = spec.apiKey;
  const key = source && ("value" in source ? source.value : options.env[source.env]);
  if (key) return { key };
  return spec.local || !source ? {} : keyMissing(spec);
}

export function keyHint(spec: ProviderSpec): string {
  if (spec.name === "anthropic" && spec.source === "built-in") return 'Check ANTHROPIC_API_KEY or "apiKey" in ~/.config/rein/config.json.';
  const source = spec.apiKey;
  if (source && "env" in source) return `Check ${source.env}${spec.source === "built-in" ? "" : ` (providers.${spec.name}.apiKey in ${spec.source})`}.`;
  return `Check providers.${spec.name}.apiKey in ${spec.source}.`;
}

function keyMissing(spec: ProviderSpec): string {
  const source = spec.apiKey;
  if (spec.name === "anthropic" && spec.source === "built-in") {
    return 'no API key: set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-...) or add "apiKey" to ~/.config/rein/config.json';
  }
  if (source && "env" in source) return `no API key for provider ${spec.name}: set ${source.env} (export ${source.env}=...)`;
  return `no API key for provider ${spec.name}: set providers.${spec.name}.apiKey in ${spec.source}`;
}

function makeProvider(spec: ProviderSpec, options: RouterOptions): StreamFn | string {
  const key = providerKey(spec, options);
  if (typeof key === "string") return key;
  const common = {
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    keyHint: keyHint(spec),
  };
  if (spec.api === "anthropic") {
    const builtin = spec.source === "built-in";
    const baseURL = builtin ? (options.anthropic?.baseURL ?? spec.baseURL) : spec.baseURL;
    return anthropicStream({ apiKey: key.key ?? "", baseURL, ...(spec.headers ? { headers: spec.headers } : {}), ...common });
  }
  return openaiChat().openaiChatStream({
    baseURL: spec.baseURL,
    ...(key.key ? { apiKey: key.key } : {}),
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.compat ? { compat: spec.compat } : {}),
    ...(spec.local ? { unreachableHint: ` (is the ${spec.name} server running at ${spec.baseURL}?)` } : {}),
    ...common,
  });
}

// OpenAI-style servers' module loads with the first such provider (require: makeProvider is synchronous).
const openaiChat = () => require("./openai-chat.ts") as typeof import("./openai-chat.ts");

async function* failed(message: string, code: "bad_request" | "auth" = "bad_request"): AsyncGenerator<ProviderEvent> {
  yield { type: "error", code, message };
}
