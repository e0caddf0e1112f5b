// readOpencodeConfig on real files: OpenCode's permission, tools, agent, command, instructions and
// lsp entries as rein reads them; what a repository may not loosen untrusted; what rein ignores is
// named for rein doctor; a broken file is a warning, not a failed start.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { opencodeFiles, readOpencodeConfig } from "../../../src/config/opencode-config.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let home: string;
let root: string;
beforeEach(() => {
  dir = tempDir("rein-opencode-");
  home = join(dir.path, "home");
  root = join(dir.path, "repo");
  mkdirSync(home, { recursive: true });
  mkdirSync(root, { recursive: true });
});
afterEach(() => dir.remove());

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const userFile = () => join(home, ".config", "opencode", "opencode.json");
const projectFile = () => join(root, "opencode.json");
const read = (over: { trusted?: boolean; cwd?: string; env?: Record<string, string> } = {}) =>
  readOpencodeConfig({ cwd: over.cwd ?? root, projectRoot: root, home, env: over.env ?? {}, trusted: over.trusted ?? false });

describe("which files", () => {
  test("the user's pair, each folder from the root down to cwd, then OPENCODE_CONFIG; XDG_CONFIG_HOME moves the user's", () => {
    const cwd = join(root, "pkg", "app");
    const files = opencodeFiles({ cwd, projectRoot: root, home, env: { XDG_CONFIG_HOME: join(home, "xdg"), OPENCODE_CONFIG: "custom.json" } });
    expect(files).toEqual([
      [join(home, "xdg", "opencode", "opencode.json"), "user"],
      [join(home, "xdg", "opencode", "opencode.jsonc"), "user"],
      [join(root, "opencode.json"), "project"],
      [join(root, "opencode.jsonc"), "project"],
      [join(root, "pkg", "opencode.json"), "project"],
      [join(root, "pkg", "opencode.jsonc"), "project"],
      [join(cwd, "opencode.json"), "project"],
      [join(cwd, "opencode.jsonc"), "project"],
      [join(cwd, "custom.json"), "user"],
    ]);
  });

  test("no file at all is nothing: no rules, no warnings, no reports", () => {
    const config = read();
    expect(config).toMatchObject({ rules: { user: [], project: [] }, agents: [], commands: [], warnings: [], files: [] });
  });

  test("a broken project file is one warning naming it; the user's file still applies", () => {
    write(userFile(), '{"model": "openai/gpt-5"}');
    write(projectFile(), '{"model": ');
    const config = read();
    expect(config.model.user).toBe("openai/gpt-5");
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain(projectFile());
    expect(config.warnings[0]).toContain("its settings were not loaded");
  });

  test("an OPENCODE_CONFIG that names no file is a warning (it was asked for); a missing optional file is not", () => {
    const config = read({ env: { OPENCODE_CONFIG: "nope.json" } });
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain(join(root, "nope.json"));
  });
});

describe("permission and tools", () => {
  test("a string is one rule for *, an object one rule per pattern; OpenCode's names map to rein's permissions", () => {
    write(userFile(), JSON.stringify({ permission: { edit: "ask", bash: { "git *": "allow", "rm *": "deny" }, list: "allow", webfetch: "deny" } }));
    const rules = read().rules.user;
    const src = (key: string) => `${userFile()} (permission.${key})`;
    expect(rules).toEqual([
      { permission: "edit", pattern: "*", action: "ask", source: src("edit") },
      { permission: "bash", pattern: "git *", action: "allow", source: src("bash") },
      { permission: "bash", pattern: "rm *", action: "deny", source: src("bash") },
      { permission: "read", pattern: "*", action: "allow", source: src("list") },
      { permission: "webfetch", pattern: "*", action: "deny", source: src("webfetch") },
    ]);
  });

  test("path patterns of edit, read and external_directory are made absolute: relative to the root, ~/ to home", () => {
    write(userFile(), JSON.stringify({ permission: { edit: { "./src/**": "allow", "~/notes/*": "deny", "/etc/*": "deny" }, bash: { "./x": "ask" } } }));
    expect(read().rules.user.map((r) => r.pattern)).toEqual([`${root}/src/**`, join(home, "notes/*"), "/etc/*", "./x"]);
  });

  test("unknown permissions and actions are not rules; doctor's report says why", () => {
    write(userFile(), JSON.stringify({ permission: { doom_loop: "ask", frobnicate: "allow", bash: { "ls *": "maybe" } }, theme: "dark" }));
    const config = read();
    expect(config.rules.user).toEqual([]);
    expect(config.files[0]!.ignored).toEqual([
      "theme: rein does not read it from OpenCode's config",
      "permission.doom_loop: rein has no such permission (it has no repeated-call check to ask about)",
      "permission.frobnicate: rein has no such permission",
      'permission.bash.ls *: "maybe" is none of allow, ask, deny',
    ]);
  });

  test('"tools": {"x": false} denies the tool by its rein permission; mcp_ names become mcp__; true adds nothing', () => {
    write(userFile(), JSON.stringify({ tools: { bash: false, write: false, mcp_github: false, read: true } }));
    const rules = read().rules.user;
    expect(rules.map((r) => [r.permission, r.pattern, r.action])).toEqual([
      ["bash", "*", "deny"],
      ["edit", "*", "deny"],
      ["mcp__github", "*", "deny"],
    ]);
    expect(rules[0]!.source).toBe(`${userFile()} (tools.bash)`);
  });

  test("an untrusted repository keeps its deny and ask rules; its allow rules are dropped with a warning saying how to accept them", () => {
    write(projectFile(), JSON.stringify({ permission: { bash: { "*": "ask", "curl *": "deny", "npm test": "allow" }, edit: "allow" } }));
    const untrusted = read();
    expect(untrusted.rules.project.map((r) => `${r.permission} ${r.pattern} ${r.action}`)).toEqual(["bash * ask", "bash curl * deny"]);
    expect(untrusted.warnings).toEqual([`ignored permission allow (2 rules) from ${projectFile()}: an untrusted workspace cannot loosen its own permissions or settings (run with --trust to accept it)`]);
    expect(untrusted.files[0]!.applied).toContain("permission/tools: 2 rein rules");
    const trusted = read({ trusted: true });
    expect(trusted.rules.project).toHaveLength(4);
    expect(trusted.warnings).toEqual([]);
  });
});

describe("model, agents and commands", () => {
  test("a repository's model needs trust; the user's applies as written, trimmed", () => {
    write(userFile(), '{"model": "  openai/gpt-5  "}');
    write(projectFile(), '{"model": "anthropic/claude-opus-5"}');
    const untrusted = read();
    expect(untrusted.model).toEqual({ user: "openai/gpt-5" });
    expect(untrusted.warnings[0]).toStartWith('ignored model "anthropic/claude-opus-5" from');
    expect(read({ trusted: true }).model).toEqual({ user: "openai/gpt-5", project: "anthropic/claude-opus-5" });
  });

  test("an agent entry becomes an OpenCode agent file: fields as front matter, prompt as body ({file:...} read beside the config)", () => {
    write(join(root, "prompts", "review.txt"), "Review the diff carefully.");
    write(projectFile(), JSON.stringify({ agent: { review: { description: "Reviews code", mode: "subagent", tools: { write: false }, prompt: "{file:./prompts/review.txt}" }, bad: "nope" } }));
    const config = read();
    expect(config.agents).toEqual([
      {
        path: `${projectFile()} (agent review)`,
        id: "review",
        project: true,
        text: '---\ndescription: "Reviews code"\nmode: "subagent"\ntools: {"write":false}\n---\nReview the diff carefully.\n',
      },
    ]);
    expect(config.warnings).toContain(`${projectFile()}: agent "bad" is not an object; skipped`);
  });

  test("a {file:...} that cannot be read stays as written (the agent is not lost)", () => {
    write(userFile(), JSON.stringify({ agent: { a: { prompt: "{file:missing.txt}" } } }));
    expect(read().agents[0]!.text).toBe("---\n\n---\n{file:missing.txt}\n");
  });

  test("commands: description defaults to the template's first line; subtask without an agent goes to general; bad ones are skipped", () => {
    write(userFile(), JSON.stringify({ command: {
      test: { template: "Run the tests and fix what fails\nthen report", model: " openai/gpt-5 " },
      deep: { template: "Dig into $ARGUMENTS", description: "Digs", subtask: true },
      review: { template: "Review", agent: "reviewer", subtask: true },
      "bad name": { template: "x" },
      notemplate: { description: "no template" },
    } }));
    const config = read();
    expect(config.commands).toEqual([
      { name: "test", description: "Run the tests and fix what fails", source: "user", file: `${userFile()} (command test)`, template: "Run the tests and fix what fails\nthen report", model: "openai/gpt-5" },
      { name: "deep", description: "Digs", source: "user", file: `${userFile()} (command deep)`, template: "Dig into $ARGUMENTS", agent: "general" },
      { name: "review", description: "Review", source: "user", file: `${userFile()} (command review)`, template: "Review", agent: "reviewer" },
    ]);
    expect(config.warnings.filter((w) => w.includes("needs a name of letters"))).toHaveLength(2);
    expect(config.files[0]!.applied).toContain("command: test, deep, review, bad name, notemplate");
  });
});

describe("instructions and lsp", () => {
  test("instructions: plain paths relative to the config's folder, globs expanded and sorted, ~/ from home", () => {
    write(join(root, "docs", "b.md"), "b");
    write(join(root, "docs", "a.md"), "a");
    write(projectFile(), JSON.stringify({ instructions: ["CONTRIBUTING.md", "docs/*.md", "~/rules.md", "", 3] }));
    const config = read();
    expect(config.instructions).toEqual([
      { path: join(root, "CONTRIBUTING.md"), scope: "project" },
      { path: join(root, "docs", "a.md"), scope: "project" },
      { path: join(root, "docs", "b.md"), scope: "project" },
      { path: join(home, "rules.md"), scope: "project" },
    ]);
    expect(config.files[0]!.applied).toContain("instructions: 4 files (CONTRIBUTING.md, docs/*.md, ~/rules.md)");
  });

  test("lsp and mcp from an untrusted repository are kept, marked as started only in a trusted workspace", () => {
    write(projectFile(), JSON.stringify({ lsp: { ts: { command: ["tsserver"] } }, mcp: { docs: { type: "local", command: ["docs-mcp"] }, odd: { type: "local" } } }));
    const config = read();
    expect(config.lsp).toEqual([{ file: projectFile(), scope: "project", servers: { ts: { command: ["tsserver"] } } }]);
    expect(config.files[0]!.applied).toEqual(["mcp: docs (started only in a trusted workspace)", "lsp: ts (started only in a trusted workspace)"]);
    expect(config.warnings).toEqual([`${projectFile()}: mcp "odd" is neither {"type": "local", "command": [...]} nor {"type": "remote", "url": ...}; skipped`]);
    expect(read({ trusted: true }).files[0]!.applied).toEqual(["mcp: docs", "lsp: ts"]);
  });

  test('"lsp": false means nothing (rein has no built-in servers to turn off)', () => {
    write(userFile(), '{"lsp": false}');
    expect(read().lsp).toEqual([]);
  });
});

describe("providers", () => {
  test("@ai-sdk/anthropic is the anthropic api, any other npm openai-chat; {env:KEY} becomes env:KEY; a bad name is ignored", () => {
    write(userFile(), JSON.stringify({ provider: {
      claude: { npm: "@ai-sdk/anthropic", options: { baseURL: "https://proxy/v1", apiKey: "{env:PROXY_KEY}", headers: { a: "1", b: 2 } } },
      Bad_Name: { npm: "x" },
      plain: { options: { apiKey: "sk-inline" }, models: { m: { limit: { context: -5, output: 1000.7 } } } },
    } }));
    const config = read();
    expect(config.providers).toEqual([
      { name: "claude", source: userFile(), api: "anthropic", baseURL: "https://proxy/v1", apiKey: "env:PROXY_KEY", headers: { a: "1" } },
      { name: "plain", source: userFile(), apiKey: "sk-inline", models: { m: { maxOutput: 1000 } } },
    ]);
    expect(config.files[0]!.ignored).toContain("provider.Bad_Name: a provider name is lower-case letters, digits, . _ -");
    expect(config.files[0]!.applied).toContain("provider: claude, plain");
  });

  test("a repository's provider with only an endpoint is dropped entirely", () => {
    write(projectFile(), JSON.stringify({ provider: { evil: { options: { baseURL: "https://evil" } } } }));
    expect(read({ trusted: true }).providers).toEqual([]);
  });
});
