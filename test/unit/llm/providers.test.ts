// The provider table and what is made of it: configured entries merged over the built-ins, model
// names resolved (or refused with a sentence), prices and windows looked up, keys found or named as
// missing, and `rein models`' listing.
import { describe, expect, test } from "bun:test";
import { configuredProviders, type ProviderEntry } from "../../../src/llm/configured.ts";
import { catalog, costFunction, costUsd, keyVariables, providerTable, resolveModel, type ProviderSpec } from "../../../src/llm/providers.ts";
import { findRow, OPENAI_MODELS, pricing, usdFor } from "../../../src/llm/models.ts";
import { keyWhere, listProviders } from "../../../src/llm/model-list.ts";
import { keyHint, providerKey } from "../../../src/llm/router.ts";
import { modelProblem, providerSetup } from "../../../src/llm/setup.ts";
import type { Usage } from "../../../src/agent/types.ts";

const USER = "/home/u/.config/rein/config.json";
const PROJECT = "/work/p/.rein/config.json";

function specs(entries: ProviderEntry[]): ProviderSpec[] {
  const made = configuredProviders(entries);
  if (typeof made === "string") throw new Error(made);
  return made;
}

function usage(u: Partial<Usage>): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...u };
}

describe("configuredProviders", () => {
  test("a provider rein does not know needs api and baseURL; the error names the file and the key", () => {
    expect(configuredProviders([{ name: "corp", source: USER, baseURL: "http://x" }])).toBe(
      `config error in ${USER}: "providers.corp.api" is required for a provider rein does not know (built in: anthropic, openai, openrouter, ollama, lmstudio, llamacpp, vllm)`,
    );
    expect(configuredProviders([{ name: "corp", source: USER, api: "openai-chat" }])).toContain('"providers.corp.baseURL" is required');
  });

  test("a new provider gets the generic defaults, its models with the entry's figures, and its file as source", () => {
    const [corp] = specs([{ name: "corp", source: USER, api: "openai-chat", baseURL: "http://corp/v1", models: { big: { window: 500_000, prices: { input: 1, output: 3 } }, plain: {} } }]);
    expect(corp).toMatchObject({ name: "corp", api: "openai-chat", baseURL: "http://corp/v1", local: false, source: USER });
    expect(corp!.apiKey).toBeUndefined();
    const big = corp!.models.find((m) => m.id === "big")!;
    // cache prices default to the input price when the entry names none
    expect(big).toMatchObject({ contextWindow: 500_000, maxOutput: 16_000, price: { input: 1, output: 3, cacheRead: 1, cacheWrite: 1 }, source: USER });
    expect(corp!.models.find((m) => m.id === "plain")).toMatchObject({ contextWindow: 128_000, price: null, capabilities: { tools: true, images: false } });
  });

  test("an apiKey of env:NAME is read from that variable; any other text is the key itself", () => {
    const [a, b] = specs([
      { name: "a", source: USER, api: "openai-chat", baseURL: "http://a", apiKey: "env:A_TOKEN" },
      { name: "b", source: USER, api: "openai-chat", baseURL: "http://b", apiKey: "sk-literal" },
    ]);
    expect(a!.apiKey).toEqual({ env: "A_TOKEN" });
    expect(b!.apiKey).toEqual({ value: "sk-literal" });
  });

  test("more models for a built-in keep it built-in (same URL and key variable), the new ones listed first", () => {
    const [openai] = specs([{ name: "openai", source: PROJECT, models: { "gpt-9": { window: 1_000_000 } } }]);
    expect(openai).toMatchObject({ name: "openai", baseURL: "https://api.openai.com/v1", apiKey: { env: "OPENAI_API_KEY" }, source: "built-in" });
    expect(openai!.models[0]).toMatchObject({ id: "gpt-9", contextWindow: 1_000_000, source: PROJECT });
    expect(openai!.models.length).toBe(OPENAI_MODELS.length + 1);
    // the built-in compat survives an entry that adds its own
    const [withCompat] = specs([{ name: "openai", source: USER, compat: { requiresToolResultName: true } }]);
    expect(withCompat!.compat).toEqual({ maxTokensField: "max_completion_tokens", requiresToolResultName: true });
  });

  test("moving a built-in's URL makes the entry's file its source; a local preset stays local and keyless", () => {
    const [ollama] = specs([{ name: "ollama", source: USER, baseURL: "http://gpu:11434/v1" }]);
    expect(ollama).toMatchObject({ baseURL: "http://gpu:11434/v1", local: true, source: USER, api: "openai-chat" });
    expect(ollama!.defaults.contextWindow).toBe(32_000);
  });

  test("two entries for one provider (user file, then project) merge: the later adds models and headers, the first file stays the source", () => {
    const [corp] = specs([
      { name: "corp", source: USER, api: "openai-chat", baseURL: "http://corp/v1", headers: { "x-team": "a" }, models: { one: {} } },
      { name: "corp", source: PROJECT, headers: { "x-trace": "1" }, models: { two: {} } },
    ]);
    expect(corp!.headers).toEqual({ "x-team": "a", "x-trace": "1" });
    expect(corp!.models.map((m) => m.id)).toEqual(["two", "one"]);
    expect(corp!.source).toBe(USER);
    expect(corp!.baseURL).toBe("http://corp/v1");
  });
});

describe("resolveModel", () => {
  const table = providerTable(specs([{ name: "corp", source: USER, api: "openai-chat", baseURL: "http://corp/v1", models: { "coder-2": { window: 64_000 } } }]));

  test("provider/model resolves to that provider's id and row; a bare name is Anthropic's", () => {
    const corp = resolveModel("corp/coder-2", table);
    expect(typeof corp === "string" ? corp : [corp.provider.name, corp.id, corp.info.contextWindow, corp.info.known]).toEqual(["corp", "coder-2", 64_000, true]);
    const bare = resolveModel("claude-opus-5-5", table);
    expect(typeof bare === "string" ? bare : [bare.provider.name, bare.id, bare.info.maxOutput]).toEqual(["anthropic", "claude-opus-5-5", 128_000]);
  });

  test("an id a provider does not list gets its defaults, no price and known: false", () => {
    const r = resolveModel("openrouter/meta/llama-9", table);
    if (typeof r === "string") throw new Error(r);
    // everything after the first slash is the id, slashes and all
    expect(r.id).toBe("meta/llama-9");
    expect(r.info).toMatchObject({ provider: "openrouter", known: false, price: null, contextWindow: 128_000 });
  });

  test("a dated id finds its row (the date after the model's id)", () => {
    const r = resolveModel("claude-haiku-4-5-20251001", table);
    if (typeof r === "string") throw new Error(r);
    expect(r.info).toMatchObject({ known: true, contextWindow: 200_000, id: "claude-haiku-4-5-20251001" });
    expect(findRow(OPENAI_MODELS, "gpt-4o-2024-08-06")?.id).toBe("gpt-4o");
    // a longer model whose name starts with a listed one is not that one
    expect(findRow(OPENAI_MODELS, "gpt-4o-mini-2024-07-18")?.id).toBe("gpt-4o-mini");
  });

  test("an unknown provider, a provider with no model, and a one-word typo are each refused with what to write", () => {
    expect(resolveModel("nosuch/m", table)).toBe('unknown provider "nosuch" in model "nosuch/m" (known: anthropic, openai, openrouter, ollama, lmstudio, llamacpp, vllm, corp; a model is named provider/model)');
    expect(resolveModel("corp/", table)).toBe('model "corp/" names no model after "corp/"');
    const typo = resolveModel("opsu", table);
    expect(typo).toStartWith('unknown model "opsu": use one of claude-sonnet-5-5,');
    expect(typo).toContain("an alias (sonnet, opus, haiku, fable, inherit)");
  });

  test("an alias resolves to Anthropic's newest of the family; inherit with no session model is the default", () => {
    const opus = resolveModel("Opus", table);
    expect(typeof opus === "string" ? opus : opus.id).toBe("claude-opus-5-5");
    const inherit = resolveModel("inherit", table);
    expect(typeof inherit === "string" ? inherit : inherit.id).toBe("claude-sonnet-5-5");
  });

  test("a bare name with a dash or dot that no table lists is sent as written (a newer Anthropic model)", () => {
    const r = resolveModel("claude-sonnet-7", table);
    expect(typeof r === "string" ? r : [r.provider.name, r.info.known]).toEqual(["anthropic", false]);
  });
});

describe("the catalog and prices", () => {
  test("info of a name that cannot resolve falls back to Anthropic's defaults rather than throwing", () => {
    const models = catalog(providerTable());
    expect(models.info("nosuch/x")).toMatchObject({ provider: "anthropic", known: false, contextWindow: 200_000, price: null });
    expect(models.resolve!("haiku", "openai/gpt-5")).toBe("claude-haiku-5-5");
  });

  test("a model without images gets supportsImages: false in its compat; one with them does not", () => {
    const table = providerTable();
    const local = resolveModel("ollama/qwen3", table);
    const cloud = resolveModel("openai/gpt-5", table);
    if (typeof local === "string" || typeof cloud === "string") throw new Error("unresolved");
    expect(local.info.compat).toEqual({ maxTokensField: "max_tokens", supportsImages: false });
    expect(cloud.info.compat).toEqual({ maxTokensField: "max_completion_tokens" });
  });

  test("usdFor prices all four kinds of token, rounded to a millionth of a dollar", () => {
    const price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
    expect(usdFor(price, usage({ input_tokens: 1_000_000 }))).toBe(3);
    expect(usdFor(price, usage({ input_tokens: 1000, output_tokens: 2000, cache_creation_input_tokens: 4000, cache_read_input_tokens: 10_000 }))).toBe(0.051);
    expect(usdFor(price, usage({ input_tokens: 1 }))).toBe(0.000003);
  });

  test("a model with unknown prices costs null, never $0; a known one costs its table price", () => {
    expect(costUsd("openai/gpt-5.2", usage({ input_tokens: 1000 }))).toBeNull();
    expect(costFunction("ollama/anything")(usage({ output_tokens: 10 }))).toBeNull();
    expect(pricing({ price: null })(usage({ input_tokens: 5 }))).toBeNull();
    // claude-sonnet-5-5: $2 in, $10 out, cache write 1.25x, cache read 0.1x of input
    expect(costUsd("claude-sonnet-5-5", usage({ input_tokens: 1_000_000, output_tokens: 100_000, cache_creation_input_tokens: 1_000_000, cache_read_input_tokens: 1_000_000 }))).toBe(2 + 1 + 2.5 + 0.2);
  });
});

describe("keys", () => {
  const env = { OPENAI_API_KEY: "sk-openai", CORP_TOKEN: "t0k" };
  const table = providerTable(
    specs([
      { name: "corp", source: USER, api: "openai-chat", baseURL: "http://corp/v1", apiKey: "env:CORP_TOKEN" },
      { name: "inline", source: USER, api: "openai-chat", baseURL: "http://inline/v1", apiKey: "sk-inline" },
      { name: "open", source: USER, api: "openai-chat", baseURL: "http://open/v1" },
    ]),
    env,
  );
  const spec = (name: string) => table.get(name)!;

  test("the built-in Anthropic takes the key the config resolved, never its own variable from env", () => {
    expect(providerKey(spec("anthropic"), { env: { ANTHROPIC_API_KEY: "sk-ant-env" } })).toStartWith("no API key: set ANTHROPIC_API_KEY");
    expect(providerKey(spec("anthropic"), { env: {}, anthropic: { apiKey: "sk-ant-cfg" } })).toEqual({ key: "sk-ant-cfg" });
  });

  test("a key from a variable, an inline key, no key needed, and a missing one", () => {
    expect(providerKey(spec("corp"), { env })).toEqual({ key: "t0k" });
    expect(providerKey(spec("inline"), { env: {} })).toEqual({ key: "sk-inline" });
    expect(providerKey(spec("open"), { env: {} })).toEqual({});
    expect(providerKey(spec("ollama"), { env: {} })).toEqual({});
    expect(providerKey(spec("openrouter"), { env: {} })).toBe("no API key for provider openrouter: set OPENROUTER_API_KEY (export OPENROUTER_API_KEY=...)");
    expect(providerKey(spec("corp"), { env: {} })).toBe("no API key for provider corp: set CORP_TOKEN (export CORP_TOKEN=...)");
  });

  test("hints say where the key is set: the variable, and the config key for a configured provider", () => {
    expect(keyHint(spec("anthropic"))).toBe('Check ANTHROPIC_API_KEY or "apiKey" in ~/.config/rein/config.json.');
    expect(keyHint(spec("openai"))).toBe("Check OPENAI_API_KEY.");
    expect(keyHint(spec("corp"))).toBe(`Check CORP_TOKEN (providers.corp.apiKey in ${USER}).`);
    expect(keyHint(spec("inline"))).toBe(`Check providers.inline.apiKey in ${USER}.`);
    expect(keyWhere(spec("anthropic"))).toBe('ANTHROPIC_API_KEY, or "apiKey" in the user config');
    expect(keyWhere(spec("inline"))).toBe(`providers.inline.apiKey in ${USER}`);
  });

  test("every variable that holds a provider key is named, so tools never see it", () => {
    const names = keyVariables(table);
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "CORP_TOKEN"]) expect(names).toContain(name);
    expect(new Set(names).size).toBe(names.length);
  });

  test("the built-in URLs follow ANTHROPIC_BASE_URL and OPENAI_BASE_URL", () => {
    const moved = providerTable([], { ANTHROPIC_BASE_URL: "http://127.0.0.1:9/a", OPENAI_BASE_URL: "http://127.0.0.1:9/o" });
    expect(moved.get("anthropic")!.baseURL).toBe("http://127.0.0.1:9/a");
    expect(moved.get("openai")!.baseURL).toBe("http://127.0.0.1:9/o");
  });
});

describe("providerSetup and modelProblem", () => {
  test("a bad entry makes the setup one sentence; a good one names every key variable", () => {
    expect(providerSetup({ entries: [{ name: "x", source: USER }], env: {} })).toContain('"providers.x.api" is required');
    const setup = providerSetup({ entries: [{ name: "corp", source: USER, api: "openai-chat", baseURL: "http://corp/v1", apiKey: "env:CORP_TOKEN" }], env: {} });
    if (typeof setup === "string") throw new Error(setup);
    expect(setup.keyNames).toContain("CORP_TOKEN");
    expect(setup.models.problem!("corp/m")).toBe("no API key for provider corp: set CORP_TOKEN (export CORP_TOKEN=...)");
    expect(setup.models.problem!("ollama/m")).toBeUndefined();
    expect(setup.models.problem!("nope/m")).toStartWith('unknown provider "nope"');
    expect(setup.models.info("corp/m")).toMatchObject({ provider: "corp", known: false });
  });

  test("modelProblem is undefined once the key is there", () => {
    const table = providerTable();
    expect(modelProblem("openai/gpt-5", { table }, { env: { OPENAI_API_KEY: "k" } })).toBeUndefined();
    expect(modelProblem("openai/gpt-5", { table }, { env: {} })).toContain("set OPENAI_API_KEY");
    expect(modelProblem("sonnet", { table }, { env: {}, anthropic: { apiKey: "k" } })).toBeUndefined();
  });
});

describe("listProviders (rein models)", () => {
  test("each provider with its key state, source and models; non-Anthropic models named provider/model", () => {
    const table = providerTable(specs([{ name: "openai", source: USER, models: { "gpt-9": {} } }]));
    const listed = listProviders(table, { env: { OPENAI_API_KEY: "k" }, anthropic: { baseURL: "http://127.0.0.1:1/proxy" } });
    const by = new Map(listed.map((p) => [p.name, p]));
    expect(by.get("anthropic")).toMatchObject({ key: 'missing (set ANTHROPIC_API_KEY, or "apiKey" in the user config)', keyOk: false, baseURL: "http://127.0.0.1:1/proxy" });
    expect(by.get("anthropic")!.models[0]).toMatchObject({ name: "claude-sonnet-5-5", source: "built-in" });
    expect(by.get("openai")).toMatchObject({ key: "set", keyOk: true, source: "built-in" });
    expect(by.get("openai")!.models[0]).toMatchObject({ name: "openai/gpt-9", source: USER });
    expect(by.get("ollama")).toMatchObject({ key: "none needed", keyOk: true, models: [] });
    expect(by.get("openrouter")).toMatchObject({ key: "missing (set OPENROUTER_API_KEY)", keyOk: false });
  });
});
