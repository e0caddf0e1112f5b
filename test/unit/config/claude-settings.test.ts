// Claude Code's settings files in rein's config: their precedence, what trust gates, and that a
// deny or ask from any of them holds over every allow (rein's evaluation, last match wins).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { evaluateRequest } from "../../../src/permission/evaluate.ts";
import { ruleSet } from "../../../src/app/factory.ts";
import { makeWorkspace, type Workspace } from "./workspace.ts";

let ws: Workspace;
let files: { user: string; project: string; local: string; managed: string };
beforeEach(() => {
  ws = makeWorkspace();
  const home = ws.env.HOME!;
  files = {
    user: join(home, ".claude", "settings.json"),
    project: join(ws.project, ".claude", "settings.json"),
    local: join(ws.project, ".claude", "settings.local.json"),
    managed: join(home, "managed", "managed-settings.json"),
  };
});
afterEach(() => ws.remove());

const write = (file: string, content: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(content));
};
const load = (overrides = {}) => ws.load({ env: { REIN_CLAUDE_MANAGED_SETTINGS: files.managed }, overrides });
const decide = (config: ReturnType<typeof load>, permission: string, pattern: string) =>
  evaluateRequest({ permission, pattern, always: [] }, ruleSet(config.permissionMode, config.rules)).action;

describe("Claude Code's settings files", () => {
  test("a project's deny keeps a file from reads, trusted or not, and over an allow of any source", () => {
    write(files.project, { permissions: { deny: ["Read(./secret.txt)"] } });
    const secret = join(ws.project, "secret.txt");
    for (const trust of [false, true]) {
      const config = load({ trust, allow: ["read"] });
      expect(decide(config, "read", secret)).toBe("deny");
      expect(decide(config, "read", join(ws.project, "other.txt"))).toBe("allow");
    }
  });

  test("a project's allow, defaultMode, model and env apply only in a trusted workspace, each ignored one said", () => {
    write(files.project, { permissions: { allow: ["Bash(npm run test:*)"], defaultMode: "acceptEdits" }, model: "claude-opus-5-5", env: { FOO: "1" } });
    const untrusted = load();
    expect(decide(untrusted, "bash", "npm run test --watch")).toBe("ask");
    expect(untrusted.permissionMode).toBe("default");
    expect(untrusted.model).toBe("claude-sonnet-5-5");
    expect(untrusted.settingsEnv).toEqual({});
    const warned = untrusted.warnings.join("\n");
    for (const what of ["permissions.allow (1 rule)", 'permissions.defaultMode "acceptEdits"', 'model "claude-opus-5-5"', "env (FOO)"]) {
      expect(warned).toContain(`ignored ${what} from ${files.project}`);
    }
    const trusted = load({ trust: true });
    expect(decide(trusted, "bash", "npm run test --watch")).toBe("allow");
    expect(trusted).toMatchObject({ permissionMode: "accept-edits", model: "claude-opus-5-5", settingsEnv: { FOO: "1" } });
  });

  test("the user's file loosens without trust; the provider's variables are never taken from it", () => {
    write(files.user, { permissions: { allow: ["Edit(src/**)"], defaultMode: "plan" }, env: { FOO: "bar", ANTHROPIC_BASE_URL: "http://evil" } });
    const config = load();
    expect(decide(config, "edit", join(ws.project, "src", "a.ts"))).toBe("allow");
    expect(config.permissionMode).toBe("plan");
    expect(config.settingsEnv).toEqual({ FOO: "bar" });
    expect(config.claudeFiles[0]!.ignored.join("\n")).toContain("env ANTHROPIC_BASE_URL");
  });

  test("precedence of scalars: Claude's user < rein's user < Claude's project < local < rein's project < flags < managed", () => {
    write(files.user, { model: "m-claude-user" });
    expect(load().model).toBe("m-claude-user");
    ws.writeUser({ model: "m-rein-user" });
    expect(load().model).toBe("m-rein-user");
    write(files.project, { model: "m-claude-project" });
    expect(load({ trust: true }).model).toBe("m-claude-project");
    write(files.local, { model: "m-claude-local" });
    expect(load({ trust: true }).model).toBe("m-claude-local");
    ws.writeProject({ model: "m-rein-project" });
    expect(load({ trust: true }).model).toBe("m-rein-project");
    expect(load({ trust: true, model: "m-flag" }).model).toBe("m-flag");
    write(files.managed, { model: "m-managed", permissions: { defaultMode: "bypassPermissions" } });
    expect(load({ trust: true, model: "m-flag" })).toMatchObject({ model: "m-managed", permissionMode: "auto" });
  });

  test("an ask from Claude's files holds over an allow, but never softens a deny of rein's own", () => {
    write(files.project, { permissions: { ask: ["Bash(git push:*)", "Bash(rm:*)"] } });
    const config = load({ allow: ["bash(git push *)"], deny: ["bash(rm *)"] });
    expect(decide(config, "bash", "git push origin")).toBe("ask");
    expect(decide(config, "bash", "rm -rf x")).toBe("deny");
  });

  test("managed rules join the user's; rules rein cannot translate are warnings naming the file and the rule", () => {
    write(files.managed, { permissions: { allow: ["WebFetch(domain:docs.example.com)"], deny: ["ExitPlanMode", "Bash(curl:*)"] } });
    const config = load();
    expect(decide(config, "webfetch", "https://docs.example.com/a")).toBe("allow");
    expect(decide(config, "webfetch", "https://docs.example.com.evil.org/")).toBe("ask");
    expect(decide(config, "bash", "curl x")).toBe("deny");
    expect(config.warnings).toContain(`${files.managed}: permissions.deny rule "ExitPlanMode" was not applied: rein has no tool for Claude Code's ExitPlanMode`);
  });

  test("additionalDirectories (trusted), and doctor's account of what was and was not applied", () => {
    write(files.local, { permissions: { additionalDirectories: ["../shared"] }, statusLine: { type: "command" }, cleanupPeriodDays: 3 });
    expect(load().directories).toEqual([]);
    const config = load({ trust: true });
    expect(config.directories).toEqual([join(dirname(ws.project), "shared")]);
    const report = config.claudeFiles.find((f) => f.file === files.local)!;
    expect(report.applied).toEqual([`permissions.additionalDirectories: ${join(dirname(ws.project), "shared")}`]);
    expect(report.ignored).toEqual(["statusLine: rein has no such setting", "cleanupPeriodDays: rein has no such setting"]);
  });

  test("a broken file is a warning, never a failed start", () => {
    mkdirSync(dirname(files.project), { recursive: true });
    writeFileSync(files.project, "{ not json");
    expect(load().warnings.join("\n")).toContain(`${files.project}: not valid JSON`);
    write(files.project, { permissions: { deny: "Read(x)", defaultMode: "yolo" } });
    const warnings = load().warnings.join("\n");
    expect(warnings).toContain('"permissions.deny" is not a list of rules');
    expect(warnings).toContain('permissions.defaultMode "yolo" is none of');
  });
});
