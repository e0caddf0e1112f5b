// Real plugins and skills, copied from Anthropic's public repositories (test/fixtures/real/SOURCES),
// installed through the compiled binary from their own marketplaces and read as Claude Code reads
// them: a `strict: false` entry's `skills` list, agents with multi-line `<example>` descriptions and
// `tools: ["Read", "Grep"]`, a hooks.json with keys rein does not read, a language server entry.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, text, world, type World } from "./harness.ts";

const REAL = join(ROOT, "test/fixtures/real");

async function install(w: World, market: string, ...names: string[]): Promise<void> {
  const added = await w.run(["plugin", "marketplace", "add", join(REAL, market)]);
  expect(added.code).toBe(0);
  const marketName = /added marketplace (\S+)/.exec(added.stdout)![1]!;
  for (const name of names) {
    const installed = await w.run(["plugin", "install", `${name}@${marketName}`, "--yes"]);
    expect(installed.stderr).toBe("");
    expect(installed.code).toBe(0);
  }
}

test.concurrent("anthropics/skills: each strict: false entry brings the skills its list names, not the whole skills/ folder", async () => {
  await using w = await world();
  await install(w, "skills-market", "document-skills", "example-skills");
  const listed = await w.run(["skills", "list", "--json"]);
  const names = (JSON.parse(listed.stdout).skills as { name: string }[]).map((s) => s.name).sort();
  expect(names).toEqual([
    "document-skills:pdf",
    "example-skills:brand-guidelines",
    "example-skills:internal-comms",
    "example-skills:theme-factory",
    "example-skills:web-artifacts-builder",
    "example-skills:webapp-testing",
  ]);
}, 30_000);

test.concurrent("anthropics/claude-code agents with <example> descriptions load whole, tools lists give the subagent its tools, and start-up says nothing about what loaded", async () => {
  await using w = await world();
  await install(w, "claude-code", "pr-review-toolkit", "plugin-dev", "hookify", "security-guidance");
  const list = await w.run(["plugin", "list", "--json"]);
  const listing = JSON.parse(list.stdout) as { plugins: { id: string; agents: string[]; hooks: string[] }[]; problems: string[]; notes: string[] };
  const agents = listing.plugins.flatMap((p) => p.agents).sort();
  expect(agents).toEqual(["hookify:conversation-analyzer", "plugin-dev:agent-creator", "pr-review-toolkit:code-simplifier", "pr-review-toolkit:pr-test-analyzer"]);
  expect(listing.problems).toEqual([]);
  // asyncRewake and rewakeMessage are read; rewakeSummary is left out, handler by handler, the groups kept
  const security = listing.plugins.find((p) => p.id === "security-guidance@claude-code-plugins")!;
  expect(security.hooks.filter((h) => h.startsWith("PostToolUse(Bash)"))).toHaveLength(2);
  expect(security.hooks.some((h) => h.startsWith("Stop "))).toBe(true);
  expect(listing.notes).toContainEqual(expect.stringMatching(/hooks\.json: "hooks\.Stop\[0\]\.hooks\[0\]": key "rewakeSummary" is not one rein reads; ignored$/));
  expect(listing.notes).toContainEqual(expect.stringMatching(/code-simplifier\.md: the front matter is not strict YAML .*read leniently/));

  w.fake.script(
    { reply: [{ type: "tool_use", name: "load_tools", id: "toolu_real_load", input: { names: ["task"] } }] },
    { reply: [{ type: "tool_use", name: "task", id: "toolu_real_task", input: { description: "analyze", prompt: "look at the transcript", subagent_type: "hookify:conversation-analyzer" } }] },
    { reply: [text("nothing to prevent")] },
    { reply: [text("done")] },
  );
  // Hooks of security-guidance would run python scripts not copied here: leave the plugin off for the run.
  await w.run(["plugin", "disable", "security-guidance@claude-code-plugins"]);
  const run = await w.run(["-p", "analyze", "--trust"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("› task hookify:conversation-analyzer · analyze\n");
  const task = w.fake.requests[1]!.body.tools.find((t: { name: string }) => t.name === "task");
  expect(task.description).toContain("- pr-review-toolkit:code-simplifier: Use this agent when code has been written or modified");
  expect(task.description).toContain("<example>\nContext: The assistant has just implemented a new feature");
  const child = w.fake.requests[2]!.body;
  expect(child.tools.map((t: { name: string }) => t.name).sort()).toEqual(["grep", "read"]);
}, 30_000);

test.concurrent("an LSP plugin from claude-plugins-official says at install which language server it runs and when", async () => {
  await using w = await world();
  await w.run(["plugin", "marketplace", "add", join(REAL, "claude-plugins-official")]);
  const shown = await w.run(["plugin", "install", "gopls-lsp@claude-plugins-official"]);
  expect(shown.stdout).toContain("it will run:\n  language server gopls: gopls (started at the first .go file)\n");
  expect(shown.code).toBe(2);
}, 30_000);

test.concurrent("an MCP tool's 2,781-character description (sequential-thinking's) is sent whole", async () => {
  await using w = await world();
  const server = join(REAL, "sequential-thinking/server.ts");
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ mcpServers: { thinking: { command: process.execPath, args: [server] } } }));
  w.fake.script({ reply: [text("ok")] });
  const run = await w.run(["-p", "think"], { env: { REIN_MCP_WAIT_MS: "25000" } });
  expect(run.code).toBe(0);
  const tool = w.fake.requests[0]!.body.tools.find((t: { name: string }) => t.name === "mcp__thinking__sequentialthinking");
  expect(tool.description).toBe(await Bun.file(join(REAL, "sequential-thinking/description.txt")).text());
  expect(tool.description).toHaveLength(2781);
  const listed = await w.run(["mcp", "get", "thinking"], { env: { REIN_MCP_WAIT_MS: "25000" } });
  expect(listed.stdout).not.toContain("note:");
}, 30_000);

function git(dir: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd: dir, stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
}

test.concurrent("commit-commands' !`git ...` lines run before the prompt is sent and their output takes their place; a command the rules would ask for is refused in one line", async () => {
  await using w = await world();
  await install(w, "claude-code", "commit-commands");
  await Bun.write(w.path("a.txt"), "one\n");
  git(w.cwd, "init", "-q");
  git(w.cwd, "add", "-A");
  git(w.cwd, "commit", "-q", "-m", "first commit");
  await Bun.write(w.path("a.txt"), "two\n");
  w.fake.script({ reply: [text("committed")] });
  const run = await w.run(["-p", "/commit-commands:commit"]);
  expect(run.code).toBe(0);
  const sent = JSON.stringify(w.fake.requests[0]!.body.messages[0]);
  expect(sent).toContain("- Current branch: main");
  expect(sent).toContain("- Recent commits: ");
  expect(sent).toContain("first commit");
  expect(sent).toContain("-one\\n+two");
  expect(sent).not.toContain("!`git");

  await Bun.write(w.path(".claude/commands/stamp.md"), "---\ndescription: stamps\n---\nStamp: !`touch stamped`\n");
  const refused = await w.run(["-p", "/stamp", "--trust"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("rein: /stamp: its shell command `touch stamped` was not run (");
  expect(refused.stderr.trim().split("\n")).toHaveLength(1);
  expect(await Bun.file(w.path("stamped")).exists()).toBe(false);
  expect(w.fake.requests).toHaveLength(1);
}, 30_000);
