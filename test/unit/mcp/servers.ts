// Helpers for the MCP tests: a hub over real server processes, and the tool context a call needs.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { McpHub } from "../../../src/mcp/hub.ts";
import type { ServerEntry, StdioEntry } from "../../../src/mcp/config.ts";
import type { Tool, ToolContext, ToolResult } from "../../../src/sdk.ts";
import { mcpSettings } from "../../../src/mcp/session.ts";
import type { RunSettings } from "../../../src/app/factory.ts";

export const ROOT = resolve(import.meta.dir, "../../..");
export const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const ROGUE = join(import.meta.dir, "fixtures/rogue-server.ts");

export const rogue = (mode = "serve", extra: Partial<ServerEntry> = {}): ServerEntry => ({ command: process.execPath, args: [ROGUE, mode], ...extra }) as ServerEntry;
export const everything = (): StdioEntry => ({ command: "node", args: [EVERYTHING, "stdio"] });

export function hub(servers: Record<string, ServerEntry>, options: Partial<ConstructorParameters<typeof McpHub>[1]> = {}) {
  const logDir = mkdtempSync(join(tmpdir(), "rein-mcp-log-"));
  const h = new McpHub(
    Object.entries(servers).map(([name, entry]) => ({ name, source: "test", scope: "user" as const, entry })),
    { toolEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, cwd: ROOT, logDir, version: "test", startupTimeoutMs: 10_000, callTimeoutMs: 10_000, waitMs: 10_000, ...options },
  );
  return Object.assign(h, { logDir, [Symbol.asyncDispose]: () => h.close() });
}

export async function call(tools: Tool[], name: string, input: Record<string, unknown> = {}): Promise<Exclude<ToolResult, string>> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  const ctx = { cwd: ROOT, signal: new AbortController().signal, sessionId: "s", toolUseId: "t", output: () => {} } as unknown as ToolContext;
  const result = await tool.run(input, ctx);
  return typeof result === "string" ? { output: result } : result;
}

/** Resolves once `condition` holds (checked as events arrive, every few ms), or fails after 5 s. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await Bun.sleep(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A run's settings in `dir` against the fake model at `modelUrl`, with these MCP servers (and a long first-turn wait). */
export function runSettings(dir: string, modelUrl: string, servers: Record<string, ServerEntry>): RunSettings {
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, REIN_MCP_WAIT_MS: "20000" };
  const mcp = mcpSettings({ projectRoot: dir, home, rein: [], trusted: true, env, dataDir: join(dir, "data") });
  mcp.servers = Object.entries(servers).map(([name, entry]) => ({ name, source: "test", scope: "user" as const, entry }));
  return {
    cwd: dir,
    projectRoot: dir,
    model: "claude-sonnet-5-5",
    apiKey: "sk-ant-test",
    baseURL: modelUrl,
    retry: { maxAttempts: 1 },
    maxTurns: 10,
    permissionMode: "default",
    rules: { user: [], project: [], flags: [] },
    outputDir: join(dir, "output"),
    userInstructions: join(home, "AGENTS.md"),
    toolDirs: [],
    home,
    reinDirs: [join(home, ".config/rein")],
    version: "0.0.0-test",
    sandbox: { mode: "off", network: false },
    env,
    envPassthrough: [],
    askPolicy: () => ({ reply: "reject", explain: "Not run: it needs a permission." }),
    skills: { configDir: join(home, ".config/rein"), trusted: true },
    mcp,
  };
}
