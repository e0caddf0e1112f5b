// A run's providers and models from a real config file: what an alias stands for with the provider
// in use, why a model cannot run (said before anything is sent), the budget that cannot be kept for
// a model without prices, and what `rein models` lists.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "../../../src/app/args.ts";
import { resolveContext, runSettings, type Env } from "../../../src/app/context.ts";
import { budgetWarning, modelFor, providerListing, runProblem, runProviders } from "../../../src/app/run-providers.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let env: Env;
beforeEach(() => {
  dir = tempDir("rein-providers-");
  env = { HOME: dir.path, ANTHROPIC_API_KEY: "sk-ant-test", REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
  mkdirSync(join(dir.path, "config"), { recursive: true });
});
afterEach(() => dir.remove());

const GATEWAY = {
  api: "openai-chat",
  baseURL: "http://127.0.0.1:9/v1",
  apiKey: "env:GATEWAY_KEY",
  models: {
    "anthropic/claude-opus-4-1": { window: 200000, maxOutput: 16000 },
    "anthropic/claude-opus-4-5": { window: 200000, maxOutput: 16000, prices: { input: 5, output: 25 } },
    "big-coder": { window: 100000, maxOutput: 8000 },
  },
};
function context(config: Record<string, unknown> = {}, ...argv: string[]) {
  writeFileSync(join(dir.path, "config", "config.json"), JSON.stringify(config));
  return resolveContext(parseArgs(["-p", "x", "--cwd", dir.path, ...argv]), env);
}
const settings = (config: Record<string, unknown> = {}, ...argv: string[]) => runSettings(context(config, ...argv));

describe("modelFor", () => {
  test("Claude Code's aliases are the newest of the family on Anthropic; inherit is the current model", () => {
    const s = settings();
    expect(modelFor(s, "opus")).toBe("claude-opus-5-5");
    expect(modelFor(s, "sonnet")).toBe("claude-sonnet-5-5");
    expect(modelFor(s, "haiku")).toBe("claude-haiku-5-5");
    expect(modelFor(s, "inherit", "claude-opus-4-5")).toBe("claude-opus-4-5");
    expect(modelFor(s, "claude-opus-4-5")).toBe("claude-opus-4-5");
  });

  test("on another provider an alias is that provider's newest of the family, or Anthropic's when it lists none", () => {
    const s = settings({ providers: { gateway: GATEWAY } });
    expect(modelFor(s, "opus", "gateway/big-coder")).toBe("gateway/anthropic/claude-opus-4-5");
    expect(modelFor(s, "haiku", "gateway/big-coder")).toBe("claude-haiku-5-5");
  });

  test("-m opus on the command line runs the resolved model", () => {
    expect(settings({}, "-m", "opus").model).toBe("claude-opus-5-5");
  });

  test("a config whose providers are wrong leaves the name as given (the problem is said elsewhere)", () => {
    const s = settings();
    const broken = { ...s, providers: [{ name: "mystery", source: "config.json" }] };
    expect(modelFor(broken, "opus")).toBe("opus");
    expect(runProviders(broken)).toBe('config error in config.json: "providers.mystery.api" is required for a provider rein does not know (built in: anthropic, openai, openrouter, ollama, lmstudio, llamacpp, vllm)');
    expect(runProblem(broken)).toBe(runProviders(broken) as string);
  });
});

describe("runProblem", () => {
  test("a provider without its key names the variable to set", () => {
    const s = settings({ providers: { gateway: GATEWAY } });
    expect(runProblem(s, "openai/gpt-5")).toBe("no API key for provider openai: set OPENAI_API_KEY (export OPENAI_API_KEY=...)");
    expect(runProblem(s, "gateway/big-coder")).toBe("no API key for provider gateway: set GATEWAY_KEY (export GATEWAY_KEY=...)");
    expect(runProblem({ ...s, env: { ...s.env, GATEWAY_KEY: "k" } }, "gateway/big-coder")).toBeUndefined();
  });

  test("an unknown provider lists the known ones, the configured included", () => {
    const s = settings({ providers: { gateway: GATEWAY } });
    expect(runProblem(s, "nope/x")).toBe('unknown provider "nope" in model "nope/x" (known: anthropic, openai, openrouter, ollama, lmstudio, llamacpp, vllm, gateway; a model is named provider/model)');
  });

  test("a single unknown word is a typo, answered with the models and aliases", () => {
    const problem = runProblem(settings(), "opsu");
    expect(problem).toStartWith('unknown model "opsu": use one of claude-sonnet-5-5, claude-opus-5-5');
    expect(problem).toContain("an alias (sonnet, opus, haiku, fable, inherit) or provider/model (rein models lists them all)");
  });

  test("the config's apiKey stands in for ANTHROPIC_API_KEY", () => {
    delete env.ANTHROPIC_API_KEY;
    const s = settings({ apiKey: "sk-ant-from-config" });
    expect(runProblem(s)).toBeUndefined();
    expect(runProblem({ ...s, apiKey: undefined })).toContain("ANTHROPIC_API_KEY");
  });

  test("a local preset needs no key", () => {
    expect(runProblem(settings(), "ollama/qwen3-coder")).toBeUndefined();
  });
});

describe("budgetWarning", () => {
  test("a cost budget for a model without prices cannot be enforced, and says so", () => {
    const s = settings({ providers: { gateway: GATEWAY } }, "--max-cost", "2");
    expect(budgetWarning({ ...s, model: "gateway/big-coder" })).toBe("the prices of model gateway/big-coder are unknown: the cost budget of $2 (--max-cost) cannot be enforced");
    expect(budgetWarning({ ...s, model: "gateway/anthropic/claude-opus-4-5" })).toBeUndefined();
    expect(budgetWarning(s)).toBeUndefined();
  });

  test("no budget, no warning, whatever the prices", () => {
    const s = settings({ providers: { gateway: GATEWAY } });
    expect(budgetWarning({ ...s, model: "gateway/big-coder" })).toBeUndefined();
  });
});

describe("providerListing", () => {
  test("every provider with where it came from and whether its key is set; configured models with their limits", () => {
    const ctx = context({ providers: { gateway: GATEWAY } });
    const listing = providerListing(ctx.config, ctx.env);
    if (typeof listing === "string") throw new Error(listing);
    const byName = new Map(listing.map((p) => [p.name, p]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(["anthropic", "openai", "ollama", "gateway"]));
    expect(byName.get("anthropic")).toMatchObject({ key: "set", source: "built-in" });
    expect(byName.get("openai")?.key).not.toBe("set");
    const gateway = byName.get("gateway")!;
    expect(gateway).toMatchObject({ api: "openai-chat", baseURL: "http://127.0.0.1:9/v1", key: "missing (set GATEWAY_KEY)", keyOk: false, source: join(dir.path, "config", "config.json") });
    const coder = gateway.models.find((m) => m.name === "gateway/big-coder");
    expect(coder).toMatchObject({ contextWindow: 100000, maxOutput: 8000, source: join(dir.path, "config", "config.json") });
    // a model without prices shows null, never a price of 0
    expect(coder?.price).toBeNull();
    expect(gateway.models.find((m) => m.name === "gateway/anthropic/claude-opus-4-5")?.price).toMatchObject({ input: 5, output: 25 });
  });

  test("the key variables set in the environment are seen, and a missing one says how to set it", () => {
    env.GATEWAY_KEY = "k";
    delete env.ANTHROPIC_API_KEY;
    const ctx = context({ providers: { gateway: GATEWAY } });
    const listing = providerListing(ctx.config, ctx.env);
    if (typeof listing === "string") throw new Error(listing);
    expect(listing.find((p) => p.name === "gateway")?.key).toBe("set");
    expect(listing.find((p) => p.name === "anthropic")?.key).toBe('missing (set ANTHROPIC_API_KEY, or "apiKey" in the user config)');
  });

  test("a wrong providers entry is the sentence naming it", () => {
    expect(providerListing({ providers: [{ name: "mystery", source: "config.json" }] }, env)).toContain('"providers.mystery.api" is required');
  });
});
