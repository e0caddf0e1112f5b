// The fixture plugin's agents, hooks and MCP servers reach the agents, hooks and MCP loaders as one
// more source each: namespaced, with ${CLAUDE_PLUGIN_ROOT} / ${CLAUDE_PLUGIN_DATA} substituted and
// exported, and what rein cannot run named in a warning.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadAgents } from "../../../src/agents/sources.ts";
import { fire } from "../../../src/hooks/engine.ts";
import { hookEntries } from "../../../src/hooks/sources.ts";
import type { StdioEntry } from "../../../src/mcp/config.ts";
import { serverConfigs } from "../../../src/mcp/sources.ts";
import { call, hub } from "../mcp/servers.ts";
import { active, copyKit, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
beforeEach(() => (d = pluginDirs()));
afterEach(() => d.dir.remove());

const hookInput = (plugins: ReturnType<typeof active>) => ({ rein: [], home: d.home, projectRoot: d.work, trusted: false, plugins: plugins.sources.hooks });
const serverInput = (plugins: ReturnType<typeof active>) => ({
  projectRoot: d.work,
  home: d.home,
  rein: [],
  trusted: false,
  env: { PATH: process.env.PATH },
  plugins: plugins.sources.mcp,
});

test("a plugin's agent is plugin:agent, and may not choose its permission mode", () => {
  copyKit(d);
  const plugins = active(d);
  const { agents, report } = loadAgents({ cwd: d.work, projectRoot: d.work, home: d.home, configDir: d.configDir, trusted: false, plugins: plugins.sources.agents });
  const reviewer = agents.find((a) => a.name === "kit:reviewer");
  expect(reviewer).toMatchObject({ description: "Reviews a change and reports problems", tools: ["read", "grep"], project: false });
  expect(reviewer?.permissionMode).toBeUndefined();
  expect(report.notes).toContain(`agent file ${join(d.plugins, "kit/agents/reviewer.md")}: permissionMode is ignored in a plugin's agent`);
});

test("a plugin's hook runs with CLAUDE_PLUGIN_ROOT and REIN_PLUGIN_DATA in its environment", async () => {
  const root = copyKit(d);
  const { entries, warnings } = hookEntries(hookInput(active(d)));
  expect(warnings).toEqual([]);
  expect(entries).toMatchObject([{ event: "UserPromptSubmit", file: join(root, "hooks/hooks.json"), scope: "user", dialect: "claude", active: true }]);
  const ctx = { sessionId: "s1", cwd: d.work, projectDir: d.work, transcriptPath: join(d.work, "t.jsonl"), permissionMode: "default", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, emit: () => {}, newId: () => "h1" };
  expect(existsSync(join(d.dataDir, "plugins/data/kit"))).toBe(true);
  const merged = await fire(entries, { event: "UserPromptSubmit", fields: { prompt: "hi" } }, ctx, new AbortController().signal);
  expect(merged?.context).toBe(`kit hook: root=${root} data=${join(d.dataDir, "plugins/data/kit")}`);
});

test("an exec-form hook gets the plugin's variables substituted in its arguments, spaces and all", () => {
  const root = join(d.plugins, "spaced kit");
  put(join(root, "hooks/hooks.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/check", args: ["--data", "${CLAUDE_PLUGIN_DATA}"] }] }] } }));
  const { entries } = hookEntries(hookInput(active(d)));
  expect(entries[0]?.handler).toEqual({ type: "command", command: `${root}/check`, args: ["--data", join(d.dataDir, "plugins/data/spaced kit".replace(" ", "-"))] });
});

test("a hook for an event rein does not have is a warning naming the plugin; its other hooks load", () => {
  const file = put(join(d.plugins, "odd/hooks/hooks.json"), JSON.stringify({ hooks: { ConfigChange: [{ hooks: [{ type: "command", command: "true" }] }], Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }));
  const plugins = active(d);
  expect(plugins.problems).toEqual([`plugin odd: ${file}: hook event "ConfigChange" is not one rein runs (rein runs SessionStart, SessionEnd, UserPromptSubmit, UserPromptExpansion, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop, PreCompact, PostCompact, Notification, SubagentStart, SubagentStop, TaskCreated, TaskCompleted, TeammateIdle, WorktreeCreate, WorktreeRemove); those hooks are skipped`]);
  expect(hookEntries(hookInput(plugins)).entries.map((e) => e.event)).toEqual(["Stop"]);
});

test("a plugin's MCP server is plugin:PLUGIN:SERVER, started with its variables substituted and exported", async () => {
  const root = copyKit(d);
  const { servers, warnings } = serverConfigs(serverInput(active(d)));
  expect(warnings).toEqual([]);
  const where = servers.find((s) => s.name === "plugin:kit:where");
  expect(where?.source).toBe(join(root, ".mcp.json"));
  expect(where?.entry).toMatchObject({ command: "bun", args: [join(root, "servers/where.ts")], env: { REIN_PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root } });
  await using h = hub({ [where!.name]: { ...(where!.entry as StdioEntry), command: process.execPath } });
  const tools = await h.tools();
  expect(tools.map((t) => t.name)).toEqual(["mcp__plugin_kit_where__where"]);
  expect((await call(tools, "mcp__plugin_kit_where__where")).output).toBe(`root=${root} data=${join(d.dataDir, "plugins/data/kit")}`);
}, 20_000);

test("a plugin's MCP server that cannot start fails with why; inline mcpServers in the manifest load too", async () => {
  put(join(d.plugins, "broken/.claude-plugin/plugin.json"), JSON.stringify({ mcpServers: { ghost: { command: "no-such-plugin-server-xyz" }, bad: { url: "http://127.0.0.1:1/mcp" } } }));
  const { servers } = serverConfigs(serverInput(active(d)));
  expect(servers.map((s) => `${s.name} ${s.problem ?? "ok"}`)).toEqual([
    "plugin:broken:ghost ok",
    'plugin:broken:bad the entry has a url but no type: add "type": "http" (or "sse" for an old server)',
  ]);
  await using h = hub({ ghost: servers[0]!.entry! });
  expect(await h.tools()).toEqual([]);
  expect(h.servers[0]!.state).toBe("failed");
  expect(h.servers[0]!.lastError).toContain("could not be started");
}, 20_000);

test("a hooks file or .mcp.json that is not JSON is a problem for that plugin; its commands still load", () => {
  const hooks = put(join(d.plugins, "half/hooks/hooks.json"), "{ nope");
  const mcp = put(join(d.plugins, "half/.mcp.json"), "[1]");
  put(join(d.plugins, "half/commands/go.md"), "go\n");
  const plugins = active(d);
  expect(plugins.plugins.map((p) => p.commands)).toEqual([[join(d.plugins, "half/commands")]]);
  expect(plugins.problems[0]).toStartWith(`plugin half: ${hooks}: not valid JSON (`);
  expect(plugins.problems[1]).toBe(`plugin half: ${mcp}: not a JSON object; its MCP servers were not loaded`);
});

test("the same hook text in two plugins runs twice, each with its own plugin's variables", async () => {
  const hook = JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: 'echo "from $REIN_PLUGIN_ROOT"' }] }] } });
  put(join(d.plugins, "one/hooks/hooks.json"), hook);
  put(join(d.plugins, "two/hooks/hooks.json"), hook);
  const { entries } = hookEntries(hookInput(active(d)));
  const ctx = { sessionId: "s1", cwd: d.work, projectDir: d.work, transcriptPath: join(d.work, "t.jsonl"), permissionMode: "default", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, emit: () => {}, newId: () => "h1" };
  const merged = await fire(entries, { event: "UserPromptSubmit", fields: { prompt: "hi" } }, ctx, new AbortController().signal);
  expect(merged?.context).toBe(`from ${join(d.plugins, "one")}\nfrom ${join(d.plugins, "two")}`);
});
