import { describe, expect, test } from "bun:test";
import { lspConfigs, parseLspEntry, serverFor } from "../../../src/lsp/config.ts";
import { diagnosticLines } from "../../../src/lsp/diagnostics.ts";

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
