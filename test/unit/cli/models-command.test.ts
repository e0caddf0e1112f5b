// `rein models` from source in a real process with a provider configured in the user's file: the
// model in use, each provider with its API, address, key state and source, and each model with its
// window, output limit, prices (or that they are unknown), what it supports and where it came from.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let dir: TempDir;
let configFile: string;
beforeAll(() => {
  dir = tempDir("rein-models-");
  mkdirSync(join(dir.path, "config"), { recursive: true });
  mkdirSync(join(dir.path, "home"), { recursive: true });
  configFile = join(dir.path, "config", "config.json");
});
afterAll(() => dir.remove());

async function models(config: unknown, extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  writeFileSync(configFile, JSON.stringify(config));
  const env = { PATH: process.env.PATH ?? "", HOME: join(dir.path, "home"), REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data"), ANTHROPIC_API_KEY: "sk-ant-test", ...extra };
  const proc = Bun.spawn([process.execPath, MAIN, "models"], { cwd: dir.path, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const GATEWAY = {
  api: "openai-chat",
  baseURL: "http://127.0.0.1:9/v1",
  apiKey: "env:GATEWAY_KEY",
  models: {
    "big-coder": { window: 200000, maxOutput: 16000, prices: { input: 1, output: 4 } },
    tiny: { window: 8000, maxOutput: 1000, images: true },
  },
};

test("the model in use, each provider's line, and each model's window, output, prices and abilities", async () => {
  const r = await models({ model: "claude-haiku-4-5", providers: { gateway: GATEWAY } });
  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  expect(lines[0]).toBe("model in use: claude-haiku-4-5");
  expect(lines).toContain("anthropic (anthropic, https://api.anthropic.com; key set; from built-in)");
  expect(lines).toContain(`gateway (openai-chat, http://127.0.0.1:9/v1; key missing (set GATEWAY_KEY); from ${configFile})`);
  const big = lines.find((l) => l.trimStart().startsWith("gateway/big-coder"))!;
  expect(big).toMatch(/^ {2}gateway\/big-coder +200k window {3}16k out {2}\$1\/\$4 per M tokens {2}\[tools\] {2}\(from .*config\.json\)$/);
  const tiny = lines.find((l) => l.trimStart().startsWith("gateway/tiny"))!;
  expect(tiny).toContain("8k window");
  expect(tiny).toContain("prices unknown (cost shown as null)");
  expect(tiny).toContain("[tools, images]");
  // a window of a million is written in millions
  expect(lines.find((l) => l.trimStart().startsWith("claude-sonnet-5-5"))).toMatch(/ 1M window /);
});

test("a key set in the environment shows as set", async () => {
  const r = await models({ providers: { gateway: GATEWAY } }, { GATEWAY_KEY: "k" });
  expect(r.stdout).toContain(`gateway (openai-chat, http://127.0.0.1:9/v1; key set; from ${configFile})`);
});

test("a local preset without models takes any id", async () => {
  const r = await models({});
  const at = r.stdout.split("\n").findIndex((l) => l.startsWith("ollama ("));
  expect(at).toBeGreaterThan(0);
  expect(r.stdout.split("\n")[at + 1]).toBe("  any model: ollama/MODEL-ID");
});

test("a provider entry that is wrong is the config's sentence on stderr, with exit 2; stdout stays empty", async () => {
  const r = await models({ providers: { mystery: { models: {} } } });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith(`rein: config error in ${configFile}: "providers.mystery.`);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
});
