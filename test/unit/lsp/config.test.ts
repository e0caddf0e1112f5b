import { describe, expect, test } from "bun:test";
import { lspConfigs, parseLspEntry, serverFor } from "../../../src/lsp/config.ts";
import { diagnosticLines } from "../../../src/lsp/diagnostics.ts";
import { lspSession } from "../../../src/lsp/session.ts";

describe("language server entries", () => {
  test("Claude Code's .lsp.json shape is read whole", () => {
    expect(parseLspEntry({ command: "tls", args: ["--stdio"], extensionToLanguage: { ".ts": "typescript" }, env: { A: "1" }, initializationOptions: { x: 1 }, startupTimeout: 5000 })).toEqual({
      command: "tls",
      args: ["--stdio"],
      extensionToLanguage: { ".ts": "typescript" },
      env: { A: "1" },
      initializationOptions: { x: 1 },
      startupTimeout: 5000,
    });
  });

  test("OpenCode's shape (command as one list, extensions) becomes the same entry", () => {
    expect(parseLspEntry({ command: ["pyright-langserver", "--stdio"], extensions: [".py"] })).toEqual({ command: "pyright-langserver", args: ["--stdio"], extensionToLanguage: { ".py": "python" } });
  });

  test("a bad entry is a sentence naming the field", () => {
    expect(parseLspEntry({ args: [] })).toContain("command:");
    expect(parseLspEntry({ command: "x", extensionToLanguage: { ts: "typescript" } })).toContain("extensionToLanguage:");
    expect(parseLspEntry({ command: "x", extensionToLanguage: { ".ts": "typescript" }, transport: "socket" })).toContain("only stdio");
    expect(parseLspEntry({ command: "x", extensionToLanguage: { ".ts": "t" }, args: "--stdio" })).toContain("args:");
    expect(parseLspEntry("typescript-language-server")).toContain("expected an object");
  });

  test("a project's servers start only in a trusted workspace; the nearer source wins a name", () => {
    const ts = { command: "tls", extensionToLanguage: { ".ts": "typescript" } };
    const sources = [
      { file: "user.json", scope: "user" as const, servers: { ts, py: { command: "pyls", extensionToLanguage: { ".py": "python" } } } },
      { file: "project.json", scope: "project" as const, servers: { ts: { ...ts, command: "project-tls" } } },
    ];
    const untrusted = lspConfigs(sources, false);
    expect(untrusted.find((c) => c.name === "ts")).toMatchObject({ source: "project.json", problem: expect.stringContaining("not trusted") });
    expect(serverFor(untrusted, "/w/a.ts")).toBeUndefined();
    expect(serverFor(untrusted, "/w/a.py")?.config.name).toBe("py");
    const trusted = lspConfigs(sources, true);
    expect(serverFor(trusted, "/w/src/A.TS")).toMatchObject({ languageId: "typescript", config: { entry: { command: "project-tls" } } });
    expect(serverFor(trusted, "/w/README")).toBeUndefined();
  });
});

describe("/lsp before any server started", () => {
  test("a session that loaded no hub lists each server as not started, or failed with its config's problem", () => {
    const sources = [
      { file: "user.json", scope: "user" as const, servers: { py: { command: "pyls", extensionToLanguage: { ".py": "python", ".pyi": "python" } } } },
      { file: "project.json", scope: "project" as const, servers: { ts: { command: "tls", extensionToLanguage: { ".ts": "typescript" } } } },
    ];
    const s = lspSession({ configs: lspConfigs(sources, false), root: "/w", cwd: "/w", env: {}, logDir: "/tmp/none" });
    expect(s?.status()).toEqual([
      { name: "py", source: "user.json", state: "not started", languages: ["python"] },
      { name: "ts", source: "project.json", state: "failed", detail: expect.stringContaining("not trusted"), languages: [] },
    ]);
  });
});

describe("what the model reads of diagnostics", () => {
  const d = (line: number, message: string) => ({ range: { start: { line, character: 0 } }, severity: 1, code: 2322, source: "typescript", message });
  test("one line each, relative paths, TS codes, at most 20 and a count of the rest", () => {
    const many = Array.from({ length: 23 }, (_, i) => d(i, `problem ${i}\nsecond line`));
    const lines = diagnosticLines([{ uri: "file:///w/src/a.ts", diagnostics: many }], "/w");
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe("src/a.ts:1:1: error TS2322: problem 0");
    expect(lines.at(-1)).toBe("...and 3 more");
  });
});

describe("OpenCode's lsp section", () => {
  test("opencode.json's servers reach the session's list in OpenCode's shape; a project's only with trust", async () => {
    const { mkdtempSync, writeFileSync, mkdirSync, realpathSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const { loadConfig } = await import("../../../src/config/load.ts");
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "rein-oc-lsp-")));
    const home = join(dir, "home");
    const project = join(dir, "project");
    mkdirSync(join(home, ".config", "opencode"), { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    writeFileSync(join(home, ".config", "opencode", "opencode.json"), JSON.stringify({ lsp: { pyright: { command: ["pyright-langserver", "--stdio"], extensions: [".py"] } } }));
    writeFileSync(join(project, "opencode.jsonc"), '{ // the team\'s\n "lsp": { "gopls": { "command": ["gopls"], "extensions": [".go"] } } }');
    const env = { HOME: home, REIN_CONFIG_DIR: join(dir, "config"), REIN_DATA_DIR: join(dir, "data") };
    const read = (trust: boolean) => lspConfigs(loadConfig({ cwd: project, projectRoot: project, env, overrides: { trust } }).lsp ?? [], trust);
    expect(serverFor(read(false), "/x/a.py")).toMatchObject({ languageId: "python", config: { entry: { command: "pyright-langserver", args: ["--stdio"] } } });
    expect(read(false).find((c) => c.name === "gopls")?.problem).toContain("not trusted");
    expect(serverFor(read(true), "/x/main.go")?.config.entry.command).toBe("gopls");
  });
});
