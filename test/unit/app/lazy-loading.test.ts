// What is not configured is not loaded (docs/architecture.md): rein from source under a preload that
// records every module of src/ as it loads, against the fake model. A one-shot with nothing
// configured loads none of the hook engine, MCP's session, the language servers' session, the
// checkpoints, memory.auto or the team of background workers; configuring each (and a turn that writes a file) loads it, so the trace
// sees what the seams load late.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const LATE = [
  "src/session/hook-runtime.ts",
  "src/hooks/engine.ts",
  "src/hooks/points.ts",
  "src/mcp/session.ts",
  "src/mcp/resources.ts",
  "src/lsp/session.ts",
  "src/lsp/probe.ts",
  "src/checkpoint/turn.ts",
  "src/checkpoint/shadow.ts",
  "src/memory/auto.ts",
  "src/plugins/install.ts",
  "src/plugins/marketplaces.ts",
  "src/session/team.ts",
  "src/session/worktree.ts",
  "src/session/tmux-worker.ts",
  // What other tools' files and other output formats or providers need (issue 37 item 1).
  "src/config/claude-settings.ts",
  "src/config/opencode-config.ts",
  "src/cli/claude-stream.ts",
  "src/hooks/dialect.ts",
  "src/cli/help.ts",
  "src/llm/openai-chat.ts",
  "src/session/skills.ts",
  "src/skills/slash-commands.ts",
  "src/skills/catalog.ts",
  "src/agents/sources.ts",
  "src/agents/parse.ts",
  // A task's run, compaction, the skill tool's text and the terminal's colours (issue 37 item 1).
  "src/session/subagent-runs.ts",
  "src/session/compaction.ts",
  "src/session/manual-compaction.ts",
  "src/skills/skill-tool.ts",
  "node_modules/chalk/source/index.js",
  // A whole config file's schema, built with the first config file read (issue 37 item 1).
  "src/config/file-schema.ts",
  // An MCP entry's schema (OAuth's with it), built with the first server some source names.
  "src/mcp/config.ts",
  "src/mcp/oauth-config.ts",
];

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});

/** The modules of src/ (relative paths) that `rein -p PROMPT` loaded with `config` as the user config (none: no config file). */
async function loaded(config: Record<string, unknown> | undefined, prompt = "say ok", files: Record<string, string> = {}, args: string[] = []): Promise<Set<string>> {
  const home = mkdtempSync(join(tmpdir(), "rein-lazy-"));
  try {
    const work = join(home, "work");
    mkdirSync(join(work, ".git"), { recursive: true });
    mkdirSync(join(home, "config"), { recursive: true });
    if (config) writeFileSync(join(home, "config", "config.json"), JSON.stringify(config));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(work, path, ".."), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    const trace = join(home, "trace.txt");
    writeFileSync(trace, "");
    const proc = Bun.spawn([process.execPath, "--preload", join(ROOT, "test/support/trace-modules.ts"), join(ROOT, "src/main.ts"), "-p", prompt, ...args], {
      cwd: work,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, REIN_CONFIG_DIR: join(home, "config"), REIN_DATA_DIR: join(home, "data"), ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url, REIN_TRACE_MODULES: trace, REIN_MCP_WAIT_MS: "200" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, out, err: code === 0 ? "" : err }).toMatchObject({ code: 0 });
    return new Set(readFileSync(trace, "utf8").split("\n").filter(Boolean).map((path) => path.slice(ROOT.length + 1)));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

test("a one-shot with nothing configured loads none of the parts that wait for their configuration", async () => {
  fake.script({ reply: [{ type: "text", text: "ok" }] });
  const modules = await loaded(undefined);
  expect(modules.has("src/session/session-core.ts")).toBe(true); // the trace sees the run's own modules
  expect(LATE.filter((m) => modules.has(m))).toEqual([]);
}, 60_000);

test("a hook, an MCP server and a language server configured, and a turn that writes a file, load theirs", async () => {
  fake.script({ reply: [{ type: "tool_use", name: "write", input: { path: "a.txt", content: "hi\n" } }] }, { reply: [{ type: "text", text: "done" }] });
  const modules = await loaded(
    {
      permissions: { allow: ["edit"] },
      hooks: { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "true" }] }] },
      mcpServers: { none: { command: "no-such-mcp-server" } },
      lsp: { ts: { command: "no-such-language-server", extensionToLanguage: { ".ts": "typescript" } } },
    },
    "write a.txt",
  );
  for (const m of ["src/session/hook-runtime.ts", "src/hooks/engine.ts", "src/mcp/session.ts", "src/lsp/session.ts", "src/checkpoint/turn.ts", "src/config/file-schema.ts", "src/mcp/config.ts"]) expect(modules.has(m)).toBe(true);
}, 60_000);

test("a hook configured for a point the run never reaches leaves the hook engine unloaded (it loads at the first point one listens at)", async () => {
  fake.script({ reply: [{ type: "text", text: "ok" }] });
  const modules = await loaded({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } });
  expect(modules.has("src/session/lazy-hooks.ts")).toBe(true); // the session has hooks
  expect(["src/session/hook-runtime.ts", "src/hooks/engine.ts", "src/hooks/points.ts"].filter((m) => modules.has(m))).toEqual([]);
}, 60_000);

test("a task call loads the subagent's run, and only then", async () => {
  fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_task", input: { description: "look", prompt: "say hi", subagent_type: "explore" } }] },
    { reply: [{ type: "text", text: "hi" }] },
    { reply: [{ type: "text", text: "the subagent said hi" }] },
  );
  const modules = await loaded({}, "ask a subagent");
  expect(modules.has("src/session/subagent-runs.ts")).toBe(true);
  expect(modules.has("src/session/team.ts")).toBe(false); // a foreground task starts no team
}, 60_000);

test("Claude Code's and OpenCode's files and a skills folder, when there, and a Claude output format load their readers", async () => {
  fake.script({ reply: [{ type: "text", text: "ok" }] });
  const files = { ".claude/settings.json": JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }), "opencode.json": JSON.stringify({ permission: { bash: "ask" } }), ".claude/skills/lint/SKILL.md": "---\nname: lint\ndescription: Lints\n---\nRun the linter.\n" };
  const modules = await loaded({}, "say ok", files, ["--output-format", "claude-json"]);
  for (const m of ["src/config/claude-settings.ts", "src/config/opencode-config.ts", "src/cli/claude-stream.ts", "src/session/skills.ts", "src/skills/slash-commands.ts"]) expect(modules.has(m)).toBe(true);
}, 60_000);
