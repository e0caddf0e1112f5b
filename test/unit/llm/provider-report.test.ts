// rein doctor's provider lines: one cheap request per provider in use, against real servers on
// 127.0.0.1; each answer is a line (ok or what to do), never an exception.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { checkAnthropicApi, checkChatApi } from "../../../src/llm/api-check.ts";
import { providerReport, type ReportOptions } from "../../../src/llm/provider-report.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { startFakeOpenAI, type FakeChatServer } from "../../fake/openai-server.ts";

const USER = "/home/u/.config/rein/config.json";

let anthropic: FakeServer;
let chat: FakeChatServer;
/** A server whose answer to GET .../models each test sets; it records the headers it got. */
let custom: ReturnType<typeof Bun.serve>;
let answer: (req: Request) => Response | Promise<Response> = () => new Response("{}");
const seen: Headers[] = [];
/** A port nothing listens on. */
let closedPort = 0;

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  chat = await startFakeOpenAI();
  custom = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (req) => (seen.push(req.headers), answer(req)) });
  const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  closedPort = gone.port!;
  await gone.stop(true);
});
afterAll(async () => {
  await anthropic.close();
  await chat.close();
  await custom.stop(true);
});

const customURL = () => `http://127.0.0.1:${custom.port}/v1`;

test("checkChatApi: a 200 model list answers, sending the key as a bearer token and the configured headers", async () => {
  answer = () => Response.json({ data: [] });
  const check = await checkChatApi({ baseURL: `${customURL()}/`, apiKey: "sk-1", headers: { "x-team": "t" }, local: false, keyHint: "Check K." });
  expect(check.ok).toBe(true);
  expect(check.detail).toStartWith(`answers at ${customURL()}/ (`);
  expect(seen.at(-1)!.get("authorization")).toBe("Bearer sk-1");
  expect(seen.at(-1)!.get("x-team")).toBe("t");
});

test("checkChatApi: a server with no model list (404) still answers; no key sends no authorization", async () => {
  answer = () => new Response("not found", { status: 404 });
  const check = await checkChatApi({ baseURL: customURL(), local: true, keyHint: "Check K." });
  expect(check).toMatchObject({ ok: true, detail: expect.stringContaining("without a model list") });
  expect(seen.at(-1)!.get("authorization")).toBeNull();
});

test("checkChatApi: a 401 is an auth failure with the key hint and the server's message", async () => {
  answer = () => Response.json({ error: { message: "Incorrect API key provided", type: "invalid_api_key" } }, { status: 401 });
  const check = await checkChatApi({ baseURL: customURL(), apiKey: "bad", local: false, keyHint: "Check CORP_TOKEN." });
  expect(check.ok).toBe(false);
  expect(check.detail).toContain("Incorrect API key provided");
  expect(check.detail).toContain("Check CORP_TOKEN.");
});

test("checkChatApi: nothing listening is said plainly for a local server, with the error for a remote one", async () => {
  const baseURL = `http://127.0.0.1:${closedPort}/v1`;
  expect(await checkChatApi({ baseURL, local: true, keyHint: "" })).toEqual({ ok: false, detail: `nothing listens at ${baseURL}` });
  const remote = await checkChatApi({ baseURL, local: false, keyHint: "" });
  expect(remote.ok).toBe(false);
  expect(remote.detail).toStartWith(`could not reach ${baseURL}: `);
});

test("checkChatApi: a server that never answers is given up on after timeoutMs", async () => {
  answer = (req) => new Promise((resolve) => req.signal.addEventListener("abort", () => resolve(new Response(""))));
  expect(await checkChatApi({ baseURL: customURL(), local: false, keyHint: "", timeoutMs: 300 })).toEqual({ ok: false, detail: `no answer from ${customURL()} within 0.3 s` });
});

test("checkAnthropicApi: the model list answers; a 401 names the key; silence is bounded", async () => {
  expect(await checkAnthropicApi({ apiKey: "sk-ant-x", baseURL: anthropic.url })).toMatchObject({ ok: true, detail: expect.stringMatching(/^answers \(\d+ ms\)$/) });
  expect(anthropic.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/models" });
  // SDK 1.x sends the key as a bearer token
  expect(anthropic.requests.at(-1)!.headers.authorization).toBe("Bearer sk-ant-x");

  anthropic.script({ error: 401, body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } });
  const denied = await checkAnthropicApi({ apiKey: "sk-ant-bad", baseURL: anthropic.url });
  expect(denied.ok).toBe(false);
  expect(denied.detail).toContain("invalid x-api-key");
  expect(denied.detail).toContain("ANTHROPIC_API_KEY");

  anthropic.script({ hang: true });
  expect(await checkAnthropicApi({ apiKey: "k", baseURL: anthropic.url, timeoutMs: 300 })).toEqual({ ok: false, detail: "no answer within 0.3 s: check ANTHROPIC_BASE_URL and the network" });

  const unreachable = await checkAnthropicApi({ apiKey: "k", baseURL: `http://127.0.0.1:${closedPort}` });
  expect(unreachable.ok).toBe(false);
  expect(unreachable.detail).toStartWith("could not reach the API: ");
});

function report(over: Partial<ReportOptions>): ReportOptions {
  return { model: "claude-sonnet-5-5", entries: [], env: {}, anthropic: {}, timeoutMs: 2000, skip: ["ollama", "lmstudio", "llamacpp", "vllm"], ...over };
}

test("the model's provider without a key is a failed line saying where to set it; providers with no key and no use get no line", async () => {
  const lines = await providerReport(report({ anthropic: { baseURL: anthropic.url } }));
  expect(lines).toEqual([{ name: "anthropic", ok: false, detail: 'no key: set ANTHROPIC_API_KEY, or "apiKey" in the user config' }]);
});

test("the model's provider with a key is asked and marked as the model's; a cloud built-in with a key set is asked as not in use", async () => {
  const lines = await providerReport(
    report({ anthropic: { apiKey: "sk-ant", baseURL: anthropic.url }, env: { OPENROUTER_API_KEY: "sk-or" }, entries: [{ name: "openrouter", source: USER, baseURL: chat.url }] }),
  );
  if (typeof lines === "string") throw new Error(lines);
  const by = new Map(lines.map((l) => [l.name, l]));
  expect(by.get("anthropic")).toMatchObject({ ok: true, detail: expect.stringMatching(/^key set; answers \(\d+ ms\) \(the model's provider\)$/) });
  // openrouter is configured, so it is in use: asked at its configured URL with its key
  const openrouter = by.get("openrouter")!;
  expect(openrouter.ok).toBe(true);
  expect(openrouter.detail).toMatch(new RegExp(`^key set; answers at ${chat.url} \\(\\d+ ms\\)$`));
  expect(chat.requests.at(-1)!.headers.authorization).toBe("Bearer sk-or");
  expect(by.has("openai")).toBe(false);
});

test("a configured local server that is not running says to start it or move its URL", async () => {
  const baseURL = `http://127.0.0.1:${closedPort}/v1`;
  const lines = await providerReport(report({ model: "ollama/qwen", skip: ["anthropic"], entries: [{ name: "ollama", source: USER, baseURL }] }));
  if (typeof lines === "string") throw new Error(lines);
  expect(lines.find((l) => l.name === "ollama")).toEqual({ name: "ollama", ok: false, detail: `nothing listens at ${baseURL}: start the server, or set providers.ollama.baseURL in the user config` });
});

test("a cloud built-in nobody uses is asked when its key is set, and its line says it is not in use", async () => {
  const lines = await providerReport(report({ skip: ["anthropic", "ollama", "lmstudio", "llamacpp", "vllm"], env: { OPENAI_API_KEY: "sk-oa", OPENAI_BASE_URL: chat.url } }));
  expect(lines).toEqual([{ name: "openai", ok: true, detail: expect.stringMatching(new RegExp(`^key set; answers at ${chat.url} \\(\\d+ ms\\) \\(not in use\\)$`)) }]);
  expect(chat.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/models", headers: { authorization: "Bearer sk-oa" } });
});

test("a bad providers entry makes the whole report one sentence", async () => {
  expect(await providerReport(report({ entries: [{ name: "corp", source: USER }] }))).toContain(`config error in ${USER}: "providers.corp.api" is required`);
});
