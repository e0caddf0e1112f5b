// The routed stream: each request goes to the provider its model names, with that provider's id,
// key and limits; what cannot be routed ends the stream as an error event.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { providerSetup } from "../../../src/llm/setup.ts";
import { startFakeOpenAI, type FakeChatServer } from "../../fake/openai-server.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import type { ProviderEvent } from "../../../src/agent/types.ts";
import { sampleRequest } from "../../support/provider-run.ts";

let anthropic: FakeServer;
let chat: FakeChatServer;
beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  chat = await startFakeOpenAI({ dialect: "vllm" });
});
afterAll(async () => {
  await anthropic.close();
  await chat.close();
});

function setup() {
  const made = providerSetup({
    entries: [
      { name: "proxy", source: "/home/u/.config/rein/config.json", api: "anthropic", baseURL: anthropic.url, apiKey: "env:PROXY_KEY" },
      { name: "vllm", source: "/home/u/.config/rein/config.json", baseURL: chat.url, models: { "small-coder": { window: 32000, maxOutput: 2000 } } },
    ],
    env: { PROXY_KEY: "sk-proxy-key" },
    anthropic: {},
    retry: { maxAttempts: 1 },
  });
  if (typeof made === "string") throw new Error(made);
  return made;
}

async function run(model: string, maxTokens = 1024): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of setup().stream(sampleRequest({ model, max_tokens: maxTokens }), new AbortController().signal)) events.push(e);
  return events;
}

test("a configured Anthropic-compatible provider gets its own id, URL and key", async () => {
  anthropic.script({ reply: [{ type: "text", text: "via the proxy" }] });
  const events = await run("proxy/claude-x");
  expect(events.at(-1)).toMatchObject({ type: "done", content: [{ type: "text", text: "via the proxy" }] });
  expect(anthropic.requests.at(-1)!.body.model).toBe("claude-x");
  expect(JSON.stringify(anthropic.requests.at(-1)!.headers)).toContain("sk-proxy-key");
});

test("a local preset moved by the config: no key, the model's id, max_tokens cut to the model's output limit", async () => {
  chat.script({ reply: [{ type: "text", text: "local" }] });
  await run("vllm/small-coder", 32_000);
  const sent = chat.requests.at(-1)!;
  expect(sent.body).toMatchObject({ model: "small-coder", max_tokens: 2000 });
  expect(sent.headers.authorization).toBeUndefined();
});

test("an unknown provider, or the built-in Anthropic without a key, ends the stream with one error event and sends nothing", async () => {
  const before = anthropic.requests.length;
  expect(await run("nosuch/m")).toEqual([{ type: "error", code: "bad_request", message: expect.stringContaining('unknown provider "nosuch"') }]);
  expect(await run("claude-sonnet-5-5")).toEqual([{ type: "error", code: "auth", message: expect.stringContaining("no API key: set ANTHROPIC_API_KEY") }]);
  expect(anthropic.requests.length).toBe(before);
});
