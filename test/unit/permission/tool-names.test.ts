// One tool vocabulary: every place a user names a tool (a hook's matcher and `if`, an agent's
// tools, a skill's or command's allowed-tools) reads the same name as the same tool.
import { expect, test } from "bun:test";
import { parseAgentFile } from "../../../src/agents/parse.ts";
import { matching } from "../../../src/hooks/engine.ts";
import { ifAllows } from "../../../src/hooks/if-rule.ts";
import type { HookEntry } from "../../../src/hooks/sources.ts";
import { claudeToolName, reinToolName } from "../../../src/permission/tool-names.ts";
import { grantRules } from "../../../src/skills/grants.ts";

// name as a user writes it -> [rein's tool, the permission its calls are checked under]
const NAMES: Record<string, [string, string]> = {
  Bash: ["bash", "bash"],
  bash: ["bash", "bash"],
  BASH: ["bash", "bash"],
  Edit: ["edit", "edit"],
  MultiEdit: ["edit", "edit"],
  multiedit: ["edit", "edit"],
  NotebookEdit: ["edit", "edit"],
  Write: ["write", "edit"],
  Read: ["read", "read"],
  Glob: ["glob", "read"],
  Grep: ["grep", "read"],
  LS: ["list", "read"],
  list: ["list", "read"],
  WebFetch: ["webfetch", "webfetch"],
  TodoWrite: ["todo", "todo"],
  TodoRead: ["todo", "todo"],
  Task: ["task", "task"],
  Agent: ["task", "task"],
  task: ["task", "task"],
  mcp__github__create_issue: ["mcp__github__create_issue", "mcp__github__create_issue"],
  mcp__GitHub__Search: ["mcp__GitHub__Search", "mcp__GitHub__Search"],
  myTool: ["myTool", "myTool"],
};
const TOOLS = [...new Set(Object.values(NAMES).map(([tool]) => tool))];

// rein's own config: a matcher may name a tool in either vocabulary, in any case (Claude Code's files match exactly, as Claude Code does: test/unit/hooks/sources.test.ts).
const hook = (matcher: string): HookEntry => ({ event: "PreToolUse", matcher, handler: { type: "command", command: `echo ${matcher}` }, file: "/config.json", scope: "user", dialect: "rein", active: true });
const agentTools = (tools: string) =>
  parseAgentFile({ path: "/a.md", id: "a", text: `---\nname: a\ndescription: d\ntools: ${tools}\n---\nx\n`, format: "claude", project: false }).agent?.tools;

for (const [name, [tool, permission]] of Object.entries(NAMES)) {
  test(`"${name}" is the ${tool} tool for hooks, agents and allowed-tools alike`, async () => {
    const fired = async (t: string) => (await matching([hook(name)], { event: "PreToolUse", tool: t, input: {} })).length === 1;
    const matchedBy = [];
    for (const t of TOOLS) if (await fired(t)) matchedBy.push(t);
    expect(matchedBy).toEqual([tool]);

    const allowedBy = [];
    for (const t of TOOLS) if (await ifAllows(name, t, {}, { cwd: "/" })) allowedBy.push(t);
    expect(allowedBy).toEqual([tool]);

    expect(agentTools(name)).toEqual([tool]);
    expect(agentTools(`${name}(x *)`)).toEqual([tool]);
    expect(grantRules([name, `${name}(x *)`], "test").map((r) => [r.permission, r.pattern])).toEqual([
      [permission, "*"],
      [permission, "x *"],
    ]);
  });
}

test("a Claude Code hook is shown the first Claude Code name of a tool, and reading it back gives the tool", () => {
  expect(TOOLS.map((tool) => [tool, claudeToolName(tool)])).toEqual([
    ["bash", "Bash"],
    ["edit", "Edit"],
    ["write", "Write"],
    ["read", "Read"],
    ["glob", "Glob"],
    ["grep", "Grep"],
    ["list", "LS"],
    ["webfetch", "WebFetch"],
    ["todo", "TodoWrite"],
    ["task", "Task"],
    ["mcp__github__create_issue", "mcp__github__create_issue"],
    ["mcp__GitHub__Search", "mcp__GitHub__Search"],
    ["myTool", "myTool"],
  ]);
  for (const tool of TOOLS) expect(reinToolName(claudeToolName(tool))).toBe(tool);
});
