// Claude Code's extension files in the interactive terminal (tmux, the compiled binary, the fake
// model): a skill run shows as typed, rein's tool loading is no line of its own, a Claude Code
// agent file is a subagent (not in the Tab cycle; --agent still runs it), and started in the home
// folder, ~/.claude/agents is read once, with nothing said about an agent that loaded.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-extensions");
const { start } = suite;

function put(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const AGENT = "---\nname: reviewer\ndescription: Reviews a diff\ntools: [\"Read\", \"Grep\"]\ncolor: blue\n---\nYou review.\n";

describe.skipIf(!hasTmux)("Claude Code's formats in the terminal", () => {
  test("started in the home folder: /greet Bob shows as typed, load_tools is no line, the agent file is a subagent read once with no note", async () => {
    const name = "home";
    const home = join(suite.dir.path, name);
    put(join(home, ".claude/agents/reviewer.md"), AGENT);
    put(join(home, ".claude/skills/greet/SKILL.md"), "---\nname: greet\ndescription: Greets someone\n---\nSay hello to $ARGUMENTS warmly.\n");
    const { pane } = await start({ name, env: { HOME: home } });
    const opened = pane.screen();
    expect(opened).not.toContain("reviewer");
    expect(opened).not.toContain("color");

    suite.fake.script(
      { reply: [{ type: "tool_use", name: "load_tools", input: { names: ["webfetch"] } }] },
      { reply: [{ type: "text", text: "Hello, Bob!" }] },
    );
    pane.keys("/greet Bob", "Enter");
    const greeted = await pane.until("Hello, Bob!");
    expect(greeted).toMatch(/^› \/greet Bob$/m);
    expect(greeted).not.toContain("<skill");
    expect(greeted).not.toContain("load_tools");
    expect(JSON.stringify(suite.fake.requests[0]!.body.messages)).toContain("Say hello to Bob warmly.");
    // the subagent is offered to the model, and is not a primary agent for Tab
    expect(JSON.stringify(suite.fake.requests[0]!.body.tools)).toContain("reviewer");

    // Tab goes round the primary agents (build, plan, and any others) back to build, never to the subagent
    pane.keys("Tab");
    await pane.until("agent: plan");
    let back = "";
    for (let i = 0; i < 4 && !back.includes("agent: build"); i++) {
      pane.keys("Tab");
      back = await pane.until(/agent: \w+ · [^\n]*\n(?![\s\S]*agent: plan · )/);
    }
    expect(back).toContain("agent: build");
    expect(back).not.toContain("agent: reviewer");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("--agent runs a Claude Code agent file as the main agent", async () => {
    const name = "chosen";
    put(join(suite.dir.path, name, ".claude/agents/reviewer.md"), AGENT);
    const { pane } = await start({ name, args: "--agent reviewer --trust" });
    expect(pane.screen()).toMatch(/agent reviewer/);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);
});
