// Claude Code's agent fields as Claude Code applies them: `background: true` always runs in the
// background, `mcpServers` naming a configured server offers its tools past the agent's tool list,
// and a plugin's agent (or an untrusted repository's) loses what would run code or write elsewhere.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { loadAgents } from "../../../src/agents/sources.ts";
import { taskTool } from "../../../src/agents/task-tool.ts";
import type { AgentDefinition } from "../../../src/agents/types.ts";
import type { Tool } from "../../../src/sdk.ts";
import { Session } from "../../../src/session/session.ts";
import { withSubagents } from "../../../src/session/subagents.ts";
import { withEffort } from "../../../src/session/agent-fields.ts";
import { effortFor } from "../../../src/llm/models.ts";
import { BUILTIN_CATALOG } from "../../../src/llm/providers.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const agent = (fields: Partial<AgentDefinition>): AgentDefinition => ({ name: "worker", description: "works", prompt: "WORKER AGENT", rules: [], mode: "subagent", source: "built-in", project: false, ...fields });
const tool = (name: string): Tool => ({ name, description: name, input: v.object({}), run: () => name });

test("background: true starts the agent's tasks in the background even when the call asks otherwise", async () => {
  const started: string[] = [];
  const task = taskTool({
    agents: [agent({ background: true })],
    run: async () => {
      throw new Error("ran in the foreground");
    },
    start: async (request) => (started.push(request.agent), { id: "s_bg", state: "running" }),
  });
  const ctx = { toolUseId: "toolu_1", signal: new AbortController().signal } as never;
  const result = await task.run({ description: "d", prompt: "p", subagent_type: "worker", run_in_background: false }, ctx);
  expect(started).toEqual(["worker"]);
  expect(JSON.stringify(result)).toContain("task_id: s_bg");
});

test("mcpServers naming a configured server offers its tools to the agent past its tool list; other servers' stay out", async () => {
  const worker = agent({ tools: ["read"], mcpServers: ["docs"] });
  const options = withSubagents(kit.options({ tools: [tool("read"), tool("write"), tool("mcp__docs__search"), tool("mcp__other__search")] }), { agents: [worker] });
  const session = Session.create(kit.dir.path, options);
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "task", input: { description: "d", prompt: "look it up", subagent_type: "worker" } }] },
    { reply: [{ type: "text", text: "found" }] },
    { reply: [{ type: "text", text: "done" }] },
  );
  await session.prompt("go");
  const child = kit.fake.requests[1]!.body;
  expect(JSON.stringify(child.system)).toContain("WORKER AGENT");
  expect(child.tools.map((t: { name: string }) => t.name).sort()).toEqual(["mcp__docs__search", "read"]);
});

function agentFile(dir: string, name: string, extra: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\ndescription: an agent\n${extra}---\nbody\n`);
}

const RUNS = 'hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: "true"\nmcpServers: [docs]\nmemory: user\n';

test("a plugin's agent keeps no hooks, MCP servers or initialPrompt (as in Claude Code), with a note", () => {
  const plugin = join(kit.dir.path, "plugin-agents");
  agentFile(plugin, "helper", `${RUNS}initialPrompt: Start here.\n`);
  const home = join(kit.dir.path, "home");
  const { agents, report } = loadAgents({ cwd: kit.dir.path, projectRoot: kit.dir.path, home, configDir: join(home, "config"), trusted: true, plugins: [{ dir: plugin, prefix: "kit:" }] });
  const helper = agents.find((a) => a.name === "kit:helper")!;
  expect(helper.hooks).toBeUndefined();
  expect(helper.mcpServers).toBeUndefined();
  expect(helper.memory).toBe("user");
  expect(helper.initialPrompt).toBeUndefined();
  expect(report.notes).toContain(`agent file ${join(plugin, "helper.md")}: hooks, mcpServers, initialPrompt are ignored in a plugin's agent`);
});

test("an untrusted repository's agent runs no hooks, starts no MCP servers and keeps no memory; trusted, it does", () => {
  agentFile(join(kit.dir.path, ".claude", "agents"), "repo-agent", RUNS);
  const home = join(kit.dir.path, "home");
  const places = { cwd: kit.dir.path, projectRoot: kit.dir.path, home, configDir: join(home, "config") };
  const untrusted = loadAgents({ ...places, trusted: false });
  const plain = untrusted.agents.find((a) => a.name === "repo-agent")!;
  expect([plain.hooks, plain.mcpServers, plain.memory]).toEqual([undefined, undefined, undefined]);
  expect(untrusted.report.notes.some((n) => n.endsWith("hooks, mcpServers, memory not applied: the workspace is not trusted (run with --trust to apply them)"))).toBe(true);
  const trusted = loadAgents({ ...places, trusted: true }).agents.find((a) => a.name === "repo-agent")!;
  expect(trusted.mcpServers).toEqual(["docs"]);
  expect(trusted.memory).toBe("user");
  expect(Object.keys(trusted.hooks ?? {})).toEqual(["Stop"]);
});

test("effortFor: the level asked, capped at the highest the model takes below it; none for a model that takes none", () => {
  const info = (model: string) => BUILTIN_CATALOG.info(model);
  expect(effortFor(info("claude-sonnet-5-5"), "max")).toBe("max");
  expect(effortFor(info("claude-opus-4-5"), "xhigh")).toBe("high");
  expect(effortFor(info("claude-opus-4-5"), "low")).toBe("low");
  expect(effortFor(info("claude-haiku-4-5"), "low")).toBeUndefined();
  expect(effortFor(info("openai/gpt-5.2"), "max")).toBe("xhigh");
  expect(effortFor(info("openai/gpt-5"), "xhigh")).toBe("high");
  expect(effortFor(info("openai/gpt-4o"), "high")).toBeUndefined();
  expect(effortFor(info("claude-sonnet-5-5"), undefined)).toBeUndefined();
});

test("withEffort: a subagent's stream carries its own agent's effort, never its parent's; a number asks none", async () => {
  const seen: unknown[] = [];
  const base = (request: { effort?: string }) => (seen.push(request.effort), (async function* () {})());
  const parent = withEffort(base as never, "max");
  const child = withEffort(parent, undefined);
  const numbered = withEffort(parent, 3);
  const own = withEffort(parent, "low");
  for (const stream of [parent, child, numbered, own]) for await (const _ of stream({ model: "m", system: "", messages: [], tools: [], max_tokens: 1 }, new AbortController().signal));
  expect(seen).toEqual(["max", undefined, undefined, "low"]);
  expect(child).toBe(base as never);
});

test("Claude Code's readings: \"true\" for true, effort in any case or as a number in text, one bad mcpServers item costs only itself, autoCompactWindow of at least 100000", () => {
  const dir = join(kit.dir.path, "readings", ".claude", "agents");
  agentFile(dir, "loose", 'background: "true"\nomitClaudeMd: "true"\neffort: Med\nautoCompactWindow: 150000\nmcpServers:\n  - docs\n  - 42\n  - own: {command: srv}\n');
  agentFile(dir, "tight", "effort: \"7\"\nautoCompactWindow: 5000\nmaxTurns: \"12\"\n");
  const home = join(kit.dir.path, "home");
  const { agents, report } = loadAgents({ cwd: join(kit.dir.path, "readings"), projectRoot: join(kit.dir.path, "readings"), home, configDir: join(home, "config"), trusted: true });
  const loose = agents.find((a) => a.name === "loose")!;
  expect(loose).toMatchObject({ background: true, omitClaudeMd: true, effort: "medium", autoCompactWindow: 150_000, mcpServers: ["docs", { own: { command: "srv" } }] });
  const tight = agents.find((a) => a.name === "tight")!;
  expect(tight.effort).toBe(7);
  expect(tight.maxTurns).toBe(12);
  expect(tight.autoCompactWindow).toBeUndefined();
  expect(report.notes.some((n) => n.includes("an mcpServers item must be a server name or one NAME: {configuration}, got 42: ignored"))).toBe(true);
  expect(report.notes.some((n) => n.includes("autoCompactWindow must be a whole number of tokens, at least 100000, got 5000: ignored"))).toBe(true);
});

test("omitClaudeMd: the subagent's prompt has no instruction files; autoCompactWindow: a prompt that fits its model's window is compacted in the smaller one", async () => {
  const lean = agent({ name: "lean", omitClaudeMd: true, autoCompactWindow: 100_000 });
  const plain = agent({ name: "plain" });
  const options = { ...kit.options(), system: "REIN PROMPT\n\nHOUSE RULES", childSystemBare: () => "REIN PROMPT" };
  const session = Session.create(kit.dir.path, withSubagents(options, { agents: [lean, plain] }));
  // ~80,000 tokens by the estimate: over 80% of what a 100,000-token window leaves, far under the model's 1M
  const big = `Summarise this.\n${"x".repeat(320_000)}`;
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "task", input: { description: "d", prompt: big, subagent_type: "plain" } }] },
    { reply: [{ type: "text", text: "plain done" }] },
    { reply: [{ type: "tool_use", name: "task", input: { description: "d", prompt: big, subagent_type: "lean" } }] },
    { reply: [{ type: "text", text: "The user wants x summarised." }] },
    { reply: [{ type: "text", text: "lean done" }] },
    { reply: [{ type: "text", text: "done" }] },
  );
  await session.prompt("go");
  const systems = kit.fake.requests.map((r) => JSON.stringify(r.body.system));
  expect(systems[1]).toContain("HOUSE RULES");
  // The lean child's first call is the summary of its too-big conversation, then its turn, whose prompt has no instructions.
  expect(kit.fake.requests[3]!.body.tools).toEqual([]);
  expect(systems[3]).toContain("working memory");
  expect(systems[4]).toContain("WORKER AGENT");
  expect(systems[4]).not.toContain("HOUSE RULES");
});

test("permissionMode dontAsk: a subagent's ask is refused at once where its parent would put it to a person", async () => {
  const careful = agent({ name: "careful", dontAsk: true, permissionMode: "default" });
  const options = kit.options({ tools: [tool("write")], rules: [{ permission: "*", pattern: "*", action: "ask" }, { permission: "task", pattern: "*", action: "allow" }] });
  const session = Session.create(kit.dir.path, withSubagents(options, { agents: [careful] }));
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "task", input: { description: "d", prompt: "write it", subagent_type: "careful" } }] },
    { reply: [{ type: "tool_use", name: "write", input: {} }] },
    { reply: [{ type: "text", text: "refused" }] },
    { reply: [{ type: "text", text: "done" }] },
  );
  const result = await session.prompt("go");
  expect(result.status).toBe("success");
  expect(JSON.stringify(kit.fake.requests[2]!.body.messages.at(-1))).toContain("the careful agent asks no one (permissionMode dontAsk)");
});
