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

test.concurrent("the server: a session created with model openai/... runs its turns there; one whose provider has no key is refused (400) naming the variable", async () => {
  await using w = await world();
  const fake = await startFakeOpenAI();
  const token = "providers-e2e-token-of-32-chars!";
  const rein = w.start(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: token, OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: fake.url, OPENROUTER_API_KEY: undefined } });
  try {
    await rein.waitForStdout((out) => out.includes("\n"), "the server's URL");
    const url = rein.stdout.split("\n")[0]!;
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const created = await call("POST", "/sessions", { model: "openai/gpt-5.2" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    fake.script({ reply: [{ type: "text", text: "from the OpenAI side" }] });
    const result = (await (await call("POST", `/sessions/${id}/prompt?wait=1`, { text: "hi" })).json()) as Record<string, unknown>;
    expect(result).toMatchObject({ type: "result", status: "success", text: "from the OpenAI side", model: "openai/gpt-5.2" });
    expect(fake.requests.map((r) => r.body.model)).toEqual(["gpt-5.2"]);
    expect(w.fake.requests).toHaveLength(0);

    const refused = await call("POST", "/sessions", { model: "openrouter/qwen/qwen3-coder" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("no API key for provider openrouter: set OPENROUTER_API_KEY");
  } finally {
    rein.kill("SIGTERM");
    await rein.exited;
    await fake.close();
  }
});
