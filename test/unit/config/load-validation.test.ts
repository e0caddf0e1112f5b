import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { ConfigError } from "../../../src/config/load.ts";
import { makeWorkspace, thrown, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());

/** Writes `content` as the user config and returns the one-line error loading it produces. */
function userError(content: unknown) {
  ws.writeUser(content);
  const error = thrown(() => ws.load());
  expect(error).toBeInstanceOf(ConfigError);
  expect(error.message).not.toContain("\n");
  return error;
}

describe("a file that is not valid config", () => {
  test("a bad rule names the file, the key with its index, the value and the problem", () => {
    const error = userError({ permissions: { allow: ["edit", "bash(("] } });
    expect(error.message).toBe(
      `config error in ${ws.userFile}: "permissions.allow[1]": expected a rule like bash(npm test *), got "bash((" (missing the closing parenthesis at the end)`,
    );
    expect(error.file).toBe(ws.userFile);
    expect(error.key).toBe("permissions.allow[1]");
  });

  test("a bad deny rule in the project file is reported against that file", () => {
    ws.writeProject({ permissions: { deny: ["Bash(rm *)"] } });
    expect(thrown(() => ws.load()).message).toBe(
      `config error in ${ws.projectFile}: "permissions.deny[0]": expected a rule like bash(npm test *), got "Bash(rm *)" (unknown permission "Bash" (did you mean "bash"? known permissions: bash, read, edit, external_directory, webfetch, websearch))`,
    );
  });

  test("a JSON syntax error gives line and column", () => {
    const error = userError('{\n  "model": "x",\n    x\n}');
    expect(error.message).toBe(
      `config error in ${ws.userFile}: line 3, column 5: invalid JSON (expected a property name in double quotes, found "x")`,
    );
  });

  test("an unknown key lists the known ones", () => {
    // Each feature adds its keys: the list is checked for its start and for keys every config has.
    const message = userError({ modle: "x" }).message;
    expect(message.startsWith(`config error in ${ws.userFile}: unknown key "modle" (known keys: model, apiKey, baseURL, maxTurns, `)).toBe(true);
    expect(message).toMatch(/, permissionMode, permissions, .*\)$/);
    expect(message).not.toContain("modle,");
  });

  test("an unknown nested key is reported against its object", () => {
    const error = userError({ permissions: { alow: ["edit"] } });
    expect(error.message).toBe(
      `config error in ${ws.userFile}: "permissions": unknown key "alow" (known keys: allow, ask, deny)`,
    );
    expect(error.key).toBe("permissions.alow");
  });

  test("wrong types and ranges say what was expected and what was found", () => {
    expect(userError({ maxTurns: "ten" }).message).toBe(
      `config error in ${ws.userFile}: "maxTurns": expected an integer >= 1, got "ten"`,
    );
    expect(userError({ maxTokens: 0 }).message).toBe(
      `config error in ${ws.userFile}: "maxTokens": expected an integer >= 1, got 0`,
    );
    expect(userError({ model: "" }).message).toBe(`config error in ${ws.userFile}: "model": expected a model name, got ""`);
    expect(userError({ permissionMode: "yolo" }).message).toBe(
      `config error in ${ws.userFile}: "permissionMode": expected one of default, plan, accept-edits, auto, got "yolo"`,
    );
    expect(userError({ baseURL: "localhost:8080" }).message).toBe(
      `config error in ${ws.userFile}: "baseURL": expected an http(s) URL, got "localhost:8080"`,
    );
    expect(userError({ permissions: { ask: "bash" } }).message).toBe(
      `config error in ${ws.userFile}: "permissions.ask": expected a list of rules, got "bash"`,
    );
    expect(userError({ server: { origins: ["http://localhost:5173/"] } }).message).toBe(
      `config error in ${ws.userFile}: "server.origins[0]": expected an origin like http://localhost:5173, got "http://localhost:5173/"`,
    );
  });

  test("several problems are reported together on one line", () => {
    expect(userError({ maxTurns: 1.5, permissionMode: "yolo" }).message).toBe(
      `config error in ${ws.userFile}: "maxTurns": expected an integer >= 1, got 1.5; "permissionMode": expected one of default, plan, accept-edits, auto, got "yolo"`,
    );
  });

  test("secrets are never echoed back", () => {
    const error = userError({ server: { token: "hunter2" } });
    expect(error.message).toBe(
      `config error in ${ws.userFile}: "server.token": expected a token of at least 16 visible characters (letters, digits, punctuation; no spaces), got a string of 7 characters`,
    );
    expect(userError({ apiKey: "" }).message).toBe(
      `config error in ${ws.userFile}: "apiKey": expected an API key string, got a string of 0 characters`,
    );
  });

  test("the top level must be an object", () => {
    expect(userError([]).message).toBe(`config error in ${ws.userFile}: expected an object, got a list`);
    expect(userError({ permissions: null }).message).toBe(
      `config error in ${ws.userFile}: "permissions": expected an object, got null`,
    );
  });

  test("an empty file is an error with the fix", () => {
    expect(userError(" \n").message).toBe(`config error in ${ws.userFile}: empty file; delete it or write {}`);
  });

  test("a file that cannot be read is an error, not a silent default", () => {
    mkdirSync(ws.userFile);
    expect(thrown(() => ws.load()).message).toBe(`config error in ${ws.userFile}: it is a folder, not a regular file; replace it with a JSON file`);
  });
});

describe("files that are fine", () => {
  test("missing files are not sources and leave the defaults", () => {
    expect(ws.load()).toEqual({
      model: "claude-sonnet-5-5",
      configuredModel: "claude-sonnet-5-5",
      maxTurns: 100,
      permissionMode: "default",
      sandbox: "off",
      envPassthrough: [],
      foreignPermissions: [],
      rules: { user: [], project: [], flags: [], tail: [] },
      settingsEnv: {},
      directories: [],
      claudeFiles: [],
      opencodeAgents: [],
      opencodeCommands: [],
      extraInstructions: [],
      server: { origins: [], hosts: [] },
      providers: [],
      hooks: [],
      plugins: { user: {}, project: {} },
      mcpServers: [],
      memoryAuto: false,
      sources: [],
      warnings: [],
    });
  });

  test("memory.auto: the user's turns it on; a repository's only with trust, and it can always turn it off", () => {
    ws.writeUser({ memory: { auto: true } });
    expect(ws.load().memoryAuto).toBe(true);
    ws.writeUser({});
    ws.writeProject({ memory: { auto: true } });
    const untrusted = ws.load();
    expect(untrusted.memoryAuto).toBe(false);
    expect(untrusted.warnings.join("\n")).toContain("ignored memory.auto from");
    expect(ws.load({ overrides: { trust: true } }).memoryAuto).toBe(true);
    ws.writeUser({ memory: { auto: true } });
    ws.writeProject({ memory: { auto: false } });
    expect(ws.load().memoryAuto).toBe(false);
    ws.writeProject({ memory: { auto: "yes" } });
    expect(() => ws.load()).toThrow('"memory.auto": expected true or false, got "yes"');
  });

  test("a byte order mark and {} are accepted", () => {
    ws.writeUser("\uFEFF{}");
    ws.writeProject("{}");
    expect(ws.load().sources).toEqual([ws.userFile, ws.projectFile]);
  });

  test("a full user config is read", () => {
    ws.writeUser({
      model: "m",
      apiKey: "sk-test",
      baseURL: "http://127.0.0.1:9000",
      maxTurns: 7,
      maxTokens: 32000,
      permissionMode: "plan",
      permissions: { allow: ["edit"], ask: ["bash"], deny: ["bash(git push *)"] },
      server: { token: "0123456789abcdef", origins: ["http://localhost:5173"], hosts: ["rein.lan"] },
    });
    const config = ws.load();
    expect(config).toMatchObject({
      model: "m",
      apiKey: "sk-test",
      baseURL: "http://127.0.0.1:9000",
      maxTurns: 7,
      maxTokens: 32000,
      permissionMode: "plan",
      server: { token: "0123456789abcdef", origins: ["http://localhost:5173"], hosts: ["rein.lan"] },
      sources: [ws.userFile],
    });
    expect(config.rules.user).toEqual([
      { permission: "edit", pattern: "*", action: "allow" },
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "git push *", action: "deny" },
    ]);
  });
});

describe("teammateMode: where background workers run", () => {
  test('"in-process" or "tmux"; anything else names the key', () => {
    expect(ws.load().teammateMode).toBeUndefined();
    ws.writeUser({ teammateMode: "tmux" });
    expect(ws.load().teammateMode).toBe("tmux");
    for (const bad of ["auto", 1, true]) expect(userError({ teammateMode: bad }).key).toBe("teammateMode");
  });
});

describe("maxWorkers: how many background workers run at once", () => {
  test("a positive integer from the files; anything else is a one-line error naming the key", () => {
    expect(ws.load().maxWorkers).toBeUndefined();
    ws.writeUser({ maxWorkers: 2 });
    expect(ws.load().maxWorkers).toBe(2);
    for (const bad of [0, -1, 1.5, "4"]) expect(userError({ maxWorkers: bad }).key).toBe("maxWorkers");
  });
});

describe("maxCost: a positive number of US dollars", () => {
  test("bad values are one-line errors naming the file and the key", () => {
    for (const bad of [0, -1, "5", null]) {
      const error = userError({ maxCost: bad });
      expect(error.message).toStartWith(`config error in ${ws.userFile}: "maxCost": expected a positive number of US dollars, got `);
      expect(error.file).toBe(ws.userFile);
      expect(error.key).toBe("maxCost");
    }
  });

  test("it is read from the files, then REIN_MAX_COST, then --max-cost", () => {
    expect(ws.load().maxCost).toBeUndefined();
    ws.writeUser({ maxCost: 2.5 });
    expect(ws.load().maxCost).toBe(2.5);
    ws.writeProject({ maxCost: 1 });
    expect(ws.load().maxCost).toBe(1);
    expect(ws.load({ env: { REIN_MAX_COST: "0.25" } }).maxCost).toBe(0.25);
    expect(ws.load({ env: { REIN_MAX_COST: "0.25" }, overrides: { maxCost: 0.1 } }).maxCost).toBe(0.1);
  });

  test("a bad REIN_MAX_COST names the variable", () => {
    for (const bad of ["abc", "0", "-2"]) {
      const error = thrown(() => ws.load({ env: { REIN_MAX_COST: bad } }));
      expect(error.message).toStartWith("config error: REIN_MAX_COST: expected a positive number of US dollars, got ");
      expect(error.message).toContain(bad);
      expect(error.key).toBe("REIN_MAX_COST");
    }
  });
});
