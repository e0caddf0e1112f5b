// readClaudeSettings on real files for Claude Code's --settings (JSON text or a file) and
// --setting-sources, CLAUDE_CONFIG_DIR, and the values it refuses one line each: an unknown
// defaultMode, provider variables in env, permissions of the wrong shape, a repository's hooks
// before trust.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readClaudeSettings, type ClaudeSettingsOptions } from "../../../src/config/claude-settings.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let home: string;
let root: string;
beforeEach(() => {
  dir = tempDir("rein-claude-flags-");
  home = join(dir.path, "home");
  root = join(dir.path, "repo");
  mkdirSync(home, { recursive: true });
  mkdirSync(root, { recursive: true });
});
afterEach(() => dir.remove());

const write = (file: string, content: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
};
const userFile = () => join(home, ".claude", "settings.json");
const projectFile = () => join(root, ".claude", "settings.json");
const localFile = () => join(root, ".claude", "settings.local.json");
const read = (over: Partial<ClaudeSettingsOptions> = {}) =>
  readClaudeSettings({ cwd: root, projectRoot: root, home, env: { REIN_CLAUDE_MANAGED_SETTINGS: join(dir.path, "no-managed.json") }, trusted: false, ...over });

test("--settings as JSON text applies as the flag layer, named --settings in reports and rule sources", () => {
  const s = read({ flag: '{"model": "opus", "permissions": {"allow": ["Bash(npm test)"], "defaultMode": "plan"}}' });
  expect(s.flag).toEqual({ model: "opus", permissionMode: "plan" });
  expect(s.allow.flag.map((r) => [r.permission, r.pattern, r.source])).toEqual([["bash", "npm test", "--settings (Bash(npm test))"]]);
  expect(s.files.map((f) => [f.file, f.scope])).toEqual([["--settings", "flag"]]);
});

test("--settings JSON that does not parse is a warning; nothing of it applies", () => {
  const s = read({ flag: '{"model": ' });
  expect(s.flag).toEqual({});
  expect(s.warnings).toHaveLength(1);
  expect(s.warnings[0]).toStartWith("--settings: ");
  expect(s.warnings[0]).toEndWith("; its settings were not loaded");
});

test("--settings FILE resolves against cwd; a file that is not there is a warning (it was asked for)", () => {
  write(join(root, "ci", "settings.json"), { permissions: { deny: ["WebFetch"] } });
  const s = read({ flag: "ci/settings.json" });
  expect(s.files[0]!.file).toBe(join(root, "ci", "settings.json"));
  expect(s.denies.map((r) => r.permission)).toEqual(["webfetch"]);
  const missing = read({ flag: "ci/none.json" });
  expect(missing.warnings).toHaveLength(1);
  expect(missing.warnings[0]).toContain(join(root, "ci", "none.json"));
});

test("--setting-sources reads only the files named; CLAUDE_CONFIG_DIR moves the user's", () => {
  write(join(dir.path, "claude-cfg", "settings.json"), { model: "from-config-dir" });
  write(userFile(), { model: "from-home" });
  write(projectFile(), { permissions: { deny: ["Bash(rm:*)"] } });
  write(localFile(), { permissions: { deny: ["Bash(curl:*)"] } });
  const moved = read({ env: { CLAUDE_CONFIG_DIR: join(dir.path, "claude-cfg"), REIN_CLAUDE_MANAGED_SETTINGS: join(dir.path, "none.json") } });
  expect(moved.user.model).toBe("from-config-dir");
  const onlyProject = read({ sources: ["project"] });
  expect(onlyProject.user).toEqual({});
  expect(onlyProject.denies.map((r) => r.pattern)).toEqual(["rm *"]);
  const userAndLocal = read({ sources: ["user", "local"] });
  expect(userAndLocal.user.model).toBe("from-home");
  expect(userAndLocal.denies.map((r) => r.pattern)).toEqual(["curl *"]);
});

test("a defaultMode that is none of Claude Code's is a warning naming them; each known one maps to rein's", () => {
  write(userFile(), { permissions: { defaultMode: "yolo" } });
  const s = read();
  expect(s.user.permissionMode).toBeUndefined();
  expect(s.warnings).toEqual([`${userFile()}: permissions.defaultMode "yolo" is none of Claude Code's modes (default, acceptEdits, plan, bypassPermissions, auto, dontAsk); ignored`]);
  const modes: [string, string][] = [["acceptEdits", "accept-edits"], ["bypassPermissions", "auto"], ["dontAsk", "default"], ["plan", "plan"]];
  for (const [claude, rein] of modes) {
    write(userFile(), { permissions: { defaultMode: claude } });
    expect(read().user.permissionMode as string).toBe(rein);
  }
});

test("env: provider keys, endpoints and rein's own variables are never taken; the rest go to tools, numbers and booleans as text", () => {
  write(userFile(), { env: { ANTHROPIC_API_KEY: "sk-stolen", OPENAI_BASE_URL: "http://evil", REIN_DATA_DIR: "/tmp/x", NODE_ENV: "test", RETRIES: 3, VERBOSE: true, NESTED: { no: 1 } } });
  const s = read();
  expect(s.env).toEqual({ NODE_ENV: "test", RETRIES: "3", VERBOSE: "true" });
  expect(s.files[0]!.ignored).toContain("env ANTHROPIC_API_KEY, OPENAI_BASE_URL, REIN_DATA_DIR: provider keys, endpoints and rein's own settings are not taken from a settings file");
  expect(s.files[0]!.applied).toContain("env: NODE_ENV, RETRIES, VERBOSE for the processes tools start");
});

test("permissions of the wrong shape are warnings, and the file's other settings still apply", () => {
  write(userFile(), { permissions: "allow everything", model: "sonnet" });
  const s = read();
  expect(s.warnings).toEqual([`${userFile()}: "permissions" is not an object; its rules were not loaded`]);
  expect(s.user.model).toBe("sonnet");
  write(userFile(), { permissions: { allow: "Bash(*)", deny: ["Bash(rm:*)"], frobnicate: true } });
  const t = read();
  expect(t.warnings).toEqual([`${userFile()}: "permissions.allow" is not a list of rules; ignored`]);
  expect(t.denies).toHaveLength(1);
  expect(t.files[0]!.ignored).toContain("permissions.frobnicate: rein has no such setting");
});

test("a repository's hooks are listed inactive until the workspace is trusted; the user's are active", () => {
  const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] };
  write(userFile(), { hooks });
  write(projectFile(), { hooks });
  const untrusted = read();
  expect(untrusted.files.map((f) => [f.scope, f.applied])).toEqual([
    ["user", ["hooks"]],
    ["project", ["hooks: listed, inactive until the workspace is trusted"]],
  ]);
  expect(read({ trusted: true }).files.map((f) => f.applied)).toEqual([["hooks"], ["hooks"]]);
});

test("a local file's deny applies untrusted, its allow and model do not, and the warning names the file", () => {
  write(localFile(), { permissions: { deny: ["Read(./.env)"], allow: ["Bash(*)"] }, model: "opus" });
  const s = read();
  expect(s.denies.map((r) => r.source)).toEqual([`${localFile()} (Read(./.env))`]);
  expect(s.allow.project).toEqual([]);
  expect(s.project.model).toBeUndefined();
  expect(s.warnings).toEqual([
    `ignored permissions.allow (1 rule) from ${localFile()}: an untrusted workspace cannot loosen its own permissions or settings (run with --trust to accept it)`,
    `ignored model "opus" from ${localFile()}: an untrusted workspace cannot loosen its own permissions or settings (run with --trust to accept it)`,
  ]);
});
