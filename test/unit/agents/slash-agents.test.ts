import { expect, test } from "bun:test";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import { runSlash, type SlashHost } from "../../../src/cli/term/slash.ts";

test("/agents lists every agent with its mode, the one running marked", async () => {
  const printed: string[] = [];
  const agents = builtinAgents("/repo").map((a) => ({ name: a.name, mode: a.mode, description: a.description, source: a.source, current: a.name === "plan" }));
  const host = { print: (text: string) => printed.push(text), agents: () => agents } as unknown as SlashHost;
  expect(await runSlash("/agents", host)).toBe(true);
  const lines = printed.join("\n").replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  expect(lines.map((l) => l.split(/\s+/).filter(Boolean).slice(0, 3).join(" "))).toEqual(["build primary The", "* plan primary", "coordinator primary Leads", "explore subagent Read-only", "general subagent Has"]);
});
