// Agents in the interactive terminal (tmux, the compiled binary, the fake model): Tab at an empty
// prompt runs the next primary agent, which the prompt, the status line and the next request show.
import { describe, expect, test } from "bun:test";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-agents");
const { start } = suite;

const systemOf = (i: number) => JSON.stringify(suite.fake.requests[i]!.body.system);

describe.skipIf(!hasTmux)("agents in the terminal", () => {
  test("Tab at an empty prompt cycles build -> plan -> build; the prompt, the status line and the request follow", async () => {
    const { pane } = await start({ name: "tab" });
    suite.fake.script({ reply: [{ type: "text", text: "Planned." }] }, { reply: [{ type: "text", text: "Built." }] });
    pane.keys("Tab");
    const switched = await pane.until("agent: plan");
    expect(switched).toContain("agent: plan · Plans without changing the project");
    expect(switched).toMatch(/^plan › $/m);
    pane.keys("make a plan", "Enter");
    const planned = await pane.until(/plan · claude-sonnet-5-5 · context/);
    expect(planned).toContain("Planned.");
    expect(systemOf(0)).toContain("You are in plan mode.");

    // Tab after text is not an agent switch: the line stays as typed.
    pane.keys("abc", "Tab");
    await pane.until(/^plan › abc$/m);
    pane.keys("C-u", "Tab");
    await pane.until("agent: build");
    pane.keys("now build it", "Enter");
    const built = await pane.until(/build · claude-sonnet-5-5 · context/);
    expect(built).toContain("Built.");
    expect(built).toMatch(/^› $/m);
    expect(systemOf(1)).not.toContain("You are in plan mode.");
    // The same session throughout: the second request carries the first exchange.
    expect(JSON.stringify(suite.fake.requests[1]!.body.messages)).toContain("make a plan");

    // Shift-Tab goes the other way round (two agents: back to plan).
    pane.keys("BTab");
    await pane.until(/^plan › $/m);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);
});
