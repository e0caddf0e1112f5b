// The config's `providers`: validated like the rest, refused where a repository could send your
// prompts elsewhere, and turned into the provider table a run resolves models against.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ConfigError } from "../../../src/config/load.ts";
import { configuredProviders } from "../../../src/llm/configured.ts";
import { catalog, costFunction, providerTable, resolveModel } from "../../../src/llm/providers.ts";
import { makeWorkspace, thrown, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());

const table = () => {
  const specs = configuredProviders(ws.load().providers);
  if (typeof specs === "string") throw new Error(specs);
  return providerTable(specs);
};

describe("a project config", () => {
  for (const key of ["baseURL", "apiKey", "headers"]) {
    test(`cannot set a provider's ${key}, even with --trust: exit 2 naming the file and key`, () => {
      const value = key === "headers" ? { "x-forward": "evil" } : "http://evil.example/v1";
      ws.writeProject({ providers: { ollama: { [key]: value } } });
      const error = thrown(() => ws.load({ overrides: { trust: true } }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.key).toBe(`providers.ollama.${key}`);
      expect(error.message).toContain(ws.projectFile);
      expect(error.message).toContain(`"providers.ollama.${key}" is not allowed in a project config`);
    });
  }

  test("may describe models of a provider the user set up (window, output limit)", () => {
    ws.writeUser({ providers: { gateway: { api: "openai-chat", baseURL: "https://gw.example/v1", apiKey: "env:GW_KEY" } } });
    ws.writeProject({ providers: { gateway: { models: { "team-model": { window: 64000, maxOutput: 4000 } } } } });
    const info = catalog(table()).info("gateway/team-model");
    expect(info).toMatchObject({ provider: "gateway", id: "team-model", contextWindow: 64000, maxOutput: 4000, price: null, known: true });
  });
});

describe("the user config", () => {
  test("a provider of its own: api, URL, key from a variable, headers, models with prices and compat", () => {
    ws.writeUser({
      providers: {
        gateway: {
          api: "openai-chat",
          baseURL: "https://gw.example/v1",
          apiKey: "env:GW_KEY",
          headers: { "x-team": "core" },
          models: { big: { window: 200000, maxOutput: 8000, prices: { input: 1, output: 4 }, compat: { maxTokensField: "max_tokens" } } },
        },
      },
    });
    const resolved = resolveModel("gateway/big", table());
    if (typeof resolved === "string") throw new Error(resolved);
    expect(resolved.provider).toMatchObject({ api: "openai-chat", baseURL: "https://gw.example/v1", apiKey: { env: "GW_KEY" }, headers: { "x-team": "core" }, source: ws.userFile });
    expect(resolved.info).toMatchObject({ contextWindow: 200000, maxOutput: 8000, price: { input: 1, output: 4, cacheRead: 1, cacheWrite: 1 }, compat: { maxTokensField: "max_tokens" } });
  });

  test("a provider rein does not know needs api and baseURL: an error naming the file and key", () => {
    ws.writeUser({ providers: { mine: { baseURL: "https://x.example/v1" } } });
    expect(configuredProviders(ws.load().providers)).toBe(
      `config error in ${ws.userFile}: "providers.mine.api" is required for a provider rein does not know (built in: anthropic, openai, openrouter, ollama, lmstudio, llamacpp, vllm)`,
    );
  });

  test("a wrong type is a config error naming the key", () => {
    ws.writeUser({ providers: { ollama: { models: { q: { window: "big" } } } } });
    const error = thrown(() => ws.load());
    expect(error.message).toContain('"providers.ollama.models.q.window": expected an integer >= 1, got "big"');
  });
});

describe("model names", () => {
  test("provider/model resolves to its provider; a bare name is Anthropic's; OpenRouter ids keep their slashes", () => {
    const t = providerTable();
    const id = (name: string) => {
      const r = resolveModel(name, t);
      return typeof r === "string" ? r : `${r.provider.name}:${r.id}`;
    };
    expect(id("claude-sonnet-5-5")).toBe("anthropic:claude-sonnet-5-5");
    expect(id("anthropic/claude-opus-5-5")).toBe("anthropic:claude-opus-5-5");
    expect(id("openai/gpt-5.2")).toBe("openai:gpt-5.2");
    expect(id("openrouter/qwen/qwen3-coder")).toBe("openrouter:qwen/qwen3-coder");
    expect(id("ollama/qwen3-coder")).toBe("ollama:qwen3-coder");
    expect(id("nosuch/x")).toContain('unknown provider "nosuch"');
  });

  test("an unknown model gets its provider's defaults and a null price (cost null, never $0)", () => {
    const info = catalog(providerTable()).info("ollama/qwen3-coder");
    expect(info).toMatchObject({ provider: "ollama", known: false, price: null, contextWindow: 32000 });
    expect(catalog(providerTable()).info("openai/gpt-5").price).toMatchObject({ input: 1.25, output: 10 });
  });

  test("a priced OpenAI model's cost counts cached input at its own price; an unpriced one is null", () => {
    const usage = { input_tokens: 1_000_000, output_tokens: 100_000, cache_read_input_tokens: 2_000_000, cache_creation_input_tokens: 0 };
    const models = catalog(providerTable());
    expect(costFunction("openai/gpt-5", models)(usage)).toBe(1.25 + 1 + 0.25);
    expect(costFunction("openai/gpt-5.2", models)(usage)).toBeNull();
    expect(costFunction("ollama/qwen3-coder", models)(usage)).toBeNull();
  });
});
