// Where hooks come from and which ones a call matches.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readConfigFile } from "../../../src/config/read-config-file.ts";
import { matching } from "../../../src/hooks/engine.ts";
import { matches } from "../../../src/hooks/matcher.ts";
import { hookEntries } from "../../../src/hooks/sources.ts";
import { tempDir } from "../../support/temp-dir.ts";

const dir = tempDir("rein-hook-sources-");
afterAll(() => dir.remove());
const write = (rel: string, text: string) => {
  const path = join(dir.path, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const command = (c: string) => ({ type: "command" as const, command: c });

test("a malformed hooks value in rein's config is a config error naming the file and the key", () => {
  const file = write("bad/config.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "shell", command: "x" }] }] } }));
  expect(() => readConfigFile(file, { kind: "user" })).toThrow(`config error in ${file}: "hooks.PreToolUse[0].hooks[0].type": expected a handler with "type" one of command, http, prompt, agent, got "shell"`);
  const unknown = write("bad2/config.json", JSON.stringify({ hooks: { PreToolCall: [] } }));
  expect(() => readConfigFile(unknown, { kind: "user" })).toThrow('"hooks.PreToolCall": unknown hook event "PreToolCall"');
});

test("a malformed Claude Code file is a warning and loads nothing; a bad group costs only that group", () => {
  write("p1/.claude/settings.json", "{ hooks: ");
  const broken = hookEntries({ rein: [], home: join(dir.path, "h1"), projectRoot: join(dir.path, "p1"), trusted: true });
  expect(broken.entries).toEqual([]);
  expect(broken.warnings[0]).toContain(`${join(dir.path, "p1/.claude/settings.json")}: not valid JSON`);

  write("p2/.claude/settings.local.json", JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "mcp_tool", server: "s", tool: "t" }] }, { matcher: "Write", hooks: [command("fmt")] }],
      FileChanged: [{ hooks: [command("ignored: an event rein does not run")] }],
    },
  }));
  const partial = hookEntries({ rein: [], home: join(dir.path, "h2"), projectRoot: join(dir.path, "p2"), trusted: true });
  expect(partial.entries.map((e) => [e.event, e.matcher, e.dialect])).toEqual([["PreToolUse", "Write", "claude"]]);
  expect(partial.warnings).toHaveLength(1);
  expect(partial.warnings[0]).toContain('"hooks.PreToolUse[0].hooks.0.type"');
});

test("project sources are listed but inactive in an untrusted workspace; user sources always run", async () => {
  write("h3/.claude/settings.json", JSON.stringify({ hooks: { Stop: [{ hooks: [command("user-hook")] }] } }));
  write("p3/.claude/settings.json", JSON.stringify({ hooks: { Stop: [{ hooks: [command("project-hook")] }] } }));
  const loaded = hookEntries({ rein: [], home: join(dir.path, "h3"), projectRoot: join(dir.path, "p3"), trusted: false });
  expect(loaded.entries.map((e) => [e.handler.type === "command" && e.handler.command, e.scope, e.active])).toEqual([
    ["user-hook", "user", true],
    ["project-hook", "project", false],
  ]);
  expect((await matching(loaded.entries, { event: "Stop" })).map((e) => e.scope)).toEqual(["user"]);
});

test("matchers as Claude Code evaluates them, in both tool vocabularies", async () => {
  expect(matches(undefined, ["bash"])).toBe(true);
  expect(matches("*", ["bash"])).toBe(true);
  expect(matches("Edit|Write", ["write", "Write"])).toBe(true);
  expect(matches("Edit, Write", ["edit", "Edit", "MultiEdit"])).toBe(true);
  expect(matches("code-reviewer", ["senior-code-reviewer"])).toBe(false);
  expect(matches("Edit.*", ["NotebookEdit"])).toBe(true);
  expect(matches("^Bash$", ["bash", "Bash"])).toBe(true);
  expect(matches("mcp__memory", ["mcp__memory__store"])).toBe(false);
  expect(matches("mcp__memory__.*", ["mcp__memory__store"])).toBe(true);
  expect(matches("([", ["bash"])).toBe(false);
  const entries = hookEntries({
    rein: [{ file: "/c.json", scope: "user", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command("a")] }, { matcher: "read", hooks: [command("b")] }] } }],
    home: join(dir.path, "none"),
    projectRoot: join(dir.path, "none"),
    trusted: true,
  }).entries;
  expect((await matching(entries, { event: "PreToolUse", tool: "bash" })).map((e) => e.matcher)).toEqual(["Bash"]);
  expect((await matching(entries, { event: "PreToolUse", tool: "read" })).map((e) => e.matcher)).toEqual(["read"]);
});

test("a handler's `if` rule narrows it to the calls it names; on an event without a call it never runs", async () => {
  const entries = hookEntries({
    rein: [{
      file: "/c.json",
      scope: "user",
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "git-only", if: "Bash(git *)" }] }, { hooks: [{ type: "command", command: "ts-only", if: "Edit(*.ts)" }] }],
        Stop: [{ hooks: [{ type: "command", command: "never", if: "Bash(*)" }] }],
      },
    }],
    home: join(dir.path, "none"),
    projectRoot: join(dir.path, "none"),
    trusted: true,
  }).entries;
  const names = async (tool: string, input: unknown) => (await matching(entries, { event: "PreToolUse", tool, input }, dir.path)).map((e) => e.handler.type === "command" && e.handler.command);
  expect(await names("bash", { command: "git push" })).toEqual(["git-only"]);
  expect(await names("bash", { command: "rm -rf x" })).toEqual([]);
  expect(await names("edit", { path: "src/a.ts", old_string: "a", new_string: "b" })).toEqual(["ts-only"]);
  expect(await names("edit", { path: "README.md", old_string: "a", new_string: "b" })).toEqual([]);
  expect(await matching(entries, { event: "Stop" })).toEqual([]);
  // Bash rules are matched per command, as the permission engine finds them: any one matching runs the hook.
  for (const line of ["cd sub && git push", "npm test; git commit -m 'x y'", "echo $(git rev-parse HEAD)", "sudo git push", "FOO=1 git status", "ls | xargs git add"]) {
    expect({ line, hooks: await names("bash", { command: line }) }).toEqual({ line, hooks: ["git-only"] });
  }
  for (const line of ["ls | grep git", "echo 'git push'", "rm -rf git", "legit push"]) {
    expect({ line, hooks: await names("bash", { command: line }) }).toEqual({ line, hooks: [] });
  }
  // Claude Code's prefix form
  const prefixed = hookEntries({ rein: [{ file: "/c.json", scope: "user", hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "npm-run", if: "Bash(npm run:*)" }] }] } }], home: join(dir.path, "none"), projectRoot: join(dir.path, "none"), trusted: true }).entries;
  const npm = async (line: string) => (await matching(prefixed, { event: "PreToolUse", tool: "bash", input: { command: line } }, dir.path)).length;
  expect([await npm("cd x && npm run build"), await npm("npm run"), await npm("npm test")]).toEqual([1, 1, 0]);
  // A line that does not parse cannot be checked: the hook runs (it fails open).
  expect(await names("bash", { command: "git push ((" })).toEqual(["git-only"]);
});

test("a Claude Code file's matchers see Claude Code's names only, matched exactly as Claude Code 2.1.332 does; rein's plumbing fires none of its hooks", async () => {
  mkdirSync(join(dir.path, "claude-proj", ".claude"), { recursive: true });
  const groups = ["bash", "Bash", "^Bas", "Task", "Agent", "^b", "MultiEdit", "*"].map((matcher) => ({ matcher, hooks: [command(matcher)] }));
  writeFileSync(join(dir.path, "claude-proj", ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: groups } }));
  const entries = hookEntries({ rein: [], home: join(dir.path, "none"), projectRoot: join(dir.path, "claude-proj"), trusted: true }).entries;
  const chosen = async (tool: string) => (await matching(entries, { event: "PreToolUse", tool })).map((e) => e.matcher);
  // recorded: `bash` does not match Bash in Claude Code, `^Bas` and `Bash` do; rein's `^b` is not seen
  expect(await chosen("bash")).toEqual(["Bash", "^Bas", "*"]);
  expect(await chosen("task")).toEqual(["Task", "Agent", "*"]);
  expect(await chosen("edit")).toEqual(["MultiEdit", "*"]);
  expect(await chosen("load_tools")).toEqual([]);
});
