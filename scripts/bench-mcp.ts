// Issue 18's time figures: a one-shot with three configured stdio servers whose tools it does not
// use, against one with none (interleaved, the servers' lists cached by a first run, as a user's
// second run has them), and an MCP tool call's overhead in process: rein's tool (the hub, the
// server's request, the result made into rein's) against the SDK's client calling the same tool of
// another instance of the same server directly.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpHub } from "../src/mcp/hub.ts";
import type { ToolContext } from "../src/sdk.ts";
import type { FakeServer } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median, runCommand } from "./bench-run.ts";

const EVERYTHING = resolve(import.meta.dir, "../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CALLS = 200;

export type McpFigures = { oneShotMs: number; bareOneShotMs: number; rein: number; direct: number };

export async function mcpFigures(bin: string, fake: FakeServer, runs: number): Promise<McpFigures> {
  const root = mkdtempSync(join(tmpdir(), "rein-bench-mcp-"));
  try {
    return { ...(await unusedServers(bin, fake, root, runs)), ...(await callOverhead(root)) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function mcpRows(f: McpFigures): Row[] {
  return [
    {
      figure: "one-shot with three configured stdio MCP servers, unused (lists cached)",
      shown: `${f.oneShotMs.toFixed(1)} ms`,
      value: f.oneShotMs,
      floor: { name: "the same one-shot with no servers", value: f.bareOneShotMs, unit: "ms" },
      target: { ratio: 1.2 },
    },
    {
      figure: "an MCP tool call's overhead over the SDK's client calling it directly (in process, server-everything echo)",
      shown: `${(f.rein - f.direct).toFixed(3)} ms (${f.rein.toFixed(3)} vs ${f.direct.toFixed(3)} ms a call)`,
      value: f.rein - f.direct,
      target: { max: 2, text: "at most 2 ms" },
    },
  ];
}

async function unusedServers(bin: string, fake: FakeServer, root: string, runs: number): Promise<Pick<McpFigures, "oneShotMs" | "bareOneShotMs">> {
  const setup = (name: string, servers: number) => {
    const home = join(root, name);
    const cwd = join(home, "work");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    const env = benchEnv(home, fake.url);
    const mcpServers = Object.fromEntries(Array.from({ length: servers }, (_, i) => [`srv${i + 1}`, { command: "node", args: [EVERYTHING, "stdio"] }]));
    mkdirSync(env.REIN_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.REIN_CONFIG_DIR!, "config.json"), JSON.stringify({ mcpServers }));
    return { env: { ...env, REIN_MCP_WAIT_MS: "30000" }, cwd };
  };
  const three = setup("three", 3);
  const bare = setup("bare", 0);
  const once = (s: { env: Record<string, string>; cwd: string }) => {
    fake.script({ reply: [{ type: "text", text: "ok" }] });
    return runCommand([bin, "-p", "say ok"], s.env, s.cwd);
  };
  await once(three); // connects the servers and caches their lists
  const samples = { three: [] as number[], bare: [] as number[] };
  for (let i = -1; i < runs; i++) {
    const a = await once(three);
    const b = await once(bare);
    if (i >= 0) samples.three.push(a.ms), samples.bare.push(b.ms);
  }
  return { oneShotMs: median(samples.three), bareOneShotMs: median(samples.bare) };
}

async function callOverhead(root: string): Promise<Pick<McpFigures, "rein" | "direct">> {
  const hub = new McpHub([{ name: "everything", source: "bench", scope: "user", entry: { command: "node", args: [EVERYTHING, "stdio"] } }], {
    toolEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cwd: root,
    logDir: join(root, "logs"),
    version: "bench",
    startupTimeoutMs: 30_000,
    callTimeoutMs: 30_000,
    waitMs: 30_000,
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: "node", args: [EVERYTHING, "stdio"], stderr: "ignore" }));
  try {
    const echo = (await hub.tools()).find((t) => t.name === "mcp__everything__echo")!;
    const ctx = { cwd: root, signal: new AbortController().signal, output: () => {} } as unknown as ToolContext;
    const rein = await perCall(async () => echo.run({ message: "x" }, ctx));
    const direct = await perCall(() => client.callTool({ name: "echo", arguments: { message: "x" } }));
    return { rein, direct };
  } finally {
    await client.close();
    await hub.close();
  }
}

/** The median of batches of 20 calls, per call, after a warm-up batch. */
async function perCall(call: () => Promise<unknown>): Promise<number> {
  const batches: number[] = [];
  for (let b = -1; b < CALLS / 20; b++) {
    const start = performance.now();
    for (let i = 0; i < 20; i++) await call();
    if (b >= 0) batches.push((performance.now() - start) / 20);
  }
  return median(batches);
}

if (import.meta.main) {
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const fake = await startFakeAnthropic();
  try {
    const figures = await mcpFigures(resolve(import.meta.dir, "../dist/rein"), fake, Number(process.env.BENCH_RUNS ?? 5));
    console.log(JSON.stringify(figures));
  } finally {
    await fake.close();
  }
}
