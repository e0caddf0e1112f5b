// What a Session runs on, assembled from a real context (config files, flags, a skill on disk, a
// store): the tools offered (Claude Code's --tools included), the system prompt and the agent's,
// the deferred tools, the output limit, the tools' environment, the rule order and its sources, the
// permission mode switch, and the warning for a rule no tool can match. The model is never called:
// the provider points at a closed port on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "../../../src/app/args.ts";
import { resolveContext, runSettings, type Env } from "../../../src/app/context.ts";
import { instructionSources, outputBound, permissionEngine, permissionsInMode, ruleSet, sessionOptions } from "../../../src/app/factory.ts";
import type { AgentDefinition } from "../../../src/agents/types.ts";
import { Store } from "../../../src/session/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let project: string;
let env: Env;
let store: Store;
beforeEach(() => {
  dir = tempDir("rein-factory-");
  project = join(dir.path, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  env = {
    HOME: join(dir.path, "home"),
    PATH: process.env.PATH,
    ANTHROPIC_API_KEY: "sk-ant-test-key",
    ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
    REIN_CONFIG_DIR: join(dir.path, "config"),
    REIN_DATA_DIR: join(dir.path, "data"),
  };
  mkdirSync(join(dir.path, "config"), { recursive: true });
  store = Store.open(join(dir.path, "data", "rein.db")).store;
});
afterEach(() => {
  store.close();
  dir.remove();
});

const config = (value: unknown) => writeFileSync(join(dir.path, "config", "config.json"), JSON.stringify(value));
const skill = () => {
  mkdirSync(join(dir.path, "config", "skills", "greet"), { recursive: true });
  writeFileSync(join(dir.path, "config", "skills", "greet", "SKILL.md"), "---\nname: greet\ndescription: Greets the user warmly\n---\nSay hello.\n");
};
const settingsOf = (argv: string[] = [], warn?: (line: string) => void) => runSettings(resolveContext(parseArgs(["-p", "x", "--cwd", project, ...argv]), env), warn ? { warn } : {});
const optionsOf = (argv: string[] = [], warn?: (line: string) => void) => sessionOptions(settingsOf(argv, warn), store);
/** The options' tools (a function in a run's options: loaded on first use). */
const toolsOf = async (options: ReturnType<typeof sessionOptions>) => (typeof options.tools === "function" ? await options.tools() : options.tools);
const toolNames = async (argv: string[] = []) => (await toolsOf(optionsOf(argv))).map((t) => t.name);

describe("the tools offered", () => {
  test("without --tools: the built-ins, memory and the skill tool when a skill exists", async () => {
    skill();
    const names = await toolNames();
    expect(names).toEqual(expect.arrayContaining(["bash", "read", "edit", "write", "glob", "grep", "memory", "skill"]));
  });

  test("--tools names the built-ins offered, Claude Code's names included", async () => {
    skill();
    expect((await toolNames(["--tools", "Bash,Read"])).sort()).toEqual(["bash", "read"]);
    expect((await toolNames(["--tools", "Grep,Skill"])).sort()).toEqual(["grep", "skill"]);
    expect((await toolNames(["--tools", "memory"])).sort()).toEqual(["memory"]);
  });

  test('--tools "" offers no tool at all: rein\'s own memory and skill tools are built-ins too', async () => {
    skill();
    expect(await toolNames(["--tools", ""])).toEqual([]);
  });

  test("a rule naming a permission no tool has is warned about once, when the tools first load", async () => {
    config({ permissions: { allow: ["nosuchtool"] } });
    const warnings: string[] = [];
    const options = optionsOf([], (line) => warnings.push(line));
    expect(warnings).toEqual([]);
    await toolsOf(options);
    await toolsOf(options);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith(`${join(dir.path, "config", "config.json")}: "nosuchtool" is none of rein's permissions`);
  });

  test("a rule for a configured MCP server's tools is not foreign", async () => {
    config({ permissions: { allow: ["mcp__db__query"] }, mcpServers: { db: { command: "/nonexistent/db-server" } } });
    const warnings: string[] = [];
    await toolsOf(optionsOf([], (line) => warnings.push(line)));
    expect(warnings.filter((w) => w.includes("mcp__db__query"))).toEqual([]);
  });
});

describe("the system prompt", () => {
  test("rein's own, the skills' catalog and --append-system-prompt, in that order", () => {
    skill();
    const { system } = optionsOf(["--append-system-prompt", "APPENDED LAST"]);
    expect(system).toContain("You are rein");
    expect(system).toContain("greet");
    expect(system.indexOf("greet")).toBeLessThan(system.indexOf("APPENDED LAST"));
    expect(system).toEndWith("APPENDED LAST");
  });

  test("--system-prompt replaces rein's own and keeps the append", () => {
    const { system } = optionsOf(["--system-prompt", "YOU ARE A TEST", "--append-system-prompt", "AND BRIEF"]);
    expect(system).toBe("YOU ARE A TEST\n\nAND BRIEF");
  });

  test("the agent run as adds its prompt for the lead; its subagents get rein's prompt without it", () => {
    const agents = JSON.stringify({ lead: { description: "Leads", prompt: "YOU LEAD THE TEAM", tools: ["read", "task", "webfetch"] } });
    const options = optionsOf(["--agents", agents, "--agent", "lead"]);
    expect(options.system).toContain("You are rein");
    expect(options.system).toContain("YOU LEAD THE TEAM");
    expect(options.childSystem).toContain("You are rein");
    expect(options.childSystem).not.toContain("YOU LEAD THE TEAM");
    expect(options.agent).toBe("lead");
    // a tool the agent lists is offered up front, not behind load_tools
    expect(options.deferredTools).not.toContain("webfetch");
    expect(optionsOf().deferredTools).toContain("webfetch");
  });
});

describe("limits and places", () => {
  test("the output limit is the model's, at most 32k, unless the config sets it", () => {
    expect(optionsOf().maxTokens).toBe(32_000);
    config({ providers: { gateway: { api: "openai-chat", baseURL: "http://127.0.0.1:9/v1", apiKey: "k", models: { small: { window: 16000, maxOutput: 4000 } } } } });
    expect(optionsOf(["-m", "gateway/small"]).maxTokens).toBe(4000);
    config({ maxTokens: 1234 });
    expect(optionsOf().maxTokens).toBe(1234);
  });

  test("a tool result's share of the window: 15%, between 10k and 60k characters", () => {
    expect(outputBound(8_000)).toBe(10_000);
    expect(outputBound(200_000)).toBe(30_000);
    expect(outputBound(1_000_000)).toBe(60_000);
  });

  test("checkpoints sit beside the output folder; the lease wait and version pass through", () => {
    env.REIN_LEASE_WAIT_MS = "250";
    const options = optionsOf();
    expect(options.outputDir).toBe(join(dir.path, "data", "output"));
    expect(options.checkpoints).toEqual({ dir: join(dir.path, "data", "checkpoints") });
    expect(options.lease).toEqual({ waitMs: 250 });
    expect(options.places).toEqual({ home: env.HOME!, projectRoot: project });
  });

  test("the tools' environment: no provider key, a configured provider's key variable neither, env.passthrough kept", () => {
    env.GATEWAY_KEY = "sk-gateway-secret";
    env.MY_TOKEN = "kept because it is passed through";
    config({ providers: { gateway: { api: "openai-chat", baseURL: "http://127.0.0.1:9/v1", apiKey: "env:GATEWAY_KEY" } }, env: { passthrough: ["MY_TOKEN"] } });
    const toolEnv = optionsOf().toolEnv!;
    expect(toolEnv.ANTHROPIC_API_KEY).toBeUndefined();
    expect(toolEnv.GATEWAY_KEY).toBeUndefined();
    expect(Object.values(toolEnv)).not.toContain("sk-gateway-secret");
    expect(toolEnv.MY_TOKEN).toBe("kept because it is passed through");
    expect(toolEnv.PATH).toBe(process.env.PATH!);
  });

  test("a trusted project's Claude Code settings env reaches the tools", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ env: { FROM_SETTINGS: "yes" } }));
    expect(optionsOf(["--trust"]).toolEnv?.FROM_SETTINGS).toBe("yes");
  });
});

describe("the rule set", () => {
  const rules = { user: [{ permission: "bash", pattern: "git *", action: "allow" as const }], project: [{ permission: "bash", pattern: "git push *", action: "ask" as const }], flags: [{ permission: "bash", pattern: "git push --force *", action: "deny" as const }], tail: [{ permission: "read", pattern: ".env", action: "deny" as const }] };
  const sources = (list: { source?: string }[]) => list.map((r) => r.source).filter((s, i, all) => all.indexOf(s) === i);

  test("defaults, mode, user, project, command line, Claude Code's settings: the last match wins", () => {
    // the default mode adds no rules of its own
    expect(sources(ruleSet("default", rules))).toEqual(["built-in default", "user config", "project config", "command line", "Claude Code settings"]);
    const plan = ruleSet("plan", rules);
    expect(sources(plan)).toEqual(["built-in default", "permission mode plan", "user config", "project config", "command line", "Claude Code settings"]);
    expect(plan.at(-1)).toMatchObject({ permission: "read", pattern: ".env", action: "deny", source: "Claude Code settings" });
    // starting a subagent asks nothing: what it does asks for itself
    expect(plan).toContainEqual({ permission: "task", pattern: "*", action: "allow", source: "built-in default" });
  });

  test("a rule's own source is kept", () => {
    const own = ruleSet("default", { user: [{ permission: "bash", pattern: "ls", action: "allow", source: "/home/u/.config/rein/config.json" }], project: [], flags: [] });
    expect(own.find((r) => r.pattern === "ls")?.source).toBe("/home/u/.config/rein/config.json");
  });

  test("an agent with its own permission mode replaces the run's mode rules", () => {
    const agent: AgentDefinition = { name: "careful", description: "d", prompt: "", rules: [], mode: "all", source: "test", project: false, permissionMode: "plan" };
    expect(sources(ruleSet("auto", rules, agent))).not.toContain("permission mode auto");
    const plain: AgentDefinition = { ...agent, permissionMode: undefined };
    expect(sources(ruleSet("plan", rules, plain))).toContain("permission mode plan");
  });

  test("switching the mode: auto turns the sandbox on wherever it works, other modes keep the run's", () => {
    const settings = settingsOf();
    const off = { ...settings, sandbox: { mode: "off" as const, network: false } };
    expect(permissionsInMode(off, "auto").sandbox).toMatchObject({ mode: "auto", network: false });
    expect(permissionsInMode(off, "plan").sandbox).toMatchObject({ mode: "off" });
    expect(permissionsInMode(off, "plan").rules.some((r) => r.source === "permission mode plan")).toBe(true);
  });
});

test("the permission engine expands a command line with the run's open folders", async () => {
  const settings = { projectRoot: project, home: env.HOME!, reinDirs: [], directories: ["/opt/shared"] };
  const expanded = await permissionEngine(settings)([{ permission: "bash", pattern: "cat /opt/shared/a /etc/hosts", always: [] }], project);
  const outside = expanded.filter((r) => r.permission === "external_directory").map((r) => r.pattern);
  expect(outside).toEqual(["/etc/hosts"]);
  expect(expanded.filter((r) => r.permission === "read").map((r) => r.pattern)).toEqual(["/opt/shared/a", "/etc/hosts"]);
});

test("instruction sources carry only what is set", () => {
  expect(instructionSources({ projectRoot: "/p", userInstructions: "/c/AGENTS.md", cwd: "/p/sub" })).toEqual({ projectRoot: "/p", userInstructions: "/c/AGENTS.md", cwd: "/p/sub" });
  expect(instructionSources({ projectRoot: "/p", userInstructions: "/u", cwd: "/p", instructionMaxBytes: 10, home: "/h", reinDirs: ["/r"], trusted: true, extraInstructions: [{ path: "x.md", scope: "user" }] })).toEqual({
    projectRoot: "/p",
    userInstructions: "/u",
    cwd: "/p",
    maxBytes: 10,
    home: "/h",
    reinDirs: ["/r"],
    trusted: true,
    extra: [{ path: "x.md", scope: "user" }],
  });
});
