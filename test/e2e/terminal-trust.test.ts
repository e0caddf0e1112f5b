// The trust question where it matters (tmux, the compiled binary): a project with only Claude Code's
// .claude/ folder is asked about, naming what trusting turns on; the answer is remembered. Print mode
// says in one stderr line what it left off.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";
import { world } from "./harness.ts";

const suite = terminalSuite("terminal-trust");

function put(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function claudeProject(work: string): void {
  const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }, { type: "command", command: "true" }] }] };
  put(join(work, ".claude", "settings.json"), JSON.stringify({ hooks, permissions: { allow: ["Bash(npm test:*)"] } }));
  put(join(work, ".claude", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploys\n---\nDeploy.\n");
  put(join(work, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews\n---\nReview.\n");
  put(join(work, ".mcp.json"), JSON.stringify({ mcpServers: { docs: { command: "true" } } }));
}

describe.skipIf(!hasTmux)("the trust question", () => {
  test("a .claude/-only project is asked about, with what trust turns on; y is remembered", async () => {
    const name = "claude-only";
    claudeProject(join(suite.dir.path, name));
    const { pane, work, data } = await suite.start({ name, ready: "Trust" });
    const screen = await pane.until("[y] yes, trust it");
    expect(screen.replace(/\s*\n\s*/g, " ")).toContain(`Trust ${work}? From .claude, .mcp.json it brings 2 hooks, 1 MCP server, 1 skill, 1 agent and 1 allow rule; trusting turns them on`);
    pane.keys("y");
    await pane.until("Ctrl-D exits");
    expect((await Bun.file(join(data, "trust.json")).json()).trusted).toEqual([work]);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);
});

test.concurrent("print mode says in one line what an untrusted workspace's configuration left off, and how to turn it on", async () => {
  await using w = await world();
  claudeProject(w.cwd);
  w.fake.script({ reply: [{ type: "text", text: "ok" }] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(0);
  const lines = r.stderr.split("\n").filter((l) => l.includes("left off"));
  expect(lines).toEqual([
    "rein: this workspace is not trusted: its 2 hooks, 1 MCP server, 1 skill, 1 agent and 1 allow rule (from .claude, .mcp.json) were left off; run with --trust to turn them on (the terminal asks once and remembers)",
  ]);
  const trusted = await w.run(["-p", "hi", "--trust"]);
  expect(trusted.stderr).not.toContain("left off");
});
