// A session started on Anthropic, switched to an OpenAI-compatible model, switched back, then
// resumed: every request goes to the provider its model names and is valid for that API, tool
// calls and results carried across.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { providerSetup, type ProviderSetup } from "../../../src/llm/setup.ts";
import { defineTool } from "../../../src/sdk.ts";
import { Session } from "../../../src/session/session.ts";
import { Store } from "../../../src/session/store.ts";
import { anthropicRequestProblems } from "../../fake/anthropic-check.ts";
import { startFakeOpenAI, type FakeChatServer } from "../../fake/openai-server.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { testSessionOptions } from "../../support/session-kit.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let anthropic: FakeServer;
let openai: FakeChatServer;
let dir: TempDir;
let store: Store;
let setup: ProviderSetup;

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  openai = await startFakeOpenAI({ dialect: "openai" });
  dir = tempDir("rein-switch-");
  store = Store.open(join(dir.path, "rein.db")).store;
  const made = providerSetup({
    env: { OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: openai.url },
    anthropic: { apiKey: "sk-ant-test", baseURL: anthropic.url },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
  });
  if (typeof made === "string") throw new Error(made);
  setup = made;
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
  store.close();
  dir.remove();
});

const look = defineTool({
  name: "look",
  description: "Looks at a path",
  input: v.object({ path: v.string() }),
  readOnly: true,
  run: ({ path }) => `looked at ${path}`,
});

const options = (model: string) => ({
  ...testSessionOptions({ store, baseURL: anthropic.url, dataDir: dir.path, tools: [look], model }),
  stream: setup.stream,
  models: setup.models,
});
const text = (t: string) => ({ type: "text" as const, text: t });

test("Anthropic, then OpenAI, then Anthropic, then resumed: each turn at its provider, every request valid, tools carried over", async () => {
  const session = Session.create(dir.path, options("claude-sonnet-5-5"));

  anthropic.script({ reply: [{ type: "tool_use", id: "toolu_01AnthropicCall", name: "look", input: { path: "a.ts" } }] }, { reply: [text("a.ts looked fine")] });
  expect((await session.prompt("look at a.ts")).status).toBe("success");

  session.setModel("openai/gpt-5.2");
  expect(session.contextWindow).toBe(400_000);
  // A server whose ids Anthropic would refuse (a dot and a colon in it).
  openai.script({ reply: [{ type: "tool_use", id: "functions.look:0", name: "look", input: { path: "b.ts" } }] }, { reply: [text("b.ts too")] });
  const second = await session.prompt("now b.ts");
  expect(second).toMatchObject({ status: "success", text: "b.ts too" });

  session.setModel("claude-sonnet-5-5");
  anthropic.script({ reply: [text("both seen")] });
  expect((await session.prompt("summarise")).text).toBe("both seen");

  const resumed = Session.open(store.findSession(session.id) as Exclude<ReturnType<Store["findSession"]>, string>, options("claude-sonnet-5-5"));
  anthropic.script({ reply: [text("still here")] });
  expect((await resumed.prompt("and now?")).text).toBe("still here");

  // Where each request went, and what it carried.
  expect(anthropic.requests).toHaveLength(4);
  expect(openai.requests).toHaveLength(2);
  expect(openai.requests[0]!.body.model).toBe("gpt-5.2");
  for (const r of anthropic.requests) expect(anthropicRequestProblems(r.body)).toEqual([]);
  expect(openai.problems.flat()).toEqual([]);

  const toOpenAI = openai.requests[0]!.body.messages;
  expect(toOpenAI.map((m: { role: string }) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  expect(toOpenAI[2].tool_calls[0]).toMatchObject({ id: "toolu_01AnthropicCall", function: { name: "look", arguments: '{"path":"a.ts"}' } });
  expect(toOpenAI[3]).toEqual({ role: "tool", tool_call_id: "toolu_01AnthropicCall", content: "looked at a.ts" });

  const back = anthropic.requests[2]!.body.messages;
  const uses = back.flatMap((m: { content: { type: string; id?: string }[] }) => m.content.filter((b) => b.type === "tool_use"));
  expect(uses).toHaveLength(2);
  expect(uses[1].id).toMatch(/^call_[a-z0-9]+$/);
  expect(JSON.stringify(back)).toContain("looked at b.ts");
  expect(store.findSession(session.id)).toMatchObject({ model: "claude-sonnet-5-5" });
});

test("switching to a provider without its key, or to one rein does not know, is refused and the model stays", () => {
  const session = Session.create(dir.path, { ...options("claude-sonnet-5-5"), models: providerSetupNoKeys().models });
  expect(() => session.setModel("openrouter/qwen/qwen3-coder")).toThrow("no API key for provider openrouter: set OPENROUTER_API_KEY");
  expect(() => session.setModel("nosuch/model")).toThrow('unknown provider "nosuch"');
  expect(session.model).toBe("claude-sonnet-5-5");
});

function providerSetupNoKeys(): ProviderSetup {
  const made = providerSetup({ env: {}, anthropic: { apiKey: "sk-ant-test" } });
  if (typeof made === "string") throw new Error(made);
  return made;
}
