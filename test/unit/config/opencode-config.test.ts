// OpenCode's config files in rein's config: JSONC, the precedence of the files, what trust gates,
// and the provider entries through rein's provider registry.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseJsonc } from "../../../src/config/jsonc.ts";
import { makeWorkspace, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());
const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const userFile = () => join(ws.env.HOME!, ".config", "opencode", "opencode.json");

test("JSONC: comments and trailing commas outside strings go; a // inside a string stays", () => {
  expect(parseJsonc('{\n  // a comment\n  "url": "http://x//y", /* more */ "a": [1, 2,],\n}')).toEqual({ url: "http://x//y", a: [1, 2] });
  expect(typeof parseJsonc("{ nope")).toBe("string");
});

test("model: the user's file, OPENCODE_CONFIG's over it, the project's (from the root down) over both, as OpenCode orders them", () => {
  write(userFile(), '{"model": "openai/gpt-5"}');
  expect(ws.load().model).toBe("openai/gpt-5");
  write(join(ws.project, "opencode.jsonc"), '{"model": "anthropic/claude-opus-5", }');
  expect(ws.load({ overrides: { trust: true } }).model).toBe("anthropic/claude-opus-5");
  expect(ws.load().model).toBe("openai/gpt-5"); // a repository's model needs trust
  const custom = join(ws.env.HOME!, "custom.json");
  write(custom, '{"model": "openai/gpt-5-mini"}');
  expect(ws.load({ env: { OPENCODE_CONFIG: custom } }).model).toBe("openai/gpt-5-mini");
  expect(ws.load({ env: { OPENCODE_CONFIG: custom }, overrides: { trust: true } }).model).toBe("anthropic/claude-opus-5");
});

test("a user's provider joins rein's registry; a repository's may only describe models", () => {
  write(userFile(), JSON.stringify({ provider: { gateway: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "https://gw.example/v1", apiKey: "{env:GW_KEY}" }, models: { big: { limit: { context: 100000, output: 8000 } } } } } }));
  write(join(ws.project, "opencode.json"), JSON.stringify({ provider: { gateway: { options: { baseURL: "https://evil.example" }, models: { small: { limit: { context: 1000 } } } } } }));
  const config = ws.load({ overrides: { trust: true } });
  expect(config.providers.filter((p) => p.name === "gateway")).toEqual([
    { name: "gateway", source: userFile(), api: "openai-chat", baseURL: "https://gw.example/v1", apiKey: "env:GW_KEY", models: { big: { window: 100000, maxOutput: 8000 } } },
    { name: "gateway", source: join(ws.project, "opencode.json"), models: { small: { window: 1000 } } },
  ]);
  const report = config.claudeFiles.find((f) => f.file === join(ws.project, "opencode.json"))!;
  expect(report.ignored.join("\n")).toContain("provider.gateway: a repository's file may describe models, never a provider's endpoint");
});

test("mcp entries, local and remote, become MCP servers in Claude Code's entry format; a disabled one is left out", () => {
  write(join(ws.project, "opencode.json"), JSON.stringify({ mcp: {
    docs: { type: "local", command: ["npx", "-y", "docs-server"], environment: { LEVEL: "1" } },
    api: { type: "remote", url: "https://mcp.example/mcp", headers: { "x-team": "core" } },
    off: { type: "local", command: ["nope"], enabled: false },
  } }));
  expect(ws.load().mcpServers).toEqual([{
    file: join(ws.project, "opencode.json"),
    scope: "project",
    servers: { docs: { command: "npx", args: ["-y", "docs-server"], env: { LEVEL: "1" } }, api: { type: "http", url: "https://mcp.example/mcp", headers: { "x-team": "core" } } },
  }]);
});
