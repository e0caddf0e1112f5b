// What test/e2e/agent-fields-recorded*.test.ts share: the recordings of Claude Code 2.1.332 for
// agent files (test/fixtures/claude-code/agent-fields), readers of them and of rein's requests,
// and a world holding a recorded case's files whose fake model logs each request's agent.
import { expect } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CASES, writeAgentFiles } from "../fixtures/claude-code/agent-fields/cases.ts";
import type { FakeBlock, FakeStep, RecordedRequest } from "../fake/types.ts";
import { world, type World } from "./harness.ts";

const RECORDED = join(import.meta.dir, "..", "fixtures", "claude-code", "agent-fields", "recorded");
// Subagents and MCP servers in every run: generous on a loaded machine.
export const SLOW = { timeoutMs: 80_000, env: { REIN_MCP_WAIT_MS: "25000" } };
const AGENTS = ["DEEP", "QUICK", "WIDE", "PLAIN", "LEAD", "HIGH", "INTENT", "NAMED", "HELPER", "HOOKED", "REMEMBERER", "BARE", "M-HAIKU", "M-SONNET", "M-OPUS", "M-FABLE", "M-INHERIT", "EDITOR", "ASKER", "NUMBERED", "CASED"] as const;
export const EFFORT_BETA = "effort-2025-11-24";
/** Claude Code's tool names as rein names them (docs/agents.md); MCP tools keep theirs. */
export const REIN_NAME: Record<string, string> = { Read: "read", Grep: "grep" };
/** Claude Code's tools as rein's: its own placeholder for deferred tools has no counterpart. */
export const asRein = (tools: string[]) => tools.filter((t) => t !== "DeferredToolPlaceholder").map((t) => REIN_NAME[t] ?? t).sort();

export type Digest = { n: number; subagent: boolean; model: string; output_config: { effort?: string } | null; "anthropic-beta": string[]; tools: string[]; system_agent: string[]; first_user_texts: string[]; last_user_texts: string[]; markers: { system: string[]; messages: string[] }; tool_results: { is_error: boolean; text: string }[] };
export type Recording = { requests: Digest[]; events: string[] };

export function recording(name: string): Recording {
  const dir = join(RECORDED, name);
  return { requests: JSON.parse(readFileSync(join(dir, "requests.json"), "utf8")), events: readFileSync(join(dir, "events.log"), "utf8").trim().split("\n") };
}

/** The agent whose prompt a system prompt carries ("" for none of the cases' agents: the main session). */
export const agentIn = (system: string) => AGENTS.find((a) => system.includes(`${a}-AGENT-PROMPT`)) ?? "";
export const recordedAgent = (d: Digest) => agentIn(d.system_agent.join("\n"));
export const reinAgent = (r: RecordedRequest) => agentIn(JSON.stringify(r.body.system));
export const recordedEffort = (d: Digest | undefined) => d?.output_config?.effort;
export const reinEffort = (r: RecordedRequest | undefined) => r?.body.output_config?.effort as string | undefined;
export const reinBetas = (r: RecordedRequest) => (r.headers["anthropic-beta"] ?? "").split(",").filter(Boolean);
export const reinTools = (r: RecordedRequest) => (r.body.tools as { name: string }[]).map((t) => t.name).sort();
export const firstTexts = (r: RecordedRequest): string[] => {
  const content = r.body.messages[0].content;
  return typeof content === "string" ? [content] : content.filter((b: { type: string }) => b.type === "text").map((b: { text: string }) => b.text.trim());
};

/**
 * The order of requests (by agent) and of the probe server's start and close: from the recording's
 * events.log (a close by signal, then its exit, is one close), or from rein's run (each scripted
 * reply logs its request's agent to the probe server's log before it is answered).
 */
export function recordedLifetime(rec: Recording): string[] {
  const byN = new Map(rec.requests.map((d) => [d.n, recordedAgent(d)]));
  return rec.events.flatMap((line) => {
    const request = /^request (\d+)/.exec(line);
    if (request) return [`request ${byN.get(Number(request[1]))}`];
    if (line.startsWith("started")) return ["started"];
    return line.startsWith("signal-") || line.startsWith("closed") ? ["closed"] : [];
  });
}
export const reinLifetime = (log: string) =>
  readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => (line.startsWith("request") ? line : line.split(" ")[0]!));

/** What the server was up for: the agents of the requests between its start and its close. */
export function window(lifetime: string[]): string[] {
  const start = lifetime.indexOf("started");
  const end = lifetime.indexOf("closed");
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return lifetime.slice(start + 1, end);
}

/** Each step answers one request and first logs which agent's it is, beside the probe server's lines. */
export function logged(w: World, log: string, replies: (FakeBlock[] | FakeStep)[]): void {
  const step = (reply: FakeBlock[] | FakeStep): FakeStep => (Array.isArray(reply) ? { reply } : reply);
  w.fake.script(...replies.map((reply): FakeStep => ({ respond: (body) => (appendFileSync(log, `request ${agentIn(JSON.stringify(body.system))}\n`), step(reply)) })));
}
export const task = (id: string, subagent_type: string, prompt: string): FakeBlock[] => [{ type: "tool_use", name: "task", id, input: { description: `run ${subagent_type}`, prompt, subagent_type } }];

/** A world with the recorded case's files (its agent files, and what the case adds: a .mcp.json). */
export async function setUp(name?: string): Promise<{ w: World; log: string }> {
  const w = await world();
  const log = w.path("events.log");
  const files = { proj: w.cwd, log, command: process.execPath };
  writeAgentFiles(files);
  if (name) CASES[name]!.files?.(files);
  return { w, log };
}
