// What the trust question counts in a repository: hooks, MCP servers, skills, agents, allow rules
// and tools, from the real folders and files; started in the home folder, the user's own
// .claude/ and .agents/ are not a repository's.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { listed, trustSummary } from "../../../src/config/trust-summary.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let root: string;
beforeEach(() => {
  dir = tempDir("rein-trust-");
  root = dir.path;
});
afterEach(() => dir.remove());

const write = (path: string, text = "") => {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const hooks = (n: number) => ({ PreToolUse: [{ matcher: "Bash", hooks: Array.from({ length: n }, () => ({ type: "command", command: "true" })) }] });

test("a plain repository has nothing to trust", () => {
  write("src/index.ts", "export {};");
  write("README.md", "# hi");
  expect(trustSummary(root)).toEqual({ found: [], parts: [] });
});

test("every kind is counted from its files, in a fixed order, plural only above one", () => {
  write(".claude/settings.json", JSON.stringify({ hooks: hooks(2), permissions: { allow: ["Bash(npm test)", "Read"] } }));
  write(".claude/settings.local.json", JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] } }));
  write(".mcp.json", JSON.stringify({ mcpServers: { docs: {}, github: {} } }));
  write(".claude/skills/deploy/SKILL.md", "---\nname: deploy\n---\n");
  write(".claude/skills/notes.txt", "not a skill");
  write(".claude/skills/empty/readme.md", "a folder with no SKILL.md is no skill");
  write(".claude/agents/reviewer.md", "---\nname: reviewer\n---\n");
  write(".claude/agents/notes.txt", "");
  write(".rein/tools/deploy.ts", "export default {}");
  write(".rein/tools/helper.js", "");
  const summary = trustSummary(root);
  expect(summary.found).toEqual([".claude", ".mcp.json", ".rein"]);
  expect(summary.parts).toEqual(["3 hooks", "2 MCP servers", "1 skill", "1 agent", "2 allow rules", "1 tool"]);
  expect(listed(summary.parts)).toBe("3 hooks, 2 MCP servers, 1 skill, 1 agent, 2 allow rules and 1 tool");
});

test("the same MCP server named in .mcp.json, .rein/config.json and opencode.json counts once", () => {
  write(".mcp.json", JSON.stringify({ mcpServers: { docs: {} } }));
  write(".rein/config.json", JSON.stringify({ mcpServers: { docs: {}, db: {} } }));
  write("opencode.json", JSON.stringify({ mcp: { db: {}, search: {} } }));
  expect(trustSummary(root).parts).toEqual(["3 MCP servers"]);
});

test("opencode.jsonc is read through its comments and trailing commas; its agent entries count beside the agent files", () => {
  write(
    "opencode.jsonc",
    `{
  // the team's agents
  "agent": { "review": {}, "plan": {}, },
  /* servers */
  "mcp": { "docs": {} },
}`,
  );
  write(".opencode/agent/fixer.md", "");
  expect(trustSummary(root)).toEqual({ found: ["opencode.jsonc", ".opencode"], parts: ["1 MCP server", "3 agents"] });
});

test("skills in every place a repository may keep them are counted", () => {
  for (const place of [".rein/skills", ".agents/skills", ".claude/skills", ".opencode/skills", ".opencode/skill"]) write(`${place}/s/SKILL.md`, "x");
  expect(trustSummary(root).parts).toEqual(["5 skills"]);
});

test("a marker with nothing countable inside is found but lists no parts; unreadable JSON counts as nothing", () => {
  write(".claude/settings.json", "{ not json");
  write(".rein/config.json", '{"model": "x"}');
  expect(trustSummary(root)).toEqual({ found: [".claude", ".rein"], parts: [] });
});

test("started in the home folder, its .claude/ and .agents/ are the user's own: not counted, not found", () => {
  write(".claude/settings.json", JSON.stringify({ hooks: hooks(4) }));
  write(".claude/agents/mine.md", "");
  write(".agents/skills/s/SKILL.md", "x");
  write(".mcp.json", JSON.stringify({ mcpServers: { a: {} } }));
  expect(trustSummary(root, root)).toEqual({ found: [".mcp.json"], parts: ["1 MCP server"] });
  // the same folder as a repository counts them all
  expect(trustSummary(root, join(root, "elsewhere")).parts).toEqual(["4 hooks", "1 MCP server", "1 skill", "1 agent"]);
});

test("listed joins with commas and a final 'and'", () => {
  expect(listed([])).toBe("");
  expect(listed(["1 hook"])).toBe("1 hook");
  expect(listed(["1 hook", "2 skills"])).toBe("1 hook and 2 skills");
});
