// MCP in the interactive terminal (tmux, the compiled binary, the fake model): /mcp lists the
// servers, /help their prompts, and `/mcp__SERVER__PROMPT args` sends the prompt's messages.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-mcp");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };

describe.skipIf(!hasTmux)("MCP in the terminal", () => {
  test("/model without a name lists the models this configuration reaches, the one in use marked", async () => {
    const { pane } = await suite.start({ name: "model-list" });
    pane.keys("/model", "Enter");
    const screen = await pane.until("anthropic:", 15_000);
    expect(screen).toMatch(/model: \S+ \(change it with \/model NAME\)/);
    expect(screen).toMatch(/\* claude-\S+/);
    expect(screen).toContain("claude-opus-5");
    // Other providers' models are named PROVIDER/MODEL once, as /model takes them.
    expect(screen).toMatch(/openai\/gpt-/);
    expect(screen).not.toMatch(/\b(\w+)\/\1\//);
    pane.keys("C-d");
  });

  test("/mcp shows the servers; /help lists their prompts; a prompt command sends its messages", async () => {
    const name = "mcp";
    const config = join(suite.dir.path, `${name}-config`);
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "config.json"), JSON.stringify({ mcpServers: { everything: { command: "node", args: [EVERYTHING, "stdio"] }, ghost: { command: "no-such-mcp-server-here" } } }));
    // The servers connect in the background; /mcp waits for them (the first turn's bound) before it answers.
    const { pane } = await suite.start({ name, env: { REIN_MCP_WAIT_MS: "25000" } });
    pane.keys("/mcp", "Enter");
    const screen = await pane.until(/ghost\s+stdio\s+failed/, 30_000);
    expect(screen).toMatch(/everything\s+stdio\s+connected\s+\d+ tools\s+4 prompts/);
    expect(screen).toContain("could not be started");
    pane.keys("/help", "Enter");
    expect(await pane.until("(MCP prompt)")).toMatch(/\/mcp__everything__args-prompt city \[state\]\s+A prompt with two arguments/);
    suite.fake.script({ reply: [{ type: "text", text: "Sunny in Oslo." }] });
    pane.keys("/mcp__everything__args-prompt Oslo", "Enter");
    await pane.until("Sunny in Oslo.");
    const body = suite.fake.requests.at(-1)!.body as Body;
    expect(body.messages.at(-1)!.content[0]!.text).toBe("What's weather in Oslo?");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 60_000);
});
