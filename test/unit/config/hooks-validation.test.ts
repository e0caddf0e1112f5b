// A hooks section in rein's own config files is checked strictly: each mistake is one line naming
// the file, the exact key path and what was expected, with what was found; a good one loads as written.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { hookKeys } from "../../../src/config/hooks-schema.ts";
import { makeWorkspace, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());

const pre = (handler: unknown) => ({ PreToolUse: [{ matcher: "Bash", hooks: [handler] }] });
const stop = (handler: unknown) => ({ Stop: [{ hooks: [handler] }] });

const CASES: [string, unknown, string][] = [
  ["a command handler without its command", pre({ type: "command" }), '"hooks.PreToolUse[0].hooks[0]": missing key "command"'],
  ["an empty command", pre({ type: "command", command: "" }), '"hooks.PreToolUse[0].hooks[0].command": expected a command line or an executable, got ""'],
  ["a timeout of zero", pre({ type: "command", command: "x", timeout: 0 }), '"hooks.PreToolUse[0].hooks[0].timeout": expected a number of seconds > 0, got 0'],
  ["a shell rein does not run", pre({ type: "command", command: "x", shell: "zsh" }), '"hooks.PreToolUse[0].hooks[0].shell": expected bash or sh, got "zsh"'],
  ["a key no handler has", pre({ type: "command", command: "x", colour: 1 }), '"hooks.PreToolUse[0].hooks[0]": unknown key "colour"'],
  ["a matcher that is not a string", { PreToolUse: [{ matcher: 5, hooks: [] }] }, '"hooks.PreToolUse[0].matcher": expected a matcher string like "Bash" or "Edit|Write", got 5'],
  ["handlers that are not a list", { PreToolUse: [{ hooks: "x" }] }, '"hooks.PreToolUse[0].hooks": expected a list of handlers, got "x"'],
  ["an event whose groups are not a list", { PreToolUse: { hooks: [] } }, '"hooks.PreToolUse": expected a list of matcher groups, got {"hooks":[]}'],
  ["an http handler's URL of another scheme", stop({ type: "http", url: "ftp://x" }), '"hooks.Stop[0].hooks[0].url": expected an http(s) URL, got "ftp://x"'],
  ["a header value that is not a string", stop({ type: "http", url: "https://x", headers: { a: 1 } }), '"hooks.Stop[0].hooks[0].headers.a": expected a header value string, got 1'],
  ["a prompt handler without its prompt", stop({ type: "prompt" }), '"hooks.Stop[0].hooks[0]": missing key "prompt"'],
  ["an agent handler's empty model", stop({ type: "agent", prompt: "p", model: "" }), '"hooks.Stop[0].hooks[0].model": expected a model name, got ""'],
  ["an if that is not a rule", stop({ type: "command", command: "x", if: 3 }), '"hooks.Stop[0].hooks[0].if": expected a permission rule like Bash(rm *), got 3'],
  ["async as a word", stop({ type: "command", command: "x", async: "yes" }), '"hooks.Stop[0].hooks[0].async": expected true or false, got "yes"'],
  ["args as one string", stop({ type: "command", command: "x", args: "a b" }), '"hooks.Stop[0].hooks[0].args": expected a list of arguments, got "a b"'],
  ["a handler written as a bare command", stop("echo hi"), '"hooks.Stop[0].hooks[0]": expected a handler with "type" one of command, http, prompt, agent, got "echo hi"'],
  ["hooks that are not an object", "not an object", '"hooks": expected an object of hook events, got "not an object"'],
  ["a matcher group with another key", { Stop: [{ hooks: [{ type: "command", command: "x" }], extra: 1 }] }, '"hooks.Stop[0]": unknown key "extra"'],
];

for (const [what, hooks, message] of CASES) {
  test(`${what}: one line naming the key`, () => {
    ws.writeUser({ hooks });
    let error: Error | undefined;
    try {
      ws.load();
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toBe(`config error in ${ws.userFile}: ${message}`);
  });
}

test("a good hooks section loads as written, every handler type with its options", () => {
  const hooks = {
    PreToolUse: [{ matcher: "Bash|Edit", hooks: [{ type: "command", command: "./check.sh", args: ["--strict"], shell: "bash", timeout: 5, if: "Bash(rm *)", statusMessage: "checking" }] }],
    PostToolUse: [{ hooks: [{ type: "http", url: "https://hooks.example/post", headers: { "x-team": "core" }, allowedEnvVars: ["TEAM_TOKEN"] }] }],
    Stop: [{ hooks: [{ type: "prompt", prompt: "Is the task done?", model: "haiku" }, { type: "command", command: "notify", async: true }] }],
    SubagentStop: [{ hooks: [{ type: "agent", prompt: "Review the subagent's work" }] }],
  };
  ws.writeUser({ hooks });
  ws.writeProject({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo project" }] }] } });
  expect(ws.load().hooks as unknown[]).toEqual([
    { file: ws.userFile, scope: "user", hooks },
    { file: ws.projectFile, scope: "project", hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo project" }] }] } },
  ]);
});

test("hookKeys() lists the keys each handler type takes, for the Claude Code reader's per-group checks", () => {
  expect(hookKeys().group).toEqual(["matcher", "hooks"]);
  expect(hookKeys().command).toEqual(expect.arrayContaining(["type", "command", "args", "shell", "async", "asyncRewake", "rewakeMessage", "timeout", "statusMessage", "if"]));
  expect(hookKeys().http).toEqual(expect.arrayContaining(["type", "url", "headers", "allowedEnvVars", "timeout"]));
  expect(hookKeys().prompt).toEqual(["type", "prompt", "model", "timeout", "statusMessage", "if"]);
  expect(hookKeys().agent).toEqual(["type", "prompt", "model", "timeout", "statusMessage", "if"]);
  expect(hookKeys().command).not.toContain("url");
});
