// The application context from argv and the environment, on real folders: where the project is,
// whether it is trusted, and what a run's settings make of the config files, the REIN_* variables
// and Claude Code's flags (the model an agent chooses, MCP servers from --mcp-config, the tool
// folders, dontAsk). Each value read here reaches a run; a wrong one changes what the run does.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs, UsageError } from "../../../src/app/args.ts";
import {
  agentPlaces,
  instructionCap,
  lspFor,
  mcpFor,
  MissingKeyError,
  openStore,
  reinDirs,
  resolveContext,
  runSettings,
  runSettingsForExplain,
  serverEnv,
  startupWarnings,
  toolDirs,
  untrustedSummary,
  untrustedToolsWarning,
  type Env,
} from "../../../src/app/context.ts";
import { knownFault } from "../../../src/app/known-fault.ts";
import { rememberTrust } from "../../../src/config/trust.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let project: string;
let env: Env;
beforeEach(() => {
  dir = tempDir("rein-context-");
  project = join(dir.path, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "src", "deep"), { recursive: true });
  env = { HOME: join(dir.path, "home"), PATH: process.env.PATH, ANTHROPIC_API_KEY: "sk-ant-test-key", REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
  mkdirSync(env.HOME!, { recursive: true });
});
afterEach(() => dir.remove());

const ctxOf = (...argv: string[]) => resolveContext(parseArgs(["-p", "x", "--cwd", project, ...argv]), env);
const userConfig = (config: unknown) => {
  mkdirSync(env.REIN_CONFIG_DIR!, { recursive: true });
  writeFileSync(join(env.REIN_CONFIG_DIR!, "config.json"), JSON.stringify(config));
};

describe("resolveContext", () => {
  test("the project root is the nearest folder with a marker above --cwd; the paths follow REIN_*_DIR", () => {
    const ctx = resolveContext(parseArgs(["-p", "x", "--cwd", join(project, "src", "deep")]), env);
    expect(ctx.cwd).toBe(join(project, "src", "deep"));
    expect(ctx.projectRoot).toBe(project);
    expect(ctx.paths.db).toBe(join(dir.path, "data", "rein.db"));
    expect(ctx.paths.userTools).toBe(join(dir.path, "config", "tools"));
    expect(reinDirs(ctx)).toEqual([join(dir.path, "config"), join(dir.path, "data"), join(project, ".rein")]);
  });

  test("a --cwd that is missing or a file is a usage error naming it", () => {
    const file = join(dir.path, "file.txt");
    writeFileSync(file, "x");
    for (const cwd of [join(dir.path, "nowhere"), file]) {
      expect(() => resolveContext(parseArgs(["-p", "x", "--cwd", cwd]), env)).toThrow(new UsageError(`--cwd ${cwd}: no such directory`));
    }
  });

  test("trusted with --trust, or when the user trusted the workspace before; a distrusted one stays untrusted", () => {
    expect(ctxOf().trusted).toBe(false);
    expect(ctxOf("--trust").trusted).toBe(true);
    rememberTrust(env.REIN_DATA_DIR!, project, true);
    expect(ctxOf().trusted).toBe(true);
    rememberTrust(env.REIN_DATA_DIR!, project, false);
    expect(ctxOf().trusted).toBe(false);
  });

  test("flags override the config files: model, turns, cost and mode", () => {
    userConfig({ model: "claude-opus-4-5", maxTurns: 7, permissionMode: "accept-edits" });
    const fromConfig = ctxOf().config;
    expect(fromConfig).toMatchObject({ model: "claude-opus-4-5", maxTurns: 7, permissionMode: "accept-edits" });
    const flagged = ctxOf("-m", "claude-haiku-4-5", "--max-turns", "3", "--max-cost", "0.5", "--permission-mode", "plan").config;
    expect(flagged).toMatchObject({ model: "claude-haiku-4-5", maxTurns: 3, maxCost: 0.5, permissionMode: "plan" });
  });
});

describe("runSettings", () => {
  test("the REIN_* tuning variables are read when they are numbers and ignored when not", () => {
    env.REIN_RETRY_BASE_MS = "5";
    env.REIN_RETRY_MAX_ATTEMPTS = "many";
    env.REIN_RETRY_MAX_WAIT_MS = "0";
    env.REIN_STREAM_IDLE_MS = "2500";
    env.REIN_LEASE_WAIT_MS = "0";
    const settings = runSettings(ctxOf());
    expect(settings.retry).toEqual({ baseDelayMs: 5, maxWaitMs: 0 });
    expect(settings.idleTimeoutMs).toBe(2500);
    // 0 is a real lease wait (do not wait), unlike an idle timeout of 0 (none given)
    expect(settings.leaseWaitMs).toBe(0);
    env.REIN_STREAM_IDLE_MS = "0";
    delete env.REIN_LEASE_WAIT_MS;
    const plain = runSettings(ctxOf());
    expect(plain.idleTimeoutMs).toBeUndefined();
    expect(plain.leaseWaitMs).toBeUndefined();
  });

  test("REIN_INSTRUCTIONS_MAX_BYTES must be a positive whole number", () => {
    const cap = (value: string) => instructionCap({ REIN_INSTRUCTIONS_MAX_BYTES: value });
    expect(cap("4096")).toBe(4096);
    for (const bad of ["0", "-5", "1.5", "12kb", ""]) expect(cap(bad)).toBeUndefined();
    env.REIN_INSTRUCTIONS_MAX_BYTES = "100";
    expect(runSettings(ctxOf()).instructionMaxBytes).toBe(100);
  });

  test("a model whose provider has no key is a MissingKeyError saying so, before any run starts", () => {
    delete env.ANTHROPIC_API_KEY;
    let thrown: unknown;
    try {
      runSettings(ctxOf());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MissingKeyError);
    expect((thrown as Error).message).toContain("ANTHROPIC_API_KEY");
  });

  test("a --fallback-model that cannot run is refused at start, as -m is, not when an overload needs it", () => {
    const refused = (fallback: string) => {
      try {
        runSettings(ctxOf("--fallback-model", fallback));
      } catch (error) {
        expect(error).toBeInstanceOf(MissingKeyError);
        return (error as Error).message;
      }
      throw new Error("expected the fallback to be refused");
    };
    expect(refused("opsu")).toStartWith('--fallback-model opsu: unknown model "opsu": use one of ');
    expect(refused("openai/gpt-5")).toBe("--fallback-model openai/gpt-5: no API key for provider openai: set OPENAI_API_KEY (export OPENAI_API_KEY=...)");
    // an alias of the run's provider is fine, and kept as given for the stream to resolve
    expect(runSettings(ctxOf("--fallback-model", "haiku")).fallbackModel).toBe("haiku");
  });

  test("the run's places, version and trust reach the settings", () => {
    const settings = runSettings(ctxOf("--trust"));
    expect(settings).toMatchObject({ cwd: project, projectRoot: project, home: env.HOME, trusted: true, dataDir: join(dir.path, "data"), outputDir: join(dir.path, "data", "output") });
    expect(settings.userInstructions).toBe(join(dir.path, "config", "AGENTS.md"));
    expect(settings.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(settings.sandbox).toEqual({ mode: expect.any(String), network: false });
    env.REIN_SANDBOX_NETWORK = "1";
    expect(runSettings(ctxOf()).sandbox?.network).toBe(true);
  });

  test("hooks are told Claude Code's entrypoint: sdk-cli headless, cli in the terminal", () => {
    expect(runSettings(ctxOf()).hooks?.entrypoint).toBe("sdk-cli");
    const terminal = resolveContext(parseArgs(["--cwd", project]), env);
    expect(runSettings(terminal).hooks?.entrypoint).toBe("cli");
    expect(runSettings(terminal).hooks?.projectDir).toBe(project);
  });

  test("a rein started by a hook two deep loads no hooks, and says why at start", () => {
    userConfig({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } });
    expect(runSettings(ctxOf()).hooks?.entries.length).toBe(1);
    env.REIN_HOOK_DEPTH = "2";
    const ctx = ctxOf();
    expect(runSettings(ctx).hooks?.entries).toEqual([]);
    const warnings: string[] = [];
    startupWarnings(ctx, (line) => warnings.push(line));
    expect(warnings.some((w) => w.startsWith("hooks are not run: this rein was started by a rein hook 2 deep"))).toBe(true);
  });

  test("--permission-mode dontAsk refuses every ask with an instruction to the model", async () => {
    const settings = runSettings(ctxOf("--permission-mode", "dontAsk"));
    expect(settings.permissionMode).toBe("default");
    const answer = await settings.askPolicy!({} as never);
    expect(answer).toMatchObject({ reply: "reject" });
    expect(JSON.stringify(answer)).toContain("--permission-mode dontAsk");
    expect(runSettings(ctxOf()).askPolicy).toBeUndefined();
  });

  test("Claude Code's --tools, --system-prompt-file, --append-system-prompt and --fallback-model", () => {
    writeFileSync(join(project, "system.txt"), "You are terse.");
    const settings = runSettings(ctxOf("--tools", "Bash,Read", "--system-prompt-file", "system.txt", "--append-system-prompt", "Say bye.", "--fallback-model", "claude-haiku-4-5"));
    expect(settings.offeredOnly).toEqual(["bash", "read"]);
    expect(settings.systemPrompt).toEqual({ replace: "You are terse.", append: "Say bye." });
    expect(settings.fallbackModel).toBe("claude-haiku-4-5");
    const plain = runSettings(ctxOf("--tools", "default"));
    expect(plain.offeredOnly).toBeUndefined();
    expect(plain.systemPrompt).toBeUndefined();
  });
});

describe("what a run hears before it starts", () => {
  /** startupWarnings with PATH holding no bwrap: the sandbox this machine cannot give. */
  const warningsWithoutBwrap = (ctx: ReturnType<typeof ctxOf>) => {
    const path = process.env.PATH;
    process.env.PATH = join(dir.path, "no-bin");
    try {
      const warnings: string[] = [];
      startupWarnings(ctx, (line) => warnings.push(line));
      return warnings;
    } finally {
      process.env.PATH = path;
    }
  };

  test("a configured sandbox this machine cannot give: on refuses bash, auto runs without it; off says nothing", () => {
    userConfig({ sandbox: "on" });
    const on = warningsWithoutBwrap(ctxOf());
    expect(on).toHaveLength(1);
    expect(on[0]).toStartWith("the kernel sandbox is unavailable (");
    expect(on[0]).toContain("): bash commands will not run. ");
    userConfig({ sandbox: "auto" });
    expect(warningsWithoutBwrap(ctxOf())[0]).toContain("): bash commands run without it. ");
    userConfig({ sandbox: "off" });
    expect(warningsWithoutBwrap(ctxOf())).toEqual([]);
  });

  test("the config's own warnings come first", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.json"), "{ not json");
    userConfig({ sandbox: "off" });
    const warnings: string[] = [];
    startupWarnings(ctxOf("--trust"), (line) => warnings.push(line));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toContain(join(project, ".claude", "settings.json"));
  });
});

describe("agents", () => {
  const agents = JSON.stringify({ reviewer: { description: "Reviews code", prompt: "Review it.", model: "claude-haiku-4-5", maxTurns: 4 } });

  test("without a choice the session runs as build, and no other agent's model or turns apply", () => {
    const settings = runSettings(ctxOf("--agents", agents));
    expect(settings.agents?.name).toBe("build");
    expect(settings.agents?.list.map((a) => a.name)).toContain("reviewer");
    expect(settings.model).toBe("claude-sonnet-5-5");
    expect(settings.maxTurns).toBe(100);
  });

  test("the chosen agent's model and turn limit apply unless a flag gave them", () => {
    const chosen = runSettings(ctxOf("--agents", agents, "--agent", "reviewer"));
    expect(chosen.agents?.name).toBe("reviewer");
    expect(chosen.model).toBe("claude-haiku-4-5");
    expect(chosen.maxTurns).toBe(4);
    const flagged = runSettings(ctxOf("--agents", agents, "--agent", "reviewer", "-m", "claude-opus-4-5", "--max-turns", "9"));
    expect(flagged.model).toBe("claude-opus-4-5");
    expect(flagged.maxTurns).toBe(9);
  });

  test("plan mode runs as the plan agent", () => {
    expect(runSettings(ctxOf("--permission-mode", "plan")).agents?.name).toBe("plan");
  });

  test("an unknown agent is a usage error listing the primary agents", () => {
    expect(() => runSettings(ctxOf("--agent", "nobody"))).toThrow(UsageError);
    expect(() => runSettings(ctxOf("--agent", "nobody"))).toThrow(/^no agent "nobody" to run as: choose one of .*build.*plan.*, or a subagent by its name$/);
  });

  test("an agent file that does not load is one warning at start, and the run goes on", () => {
    mkdirSync(join(project, ".rein", "agents"), { recursive: true });
    writeFileSync(join(project, ".rein", "agents", "broken.md"), "---\nname: [unclosed\n---\nbody\n");
    const warnings: string[] = [];
    const settings = runSettings(ctxOf("--trust"), { warn: (line) => warnings.push(line) });
    expect(settings.agents?.list.some((a) => a.name === "broken")).toBe(false);
    expect(warnings.some((w) => w.includes("broken.md"))).toBe(true);
  });

  test("--agents come before the config's OpenCode agents in the places searched", () => {
    const places = agentPlaces(ctxOf("--agents", agents));
    expect(places.inline?.[0]).toMatchObject({ id: "reviewer", path: "--agents (reviewer)" });
    expect(places).toMatchObject({ cwd: project, projectRoot: project, home: env.HOME, trusted: false });
    expect(agentPlaces(ctxOf()).inline).toBeUndefined();
  });
});

describe("MCP servers from --mcp-config", () => {
  const configured = () => {
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { files: { command: "files-server" }, db: { command: "db-server" } } }));
  };
  const names = (ctx: ReturnType<typeof ctxOf>) => mcpFor(ctx).servers.map((s) => [s.name, s.source]);

  test("inline JSON and a file add servers; one with a configured name replaces it", () => {
    configured();
    writeFileSync(join(project, "more.json"), JSON.stringify({ mcpServers: { extra: { command: "extra-server" } } }));
    const ctx = ctxOf("--trust", "--mcp-config", '{"mcpServers": {"db": {"command": "other-db"}}}', "--mcp-config", "more.json");
    const servers = mcpFor(ctx).servers;
    expect(servers.map((s) => s.name).sort()).toEqual(["db", "extra", "files"]);
    const db = servers.find((s) => s.name === "db")!;
    expect(db.source).toBe("--mcp-config");
    expect(JSON.stringify(db)).toContain("other-db");
  });

  test("--strict-mcp-config keeps only --mcp-config's servers", () => {
    configured();
    expect(names(ctxOf("--trust"))).toHaveLength(2);
    expect(names(ctxOf("--trust", "--strict-mcp-config", "--mcp-config", '{"mcpServers": {"only": {"command": "x"}}}'))).toEqual([["only", "--mcp-config"]]);
    expect(names(ctxOf("--trust", "--strict-mcp-config"))).toEqual([]);
  });

  test("a bad entry is kept with its problem, so the run can say it", () => {
    const servers = mcpFor(ctxOf("--mcp-config", '{"mcpServers": {"bad": {"type": "carrier-pigeon"}}}')).servers;
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ name: "bad", source: "--mcp-config" });
    expect(servers[0]).toHaveProperty("problem");
  });

  test("a missing file and bad JSON are usage errors naming the flag", () => {
    expect(() => mcpFor(ctxOf("--mcp-config", "absent.json"))).toThrow("--mcp-config absent.json: cannot read the file (ENOENT)");
    expect(() => mcpFor(ctxOf("--mcp-config", "{nope"))).toThrow(/^--mcp-config: not valid JSON/);
  });
});

describe("what an untrusted workspace leaves off", () => {
  test("project tools: user tools always, project tools only with trust, and a warning when some exist", () => {
    expect(toolDirs(ctxOf())).toEqual([{ dir: join(dir.path, "config", "tools"), source: "user" }]);
    expect(toolDirs(ctxOf("--trust")).map((d) => d.source)).toEqual(["user", "project"]);
    expect(untrustedToolsWarning(ctxOf())).toBeUndefined();
    mkdirSync(join(project, ".rein", "tools"), { recursive: true });
    expect(untrustedToolsWarning(ctxOf())).toBe(`project tools in ${join(project, ".rein", "tools")} were not loaded: this workspace is not trusted (run with --trust to load them)`);
    expect(untrustedToolsWarning(ctxOf("--trust"))).toBeUndefined();
  });

  test("the summary names what the workspace's files would turn on, and how", () => {
    expect(untrustedSummary(ctxOf())).toBeUndefined();
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { db: { command: "db-server" } } }));
    const line = untrustedSummary(ctxOf());
    expect(line).toStartWith("this workspace is not trusted: its ");
    expect(line).toContain(".mcp.json");
    expect(line).toEndWith("run with --trust to turn them on (the terminal asks once and remembers)");
    expect(untrustedSummary(ctxOf("--trust"))).toBeUndefined();
  });
});

describe("the environment of tools and servers", () => {
  test("provider keys are removed; env.passthrough keeps what it names", () => {
    env.OPENAI_API_KEY = "sk-openai-secret";
    env.MY_SETTING = "kept";
    const plain = serverEnv(ctxOf());
    expect(plain.ANTHROPIC_API_KEY).toBeUndefined();
    expect(plain.OPENAI_API_KEY).toBeUndefined();
    expect(Object.values(plain)).not.toContain("sk-ant-test-key");
    expect(plain.PATH).toBe(process.env.PATH!);
  });
});

describe("language servers", () => {
  test("none configured is nothing; a configured one gets its log folder and REIN_LSP_WAIT_MS", () => {
    expect(lspFor(ctxOf())).toEqual({});
    userConfig({ lsp: { fake: { command: "fake-lsp", extensionToLanguage: { ".x": "x" } } } });
    const lsp = lspFor(ctxOf()).lsp!;
    expect(lsp.configs.map((c) => c.name)).toEqual(["fake"]);
    expect(lsp.logDir).toBe(join(dir.path, "data", "lsp", "logs"));
    expect(lsp.waitMs).toBeUndefined();
    env.REIN_LSP_WAIT_MS = "750";
    expect(lspFor(ctxOf()).lsp?.waitMs).toBe(750);
    env.REIN_LSP_WAIT_MS = "soon";
    expect(lspFor(ctxOf()).lsp?.waitMs).toBeUndefined();
  });
});

describe("the store", () => {
  test("opened where the paths say, its folder made", () => {
    const store = openStore(ctxOf(), () => {});
    store.close();
    expect(existsSync(join(dir.path, "data", "rein.db"))).toBe(true);
  });

  test("a damaged database is moved aside with a warning, and a fresh one opened", () => {
    mkdirSync(join(dir.path, "data"), { recursive: true });
    writeFileSync(join(dir.path, "data", "rein.db"), "this is not a database, just text long enough to be read as one ".repeat(100));
    const warnings: string[] = [];
    const store = openStore(ctxOf(), (line) => warnings.push(line));
    store.close();
    expect(warnings).toHaveLength(1);
    const aside = readdirSync(join(dir.path, "data")).filter((name) => name.startsWith("rein.db") && name !== "rein.db" && !name.endsWith("-wal") && !name.endsWith("-shm"));
    expect(aside.length).toBe(1);
    expect(warnings[0]).toContain(aside[0]!);
  });

  test("a file where the database's folder should be is one fault line, not an internal error", () => {
    mkdirSync(join(dir.path, "data"), { recursive: true });
    writeFileSync(join(dir.path, "data", "blocker"), "a file where a folder should be");
    for (const [dataDir, said] of [
      [join(dir.path, "data", "blocker", "rein"), "a part of the path is a file, not a folder (ENOTDIR)"],
      [join(dir.path, "data", "blocker"), "a file is where the folder should be (EEXIST)"],
    ] as const) {
      env.REIN_DATA_DIR = dataDir;
      const ctx = ctxOf();
      let thrown: unknown;
      try {
        openStore(ctx, () => {});
      } catch (error) {
        thrown = error;
      }
      const paths = { db: ctx.paths.db, dataDir: ctx.paths.dataDir, configDir: ctx.paths.configDir };
      expect(knownFault(thrown, paths)).toBe(`cannot create or open ${dataDir}: ${said}; move that file out of the way, or set REIN_DATA_DIR to a writable folder`);
    }
  });
});

test("explain evaluates with the run's rules, folders and mode", () => {
  userConfig({ permissions: { allow: ["bash(git *)"] }, permissionMode: "accept-edits" });
  const explain = runSettingsForExplain(ctxOf("--add-dir", dir.path));
  expect(explain).toMatchObject({ cwd: project, projectRoot: project, home: env.HOME, mode: "accept-edits" });
  expect(explain.directories).toContain(dir.path);
  expect(JSON.stringify(explain.rules)).toContain("git *");
});
