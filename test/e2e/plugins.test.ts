// rein plugin through the compiled binary: install the fixture plugin (Claude Code's layout) from a
// folder and from a marketplace in a local git repository, list, disable, enable, remove.
import { expect, test } from "bun:test";
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { bash, lastUserText, resultText, ROOT, text, toolResultsOf, world } from "./harness.ts";

const KIT = join(ROOT, "test/fixtures/plugins/kit");

function git(dir: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd: dir, stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
}

test.concurrent("install asks first: headless it needs --yes; with it the plugin is copied, pinned, enabled, and listed with what it brings", async () => {
  await using w = await world();
  const refused = await w.run(["plugin", "install", KIT]);
  expect(refused.code).toBe(2);
  expect(refused.stdout).toContain(`plugin kit 1.0.0 from ${KIT}\nit will run:\n  hook UserPromptSubmit: echo "kit hook: root=$CLAUDE_PLUGIN_ROOT data=$REIN_PLUGIN_DATA"\n  MCP server where: bun \${CLAUDE_PLUGIN_ROOT}/servers/where.ts\n  bin/ on the bash tool's PATH: kit-hello\nit also brings: 2 command files, 1 skill folder, 1 agent file\n`);
  expect(refused.stderr).toBe("rein: nothing was installed: run again with --yes to install kit (it runs what is listed above)\n");

  const installed = await w.run(["plugin", "install", KIT, "--yes"]);
  expect(installed.code).toBe(0);
  const copy = join(w.dataDir, "plugins/cache/kit/1.0.0");
  expect(installed.stdout).toEndWith(`installed kit 1.0.0 in ${copy}; enabled in ${join(w.configDir, "config.json")}\n`);
  expect(JSON.parse(await readFile(join(w.configDir, "config.json"), "utf8"))).toEqual({ enabledPlugins: { kit: true } });

  const list = await w.run(["plugin", "list"]);
  expect(list.code).toBe(0);
  expect(list.stdout).toBe(
    [
      `kit 1.0.0  ${copy}`,
      `  from: ${KIT}`,
      "  commands: /kit:hello, /kit:review",
      "  skills: kit:greet",
      "  agents: kit:reviewer",
      `  hooks: UserPromptSubmit command: echo "kit hook: root=$CLAUDE_PLUGIN_ROOT data=$REIN_PLUGIN_DATA"`,
      "  MCP servers: plugin:kit:where",
      `  bin: ${copy}/bin (on the bash tool's PATH)`,
      "notes:",
      `  agent file ${copy}/agents/reviewer.md: permissionMode is ignored in a plugin's agent`,
      "",
    ].join("\n"),
  );

  expect((await w.run(["plugin", "disable", "kit"])).stdout).toBe(`disabled kit in ${join(w.configDir, "config.json")}\n`);
  const off = await w.run(["plugin", "list"]);
  expect(off.stdout).toBe(`installed, not enabled here:\n  kit 1.0.0  from ${KIT} (rein plugin enable kit)\n`);
  expect((await w.run(["skills", "list"])).stdout).not.toContain("kit:");

  expect((await w.run(["plugin", "enable", "kit"])).code).toBe(0);
  expect((await w.run(["skills", "list"])).stdout).toContain(`  kit:greet  plugin kit ${copy}/skills/greet/SKILL.md`);

  const removed = await w.run(["plugin", "remove", "kit"]);
  expect(removed.code).toBe(0);
  expect((await w.run(["plugin", "list"])).stdout).toBe("no plugins (rein plugin install PATH | GIT_URL | NAME@MARKETPLACE)\n");
  expect(JSON.parse(await readFile(join(w.configDir, "config.json"), "utf8"))).toEqual({});
}, 30_000);

test.concurrent("a marketplace in a local git repository: add, list, install NAME@MARKETPLACE; an unreachable source is one line", async () => {
  await using w = await world();
  const market = join(w.root, "market");
  await cp(KIT, join(market, "plugins/kit"), { recursive: true });
  await Bun.write(join(market, ".claude-plugin/marketplace.json"), JSON.stringify({
    name: "team-tools",
    owner: { name: "The team" },
    plugins: [
      { name: "kit", source: "./plugins/kit", description: "One of each component" },
      { name: "gone", source: { source: "url", url: `file://${join(w.root, "no-such-repo")}` } },
    ],
  }));
  git(market, "init", "-q");
  git(market, "add", "-A");
  git(market, "commit", "-q", "-m", "market");

  const added = await w.run(["plugin", "marketplace", "add", `file://${market}`]);
  expect(added.stdout).toBe("added marketplace team-tools (2 plugins: kit, gone); install one with rein plugin install NAME@team-tools\n");
  const listed = await w.run(["plugin", "marketplace", "list"]);
  expect(listed.stdout).toBe(`team-tools  file://${market}\n  plugins: kit (One of each component), gone\n`);

  const gone = await w.run(["plugin", "install", "gone@team-tools", "--yes"]);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toStartWith(`rein: cannot clone file://${join(w.root, "no-such-repo")}: `);
  expect(gone.stderr.trimEnd().split("\n")).toHaveLength(1);

  const kit = await w.run(["plugin", "install", "kit@team-tools", "--yes"]);
  expect(kit.code).toBe(0);
  expect(kit.stdout).toEndWith(`installed kit@team-tools 1.0.0 in ${join(w.dataDir, "plugins/cache/kit-team-tools/1.0.0")}; enabled in ${join(w.configDir, "config.json")}\n`);
  expect((await w.run(["plugin", "update"])).stdout).toBe("kit@team-tools is up to date (1.0.0)\n");
}, 30_000);

test.concurrent("rein plugin import claude offers what Claude Code installed and imports it with --yes", async () => {
  await using w = await world();
  const kitPath = join(w.home, ".claude/plugins/cache/team/kit/1.0.0");
  await cp(KIT, kitPath, { recursive: true });
  await Bun.write(join(w.home, ".claude/plugins/installed_plugins.json"), JSON.stringify({ version: 2, plugins: { "kit@team": [{ scope: "user", installPath: kitPath, version: "1.0.0" }] } }));
  await Bun.write(join(w.home, ".claude/settings.json"), JSON.stringify({ enabledPlugins: { "kit@team": true } }));

  const offered = await w.run(["plugin", "import", "claude"]);
  expect(offered.code).toBe(2);
  expect(offered.stdout).toStartWith(`plugin kit@team 1.0.0 from ${kitPath}\nit will run:\n`);
  expect(offered.stdout).toEndWith("enabled in Claude Code: yes (enabled here too)\n");

  const imported = await w.run(["plugin", "import", "claude", "--yes"]);
  expect(imported.code).toBe(0);
  expect(imported.stdout).toEndWith("imported kit@team 1.0.0\n");
  expect((await w.run(["plugin", "list"])).stdout).toStartWith(`kit@team 1.0.0  ${join(w.dataDir, "plugins/cache/kit-team/1.0.0")}\n  from: ${kitPath}\n  commands: /kit:hello, /kit:review\n`);
}, 30_000);

test.concurrent("each component of an installed plugin works in print mode: command, skill, hook, MCP server, bin/, agent; disabled, none of them is there", async () => {
  await using w = await world();
  expect((await w.run(["plugin", "install", KIT, "--yes"])).code).toBe(0);
  const copy = join(w.dataDir, "plugins/cache/kit/1.0.0");
  const data = join(w.dataDir, "plugins/data/kit");
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_skill", name: "skill", input: { name: "kit:greet", args: "Ada" } }] },
    // bin/ before the MCP server: what a server returns taints the session, after which a program the
    // analysis cannot show stays offline asks (docs/permissions.md).
    { reply: [bash("kit-hello there", "toolu_bin")] },
    { reply: [{ type: "tool_use", id: "toolu_mcp", name: "mcp__plugin_kit_where__where", input: {} }] },
    { reply: [text("All used.")] },
  );
  const used = await w.run(["-p", "/kit:hello world", "--allow", "mcp__plugin_kit_where", "--allow", "bash(kit-hello *)"]);
  expect(used.stderr).toContain("UserPromptSubmit hook (hooks.json: echo");
  expect(used.code).toBe(0);
  expect(used.stdout).toBe("All used.\n");
  const [first, afterSkill, afterBin, afterMcp] = w.fake.requests;
  // The command, expanded with its plugin's folder; the hook's context beside it, with the plugin's variables.
  expect(lastUserText(first)).toContain(`Say hello to world. The kit lives in ${copy}.`);
  expect(JSON.stringify(first!.body.messages)).toContain(`kit hook: root=${copy} data=${data}`);
  expect(JSON.stringify(first!.body.system)).toContain("- kit:greet: Greet people the kit's way.");
  expect(resultText(toolResultsOf(afterSkill)[0])).toContain(`Greet Ada warmly; the kit's data is kept in ${data}.`);
  expect(resultText(toolResultsOf(afterMcp).at(-1))).toBe(`root=${copy} data=${data}`);
  expect(resultText(toolResultsOf(afterBin).at(-1))).toContain("hello from the kit bin: there");

  // Its agent: the command that names `reviewer` hands the task to kit:reviewer, which runs as a subagent.
  w.fake.reset();
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_task", name: "task", input: { description: "review src", prompt: "Review src and report the problems.", subagent_type: "kit:reviewer" } }] },
    { reply: [text("No problems.")] },
    { reply: [text("Reviewed: no problems.")] },
  );
  const reviewed = await w.run(["-p", "/kit:review src"]);
  expect(reviewed.code).toBe(0);
  expect(reviewed.stdout).toBe("Reviewed: no problems.\n");
  expect(lastUserText(w.fake.requests[0])).toContain('call the task tool with subagent_type "kit:reviewer"');
  expect(JSON.stringify(w.fake.requests[1]!.body.system)).toContain("You review changes. Report problems, one per line.");
  expect(resultText(toolResultsOf(w.fake.requests[2]).at(-1))).toContain("No problems.");

  expect((await w.run(["plugin", "disable", "kit"])).code).toBe(0);
  w.fake.reset();
  const off = await w.run(["-p", "/kit:hello world"]);
  expect(off.code).toBe(2);
  expect(off.stderr).toContain("unknown command /kit:hello");
  expect(w.fake.requests).toHaveLength(0);
  expect((await w.run(["plugin", "remove", "kit"])).code).toBe(0);
  expect((await w.run(["plugin", "list"])).stdout).toBe("no plugins (rein plugin install PATH | GIT_URL | NAME@MARKETPLACE)\n");
}, 60_000);

test.concurrent("a plugin the project's config asks for loads only with trust; the user's false keeps it off", async () => {
  await using w = await world();
  expect((await w.run(["plugin", "install", KIT, "--yes"])).code).toBe(0);
  await Bun.write(join(w.configDir, "config.json"), "{}");
  await Bun.write(join(w.cwd, ".rein/config.json"), JSON.stringify({ enabledPlugins: { kit: true } }));

  const untrusted = await w.run(["skills", "list"]);
  expect(untrusted.stdout).not.toContain("kit:greet");
  expect(untrusted.stdout).toContain("  the project config asks for plugin kit: it loads only in a trusted workspace (run with --trust)");
  expect((await w.run(["skills", "list", "--trust"])).stdout).toContain("  kit:greet  plugin kit ");

  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ enabledPlugins: { kit: false } }));
  expect((await w.run(["skills", "list", "--trust"])).stdout).not.toContain("kit:greet");
}, 30_000);

test.concurrent("a plugin's bin/ comes after the system's PATH: its own `ls` does not replace the real one", async () => {
  await using w = await world();
  const plugin = join(w.root, "shadow");
  await Bun.write(join(plugin, "bin/ls"), "#!/bin/sh\necho SHADOWED\n");
  Bun.spawnSync(["chmod", "+x", join(plugin, "bin/ls")]);
  expect((await w.run(["plugin", "install", plugin, "--yes"])).code).toBe(0);
  w.fake.script({ reply: [bash("ls", "toolu_ls")] }, { reply: [text("listed")] });
  const r = await w.run(["-p", "list the folder"]);
  expect(r.code).toBe(0);
  expect(resultText(toolResultsOf(w.fake.requests[1]).at(-1))).not.toContain("SHADOWED");
}, 30_000);
