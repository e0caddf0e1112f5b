// One `Tool(pattern)` reader: a hook's `if`, allowed-tools and an agent's tools read the same text
// the same way, with the permission rules' grammar and Claude Code's `Bash(cmd:*)` form.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAgentFile } from "../../../src/agents/parse.ts";
import { ifAllows } from "../../../src/hooks/if-rule.ts";
import { formatRule } from "../../../src/permission/rule-syntax.ts";
import { parseToolRule, toolRuleList } from "../../../src/permission/tool-rule.ts";
import { grantProblems, grantRules } from "../../../src/skills/grants.ts";
import { loadCustomCommands } from "../../../src/skills/commands.ts";
import { readSkill } from "../../../src/skills/skill.ts";
import { tempDir } from "../../support/temp-dir.ts";

test("a tool rule is the rule grammar with the tool in rein's vocabulary", () => {
  expect(parseToolRule("Read")).toEqual({ tool: "read", pattern: "*" });
  expect(parseToolRule("Bash(echo (hi))")).toEqual({ tool: "bash", pattern: "echo (hi)" });
  expect(parseToolRule("Edit( src/** )")).toEqual({ tool: "edit", pattern: "src/**" });
  expect(parseToolRule("mcp__GitHub__*")).toEqual({ tool: "mcp__GitHub__*", pattern: "*" });
  expect(parseToolRule("Bash(git add")).toBe("missing the closing parenthesis at the end");
  expect(parseToolRule("Bash()")).toContain("empty pattern");
});

test("Claude Code's `:*` prefix form is read for Bash rules only", () => {
  expect(parseToolRule("Bash(git add:*)")).toEqual({ tool: "bash", pattern: "git add *" });
  expect(parseToolRule("bash(npm run test:*)")).toEqual({ tool: "bash", pattern: "npm run test *" });
  expect(parseToolRule("WebFetch(https://example.com:*)")).toEqual({ tool: "webfetch", pattern: "https://example.com:*" });
});

test("any pattern the rule grammar round-trips reads back whole", () => {
  for (const pattern of ["a)(b", "rm x)", "$(x) `y`", "'q' \"d\"", "\\*", "é\tx"]) {
    expect(parseToolRule(formatRule({ permission: "Grep", pattern }))).toEqual({ tool: "grep", pattern: pattern.trim() });
  }
});

test("a list is split at commas and white space outside parentheses", () => {
  expect(toolRuleList("Bash(git log *) Read, Edit(docs/*)")).toEqual(["Bash(git log *)", "Read", "Edit(docs/*)"]);
  expect(toolRuleList("Bash(echo (a, b)),Grep")).toEqual(["Bash(echo (a, b))", "Grep"]);
  expect(toolRuleList(["Read", " Bash(x *) ", 3, ""])).toEqual(["Read", "Bash(x *)"]);
  expect(toolRuleList(undefined)).toBeUndefined();
  expect(toolRuleList("")).toEqual([]);
});

const RULES = ["Bash(git add:*)", "Bash(echo (a, b))", "BASH(npm test *)", "Edit(src/**)", "mcp__db__query(select *)"];

test("hooks, allowed-tools, commands and agents read one list of rules alike", async () => {
  const list = RULES.join(" ");
  expect(grantRules(toolRuleList(list)!, "t").map((r) => formatRule(r))).toEqual(["bash(git add *)", "bash(echo (a, b))", "bash(npm test *)", "edit(src/**)", "mcp__db__query(select *)"]);
  const dir = tempDir("rein-tool-rule-");
  try {
    writeFileSync(join(dir.path, "c.md"), `---\ndescription: d\nallowed-tools: ${list}\n---\nbody\n`);
    expect(loadCustomCommands([{ dir: dir.path, source: "user" }], []).commands.map((c) => c.allowedTools)).toEqual([RULES]);
    mkdirSync(join(dir.path, "s"));
    writeFileSync(join(dir.path, "s", "SKILL.md"), `---\nname: s\ndescription: d\nallowed-tools: ${list}\n---\nbody\n`);
    const skill = readSkill(join(dir.path, "s", "SKILL.md"), "user", dir.path, []);
    expect(typeof skill === "string" ? skill : skill.allowedTools).toEqual(RULES);
  } finally {
    dir.remove();
  }
  const agent = parseAgentFile({ path: "/a.md", id: "a", text: `---\nname: a\ndescription: d\ntools: ${list}\n---\nx\n`, format: "claude", project: false });
  expect(agent.agent?.tools).toEqual(["bash", "bash", "bash", "edit", "mcp__db__query"]);
  const scope = { cwd: "/" };
  expect(await ifAllows("Bash(git add:*)", "bash", { command: "git add x" }, scope)).toBe(true);
  expect(await ifAllows("Bash(git add:*)", "bash", { command: "git push" }, scope)).toBe(false);
  expect(await ifAllows("mcp__db__*", "mcp__db__query", {}, scope)).toBe(true);
  expect(await ifAllows("mcp__db__*", "mcp__web__get", {}, scope)).toBe(false);
});

test("an entry that is no tool rule is said once, by skills, commands (in their notes: rein doctor, rein skills list) and agents alike", () => {
  const dir = tempDir("rein-tool-rule-");
  try {
    const bad = "Bash(git add Read";
    const command = join(dir.path, "c.md");
    writeFileSync(command, `---\ndescription: d\nallowed-tools: ${bad}\n---\nbody\n`);
    const commands = loadCustomCommands([{ dir: dir.path, source: "user" }], []);
    expect(commands.problems).toEqual([]);
    expect(grantProblems(commands.commands[0]!.allowedTools ?? [])).toEqual([`allowed-tools entry "${bad}" is not a tool rule (missing the closing parenthesis at the end), so it grants nothing; write Tool or Tool(pattern)`]);
    expect(commands.commands.map((c) => c.name)).toEqual(["c"]);
    mkdirSync(join(dir.path, "s"));
    const file = join(dir.path, "s", "SKILL.md");
    writeFileSync(file, `---\nname: s\ndescription: d\nallowed-tools: ${bad}\n---\nbody\n`);
    const warnings: string[] = [];
    const skill = readSkill(file, "user", dir.path, warnings);
    expect(typeof skill === "string" ? skill : grantRules(skill.allowedTools, "t")).toEqual([]);
    expect(warnings).toEqual([]);
    expect(typeof skill === "string" ? [] : grantProblems(skill.allowedTools)).toHaveLength(1);
    const agent = parseAgentFile({ path: "/a.md", id: "a", text: `---\nname: a\ndescription: d\ntools: Read, ${bad}\n---\nx\n`, format: "claude", project: false });
    expect(agent.agent?.tools).toEqual(["read"]);
    expect(agent.notes).toEqual([`agent file /a.md: tool "${bad}" is not a tool name (missing the closing parenthesis at the end): left out`]);
  } finally {
    dir.remove();
  }
});
