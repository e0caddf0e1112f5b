import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ConfigError } from "../../../src/config/load.ts";
import { makeWorkspace, thrown, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());

describe("precedence: defaults < user < project < environment < flags", () => {
  test("each layer overrides the one below it, key by key", () => {
    ws.writeUser({ model: "user-model", maxTurns: 10, maxTokens: 1000, permissionMode: "plan" });
    expect(ws.load()).toMatchObject({ model: "user-model", maxTurns: 10, maxTokens: 1000, permissionMode: "plan" });

    ws.writeProject({ model: "project-model", maxTurns: 20 });
    expect(ws.load()).toMatchObject({ model: "project-model", maxTurns: 20, maxTokens: 1000, permissionMode: "plan" });

    const env = { REIN_MODEL: "env-model", REIN_PERMISSION_MODE: "default" };
    expect(ws.load({ env })).toMatchObject({ model: "env-model", maxTurns: 20, permissionMode: "default" });

    const overrides = { model: "flag-model", maxTurns: 3, permissionMode: "auto" as const };
    expect(ws.load({ env, overrides })).toMatchObject({ model: "flag-model", maxTurns: 3, permissionMode: "auto" });
  });

  test("the environment sets the key, the endpoint, the turn limit and the server token", () => {
    ws.writeUser({ apiKey: "user-key", baseURL: "https://user.example", server: { token: "user-token-0123456789" } });
    const config = ws.load({
      env: {
        ANTHROPIC_API_KEY: "env-key",
        ANTHROPIC_BASE_URL: "http://127.0.0.1:4010",
        REIN_MAX_TURNS: "12",
        REIN_SERVER_TOKEN: "env-token-0123456789",
      },
    });
    expect(config).toMatchObject({
      apiKey: "env-key",
      baseURL: "http://127.0.0.1:4010",
      maxTurns: 12,
      server: { token: "env-token-0123456789", origins: [], hosts: [] },
    });
  });

  test("empty environment variables count as unset", () => {
    ws.writeUser({ model: "user-model", apiKey: "user-key" });
    expect(ws.load({ env: { REIN_MODEL: "", ANTHROPIC_API_KEY: "" } })).toMatchObject({
      model: "user-model",
      apiKey: "user-key",
    });
  });

  test("rules stay grouped by source, in precedence order", () => {
    ws.writeUser({ permissions: { allow: ["read"] } });
    ws.writeProject({ permissions: { deny: ["bash(git push *)"] } });
    const config = ws.load({ overrides: { allow: ["bash(npm test *)"], deny: ["webfetch"] } });
    expect(config.rules).toEqual({
      user: [{ permission: "read", pattern: "*", action: "allow" }],
      project: [{ permission: "bash", pattern: "git push *", action: "deny" }],
      flags: [
        { permission: "bash", pattern: "npm test *", action: "allow" },
        { permission: "webfetch", pattern: "*", action: "deny" },
      ],
      tail: [],
    });
  });

  test("within one source, allow comes first, then ask, then deny, whatever the order written", () => {
    ws.writeUser('{"permissions": {"deny": ["bash(rm *)"], "ask": ["bash"], "allow": ["bash(rm -i *)"]}}');
    const config = ws.load({ overrides: { deny: ["edit"], ask: ["edit(*.md)"], allow: ["edit(src/*)"] } });
    expect(config.rules.user.map((rule) => rule.action)).toEqual(["allow", "ask", "deny"]);
    expect(config.rules.flags.map((rule) => `${rule.action} ${rule.permission}(${rule.pattern})`)).toEqual([
      "allow edit(src/*)",
      "ask edit(*.md)",
      "deny edit(*)",
    ]);
  });
});

describe("bad environment variables and flags name their source", () => {
  const cases: [Record<string, string>, string][] = [
    [{ REIN_MAX_TURNS: "ten" }, 'config error: REIN_MAX_TURNS: expected an integer >= 1, got "ten"'],
    [{ REIN_MAX_TURNS: "0" }, "config error: REIN_MAX_TURNS: expected an integer >= 1, got 0"],
    [
      { REIN_PERMISSION_MODE: "yolo" },
      'config error: REIN_PERMISSION_MODE: expected one of default, plan, accept-edits, auto, got "yolo"',
    ],
    [{ ANTHROPIC_BASE_URL: "example.com" }, 'config error: ANTHROPIC_BASE_URL: expected an http(s) URL, got "example.com"'],
    [
      { REIN_SERVER_TOKEN: " ".repeat(16) },
      "config error: REIN_SERVER_TOKEN: expected a token of at least 16 visible characters (letters, digits, punctuation; no spaces), got a string of 16 characters",
    ],
    [
      { REIN_SERVER_TOKEN: "a token with spaces in it" },
      "config error: REIN_SERVER_TOKEN: expected a token of at least 16 visible characters (letters, digits, punctuation; no spaces), got a string of 25 characters",
    ],
    [
      { REIN_SERVER_TOKEN: "short" },
      "config error: REIN_SERVER_TOKEN: expected a token of at least 16 visible characters (letters, digits, punctuation; no spaces), got a string of 5 characters",
    ],
  ];
  for (const [env, message] of cases) {
    test(Object.keys(env).join(), () => {
      const error = thrown(() => ws.load({ env }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe(message);
      expect(error.key).toBe(Object.keys(env)[0]);
    });
  }

  test("a malformed flag rule names the flag and the rule", () => {
    const error = thrown(() => ws.load({ overrides: { allow: ["edit", "bash(("] } }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      'config error: --allow "bash((": missing the closing parenthesis at the end (expected a rule like bash(npm test *))',
    );
    expect(error.key).toBe("--allow");
    expect(thrown(() => ws.load({ overrides: { deny: [""] } })).message).toBe(
      'config error: --deny "": empty rule (expected a rule like bash(npm test *))',
    );
  });

  test("flag values are checked like file values", () => {
    expect(thrown(() => ws.load({ overrides: { maxTurns: 0 } })).message).toBe(
      "config error: --max-turns: expected an integer >= 1, got 0",
    );
    expect(thrown(() => ws.load({ overrides: { model: "" } })).message).toBe(
      'config error: --model: expected a model name, got ""',
    );
  });
});
