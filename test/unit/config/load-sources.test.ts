// loadConfig on real files for what the other config tests leave out: Claude Code's
// --allowedTools/--disallowedTools, the rules' tail and where each rule says it came from, webSearch
// and what trust gates of it, the language servers' order, memory, --add-dir and the sources read.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace, type Workspace } from "./workspace.ts";

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.remove());

test("--allowedTools entries (space or comma lists) become flag rules naming the flag; one it cannot read is a warning", () => {
  const config = ws.load({ overrides: { claudeAllow: ["Bash(git:*) Edit", "Read,Grep", "Nope(x"] } });
  expect(config.rules.flags.map((r) => [r.permission, r.pattern, r.action, (r as { source?: string }).source])).toEqual([
    ["bash", "git *", "allow", "--allowedTools Bash(git:*)"],
    ["edit", "*", "allow", "--allowedTools Edit"],
    ["read", "*", "allow", "--allowedTools Read"],
    ["read", "*", "allow", "--allowedTools Grep"],
  ]);
  expect(config.warnings).toContain('--allowedTools "Nope(x" was not applied: missing the closing parenthesis at the end');
});

test("--disallowedTools go to the tail, after every allow, so no allow rule can lift them", () => {
  const config = ws.load({ overrides: { claudeDeny: ["WebFetch(domain:evil.com)"], allow: ["webfetch(*)"] } });
  const tail = config.rules.tail;
  expect(tail.every((r) => r.action === "deny" && (r as { source?: string }).source === "--disallowedTools WebFetch(domain:evil.com)")).toBe(true);
  expect(tail.map((r) => r.pattern)).toEqual(["https://evil.com", "https://evil.com/*", "http://evil.com", "http://evil.com/*"]);
  expect(config.rules.flags).toContainEqual(expect.objectContaining({ permission: "webfetch", pattern: "*", action: "allow" }));
});

test("with a Claude Code deny in force, rein's own denies are repeated after it under the file they came from", () => {
  ws.writeUser({ permissions: { deny: ["bash(rm *)"] } });
  ws.writeProject({ permissions: { ask: ["bash(*)"] } });
  const config = ws.load({ overrides: { claudeDeny: ["Bash(curl:*)"], deny: ["edit(/etc/*)"] } });
  // an untrusted project's ask comes after the user's deny: the user's deny is repeated after it
  expect(config.rules.project as unknown[]).toEqual([
    { permission: "bash", pattern: "*", action: "ask" },
    { permission: "bash", pattern: "rm *", action: "deny", source: "user config (kept over the untrusted project's)" },
  ]);
  expect(config.rules.tail.map((r) => `${r.permission}(${r.pattern}) ${(r as { source?: string }).source}`)).toEqual([
    "bash(rm *) user config",
    // the user's deny repeated among the project's rules is still the user's, not the project's
    "bash(rm *) user config (kept over the untrusted project's)",
    "edit(/etc/*) command line",
    "bash(curl *) --disallowedTools Bash(curl:*)",
  ]);
});

test("no Claude Code asks or denies: no tail at all", () => {
  ws.writeUser({ permissions: { deny: ["bash(rm *)"] } });
  expect(ws.load().rules.tail).toEqual([]);
});

test("webSearch: the user's applies; an untrusted project's is ignored with a warning; a trusted project's wins", () => {
  ws.writeUser({ webSearch: { url: "https://searx.example/search" } });
  ws.writeProject({ webSearch: { server: true } });
  const untrusted = ws.load();
  expect(untrusted.webSearch).toEqual({ url: "https://searx.example/search" });
  expect(untrusted.warnings).toContain(`ignored webSearch from ${ws.projectFile}: an untrusted workspace cannot choose where your searches are sent (run with --trust to accept it)`);
  const trusted = ws.load({ overrides: { trust: true } });
  expect(trusted.webSearch).toEqual({ server: true });
  expect(trusted.warnings.join("\n")).not.toContain("webSearch");
});

test("a webSearch that names neither a URL nor the server's search is an error naming the fix", () => {
  ws.writeUser({ webSearch: { allowedDomains: ["docs.example"] } });
  expect(() => ws.load()).toThrow('webSearch needs "url" (a SearXNG JSON API) or "server": true');
});

test("no webSearch anywhere: none in the config", () => {
  expect(ws.load()).not.toHaveProperty("webSearch");
});

test("language servers: OpenCode's user file, rein's user file, OpenCode's project file, rein's project file, in that order", () => {
  ws.writeUser({ lsp: { ts: { command: ["typescript-language-server", "--stdio"] } } });
  ws.writeProject({ lsp: { py: { command: ["pyright-langserver", "--stdio"] } } });
  const opencodeUser = join(ws.env.HOME!, ".config", "opencode", "opencode.json");
  mkdirSync(join(ws.env.HOME!, ".config", "opencode"), { recursive: true });
  writeFileSync(opencodeUser, JSON.stringify({ lsp: { go: { command: ["gopls"] } } }));
  writeFileSync(join(ws.project, "opencode.json"), JSON.stringify({ lsp: { rust: { command: ["rust-analyzer"] } } }));
  const config = ws.load();
  expect(config.lsp?.map((l) => [l.file, l.scope, Object.keys(l.servers)])).toEqual([
    [opencodeUser, "user", ["go"]],
    [ws.userFile, "user", ["ts"]],
    [join(ws.project, "opencode.json"), "project", ["rust"]],
    [ws.projectFile, "project", ["py"]],
  ]);
});

test("no language server configured: no lsp key (nothing is started or loaded)", () => {
  expect(ws.load()).not.toHaveProperty("lsp");
});

test("memory.auto: the project's choice over the user's, off by default", () => {
  expect(ws.load().memoryAuto).toBe(false);
  ws.writeUser({ memory: { auto: true } });
  expect(ws.load().memoryAuto).toBe(true);
  ws.writeProject({ memory: { auto: false } });
  expect(ws.load().memoryAuto).toBe(false);
});

test("--add-dir folders resolve against cwd, ~ against home; sources list the rein files that exist", () => {
  const config = ws.load({ overrides: { addDirs: ["~/shared", "../other", "/abs/dir", "~"] } });
  expect(config.directories).toEqual([join(ws.env.HOME!, "shared"), join(ws.project, "..", "other"), "/abs/dir", ws.env.HOME!]);
  expect(config.sources).toEqual([]);
  ws.writeProject({ model: "claude-opus-5-5" });
  expect(ws.load().sources).toEqual([ws.projectFile]);
  ws.writeUser({});
  expect(ws.load().sources).toEqual([ws.userFile, ws.projectFile]);
});

test("MCP servers of rein's files and OpenCode's come in file order, each with its file and scope", () => {
  ws.writeUser({ mcpServers: { docs: { command: "docs-mcp" } } });
  ws.writeProject({ mcpServers: { db: { command: "db-mcp" } } });
  writeFileSync(join(ws.project, "opencode.json"), JSON.stringify({ mcp: { search: { type: "remote", url: "https://s.example/mcp" } } }));
  expect(ws.load().mcpServers.map((m) => [m.file, m.scope, Object.keys(m.servers)])).toEqual([
    [ws.userFile, "user", ["docs"]],
    [ws.projectFile, "project", ["db"]],
    [join(ws.project, "opencode.json"), "project", ["search"]],
  ]);
});
