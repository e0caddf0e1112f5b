// rein doctor and rein models over the provider table: configured providers, keys, endpoints,
// local servers that listen or do not.
import { expect, test } from "bun:test";
import { startFakeOpenAI } from "../fake/openai-server.ts";
import { world } from "./harness.ts";

test.concurrent("rein doctor on an OpenAI model: the key and the endpoint (GET /models with the key); a configured local server that does not listen fails", async () => {
  await using w = await world();
  const fake = await startFakeOpenAI();
  try {
    const closed = "http://127.0.0.1:9/v1";
    await Bun.write(`${w.configDir}/config.json`, JSON.stringify({ providers: { lmstudio: { baseURL: closed } } }));
    const r = await w.run(["doctor", "-m", "openai/gpt-5.2"], { env: { OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: fake.url } });
    expect(r.stdout).toMatch(new RegExp(`^ok   openai +key set; answers at ${fake.url.replace(/[./]/g, "\\$&")} \\(\\d+ ms\\) \\(the model's provider\\)$`, "m"));
    expect(r.stdout).toContain(`FAIL lmstudio      nothing listens at ${closed}: start the server, or set providers.lmstudio.baseURL in the user config`);
    expect(r.stdout).not.toContain("provider key");
    expect(r.code).toBe(1);
    expect(fake.requests.map((q) => `${q.method} ${q.path} ${q.headers.authorization}`)).toEqual(["GET /v1/models Bearer sk-openai-test"]);
  } finally {
    await fake.close();
  }
});

test.concurrent("rein doctor on a model whose provider has no key: FAIL naming the variable", async () => {
  await using w = await world();
  const r = await w.run(["doctor", "-m", "openrouter/qwen/qwen3-coder"], { env: { OPENROUTER_API_KEY: undefined } });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^FAIL openrouter +no key: set OPENROUTER_API_KEY$/m);
});

test.concurrent("rein models: built-in and configured providers, where each came from, keys, windows and prices", async () => {
  await using w = await world();
  const file = `${w.configDir}/config.json`;
  const config = {
    model: "gateway/big",
    providers: { gateway: { api: "openai-chat", baseURL: "https://gw.example/v1", apiKey: "env:GW_KEY", models: { big: { window: 200000, maxOutput: 8000, prices: { input: 1, output: 4 } } } } },
  };
  await Bun.write(file, JSON.stringify(config));
  const r = await w.run(["models"], { env: { GW_KEY: "secret-gw" } });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("model in use: gateway/big\n");
  expect(r.stdout).toContain(`gateway (openai-chat, https://gw.example/v1; key set; from ${file})`);
  expect(r.stdout).toMatch(new RegExp(`gateway/big +200k window +8k out +\\$1/\\$4 per M tokens +\\[tools\\] +\\(from ${file.replace(/[./]/g, "\\$&")}\\)`));
  expect(r.stdout).toContain("openai (openai-chat, https://api.openai.com/v1; key missing (set OPENAI_API_KEY); from built-in)");
  expect(r.stdout).toMatch(/openai\/gpt-5\.2 +400k window +128k out +prices unknown/);
  expect(r.stdout).toContain("ollama (openai-chat, http://localhost:11434/v1; key none needed; from built-in)");
  expect(r.stdout).not.toContain("secret-gw");
  expect((await w.run(["models", "extra"])).code).toBe(2);
});
