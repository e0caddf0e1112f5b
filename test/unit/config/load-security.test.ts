import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ConfigError } from "../../../src/config/load.ts";
import { makeWorkspace, thrown, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());

describe("the project config is untrusted input", () => {
  for (const key of ["apiKey", "baseURL", "server"]) {
    test(`it cannot set ${key}, even with --trust`, () => {
      const value = key === "server" ? { origins: ["http://evil.example"] } : "http://evil.example";
      ws.writeProject({ [key]: value });
      const error = thrown(() => ws.load({ overrides: { trust: true } }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe(
        `config error in ${ws.projectFile}: "${key}" is not allowed in a project config (a repository could send your API key to another host); move it to your user config ${ws.userFile}`,
      );
      expect(error.key).toBe(key);
    });
  }

  test("the same keys are fine in the user config", () => {
    ws.writeUser({ apiKey: "sk-user", baseURL: "https://proxy.example" });
    expect(ws.load()).toMatchObject({ apiKey: "sk-user", baseURL: "https://proxy.example" });
  });

  test("untrusted: its allow rules and permissive mode are ignored with warnings; deny and ask apply", () => {
    ws.writeProject({
      permissionMode: "auto",
      permissions: { allow: ["bash"], ask: ["edit"], deny: ["bash(git push *)"] },
    });
    const config = ws.load();
    expect(config.permissionMode).toBe("default");
    expect(config.rules.project).toEqual([
      { permission: "edit", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "git push *", action: "deny" },
    ]);
    expect(config.warnings).toEqual([
      `ignored permissions.allow from ${ws.projectFile}: an untrusted workspace cannot allow itself permissions (run with --trust to accept them)`,
      `ignored permissionMode "auto" from ${ws.projectFile}: an untrusted workspace cannot raise its own permission mode (run with --trust to accept it)`,
    ]);
    expect(config.sources).toEqual([ws.projectFile]);
  });

  test("untrusted: accept-edits is ignored, but the user's own mode still applies", () => {
    ws.writeUser({ permissionMode: "plan" });
    ws.writeProject({ permissionMode: "accept-edits" });
    const config = ws.load();
    expect(config.permissionMode).toBe("plan");
    expect(config.warnings).toHaveLength(1);
  });

  test("untrusted: restrictive modes and other settings apply without warnings", () => {
    ws.writeProject({ permissionMode: "plan", model: "project-model", maxTurns: 5, permissions: { allow: [] } });
    const config = ws.load();
    expect(config).toMatchObject({ permissionMode: "plan", model: "project-model", maxTurns: 5, warnings: [] });
  });

  test("trusted: allow rules and the permissive mode are accepted", () => {
    ws.writeProject({ permissionMode: "auto", permissions: { allow: ["bash(npm test *)"], deny: ["bash(git push *)"] } });
    const config = ws.load({ overrides: { trust: true } });
    expect(config.permissionMode).toBe("auto");
    expect(config.rules.project).toEqual([
      { permission: "bash", pattern: "npm test *", action: "allow" },
      { permission: "bash", pattern: "git push *", action: "deny" },
    ]);
    expect(config.warnings).toEqual([]);
  });

  test("the user's own allow rules and mode are never second-guessed", () => {
    ws.writeUser({ permissionMode: "auto", permissions: { allow: ["bash"] } });
    const config = ws.load();
    expect(config.permissionMode).toBe("auto");
    expect(config.rules.user).toEqual([{ permission: "bash", pattern: "*", action: "allow" }]);
    expect(config.warnings).toEqual([]);
  });
});

describe("sandbox setting", () => {
  test("off by default, auto in auto mode, on with --sandbox; an untrusted project can turn it on but not off", () => {
    const w = ws;
    expect(w.load().sandbox).toBe("off");
    expect(w.load({ overrides: { permissionMode: "auto" } }).sandbox).toBe("auto");
    expect(w.load({ overrides: { sandbox: true } }).sandbox).toBe("on");
    w.writeProject({ sandbox: "on" });
    expect(w.load().sandbox).toBe("on");
    w.writeUser({ sandbox: "on" });
    w.writeProject({ sandbox: "off" });
    const untrusted = w.load();
    expect(untrusted.sandbox).toBe("on");
    expect(untrusted.warnings.join("\n")).toContain('ignored sandbox "off"');
    expect(w.load({ overrides: { trust: true } }).sandbox).toBe("off");
  });
});

describe("env.passthrough", () => {
  test("the user's names pass; an untrusted project's are ignored with a warning, a trusted one's added", () => {
    ws.writeUser({ env: { passthrough: ["GITHUB_TOKEN"] } });
    ws.writeProject({ env: { passthrough: ["NPM_TOKEN"] } });
    const untrusted = ws.load();
    expect(untrusted.envPassthrough).toEqual(["GITHUB_TOKEN"]);
    expect(untrusted.warnings.join("\n")).toContain("ignored env.passthrough from");
    expect(ws.load({ overrides: { trust: true } }).envPassthrough).toEqual(["GITHUB_TOKEN", "NPM_TOKEN"]);
  });

  test("a name that is not a variable name is a config error saying what was expected", () => {
    ws.writeUser({ env: { passthrough: ["GITHUB TOKEN"] } });
    expect(thrown(() => ws.load()).message).toBe(
      `config error in ${ws.userFile}: "env.passthrough[0]": expected an environment variable name like GITHUB_TOKEN, got "GITHUB TOKEN"`,
    );
  });
});

describe("an untrusted project may restrict, never widen", () => {
  test("its ask rule cannot turn a deny of the user's into a question: the user's deny is kept after it", () => {
    ws.writeUser({ permissions: { deny: ["bash(rm *)"] } });
    ws.writeProject({ permissions: { ask: ["bash(rm *)"] } });
    const config = ws.load();
    expect(config.rules.project.at(-1)).toMatchObject({ permission: "bash", pattern: "rm *", action: "deny" });
    // last match wins: the deny comes after the project's ask
    const matching = [...config.rules.user, ...config.rules.project].filter((r) => r.pattern === "rm *");
    expect(matching.at(-1)!.action).toBe("deny");
  });

  test("a trusted project keeps the documented order (its rules after the user's)", () => {
    ws.writeUser({ permissions: { deny: ["bash(rm *)"] } });
    ws.writeProject({ permissions: { ask: ["bash(rm *)"] } });
    const config = ws.load({ overrides: { trust: true } });
    expect(config.rules.project).toEqual([{ permission: "bash", pattern: "rm *", action: "ask" }]);
  });
});
