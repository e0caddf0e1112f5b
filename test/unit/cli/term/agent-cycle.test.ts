import { expect, test } from "bun:test";
import chalk from "chalk";
import { agentLabel, cycleAgent, type AgentHost } from "../../../../src/cli/term/agent-cycle.ts";

chalk.level = 0;

function host(names: string[], start: string): AgentHost & { switched: string[] } {
  let current = start;
  const switched: string[] = [];
  return {
    switched,
    agent: () => current,
    primaryAgents: () => names,
    switchAgent: (name) => {
      if (name === "broken") throw new Error("no such agent file any more");
      switched.push(name);
      current = name;
    },
    agents: () => names.map((name) => ({ name, mode: "primary", description: `${name} does things\nmore`, source: "built-in", current: name === current })),
  };
}

test("Tab goes round the primary agents, Shift-Tab back; the prompt names any but the first", () => {
  const h = host(["build", "plan", "lead"], "build");
  expect(agentLabel(h)).toBe("");
  expect(cycleAgent(h, 1, false)).toEqual({ print: "agent: plan · plan does things (Tab: the next one)" });
  expect(agentLabel(h)).toBe("plan ");
  cycleAgent(h, 1, false);
  cycleAgent(h, 1, false);
  expect(h.switched).toEqual(["plan", "lead", "build"]);
  cycleAgent(h, -1, false);
  expect(h.agent!()).toBe("lead");
});

test("no switch while a turn runs, with one agent only, or before the session loaded; a failed switch is said", () => {
  const h = host(["build", "plan"], "build");
  expect(cycleAgent(h, 1, true)).toEqual({ hint: "the agent changes between turns: press Tab again once this one ends" });
  expect(cycleAgent(host(["build"], "build"), 1, false)).toEqual({ hint: "build is the only agent to run as" });
  expect(cycleAgent(undefined, 1, false)).toEqual({ hint: "" });
  expect(h.switched).toEqual([]);
  expect(cycleAgent(host(["build", "broken"], "build"), 1, false)).toEqual({ print: "rein: no such agent file any more" });
});
