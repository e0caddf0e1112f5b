// The lsp tool against our fake language server (test/fake/fake-lsp.ts), started by a real hub: each
// operation's answer as the model reads it (1-based positions, paths below the root), Claude Code's
// operation names, LocationLinks, the limits and every failure as an error result that says what to do.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { lspConfigs } from "../../../src/lsp/config.ts";
import { LspHub } from "../../../src/lsp/hub.ts";
import { lspTool } from "../../../src/lsp/lsp-tool.ts";
import type { Tool } from "../../../src/sdk.ts";
import { toolContext, toolOutcome } from "../../support/tool-context.ts";
import { FAKE_LSP, lspCleanup } from "../../support/lsp-rig.ts";

const FAKE = FAKE_LSP;
const { dirs, hubs } = lspCleanup();

function setup(mode = "ok", entry: Record<string, unknown> = {}, waitMs = 10_000) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-lsp-tool-")));
  dirs.push(root);
  const configs = lspConfigs([{ file: "test", scope: "user", servers: { fake: { command: process.execPath, args: [FAKE, mode], extensionToLanguage: { ".x": "x" }, ...entry } } }], true);
  const hub = new LspHub({ configs, root, env: { PATH: process.env.PATH ?? "" }, logDir: join(root, ".logs"), waitMs: 10_000 });
  hubs.push(hub);
  const tool = lspTool(() => Promise.resolve(hub), root, waitMs);
  const call = async (input: Record<string, unknown>) => toolOutcome(await tool.run(v.parse(tool.input, input) as never, toolContext(root)));
  const file = (name: string, text: string) => {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  };
  return { root, hub, tool, call, file };
}

const CODE = "fn main\n  let total\n  let count\nfn helper\n  use total here\nfn other\n";

test("definition: the first occurrence of the word, 1-based, as a path below the root", async () => {
  const { call, file } = setup();
  file("src/a.x", CODE);
  expect(await call({ operation: "definition", path: "src/a.x", line: 5, character: 8 })).toEqual({ output: "src/a.x:2:7", isError: false, metadata: undefined });
});

test("Claude Code's operation names work, and LocationLinks are read as locations", async () => {
  const { call, file } = setup("links");
  file("a.x", CODE);
  expect((await call({ operation: "goToDefinition", path: "a.x", line: 5, character: 8 })).output).toBe("a.x:2:7");
  expect((await call({ operation: "findReferences", path: "a.x", line: 2, character: 9 })).output).toBe("a.x:2:7\na.x:5:7");
});

test("references across the open files; a file outside the root keeps its absolute path", async () => {
  const { root, call, file } = setup();
  file("a.x", CODE);
  file("b.x", "uses total\n");
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "rein-lsp-outside-")));
  dirs.push(outside);
  writeFileSync(join(outside, "c.x"), "total\n");
  await call({ operation: "hover", path: "b.x", line: 1, character: 1 }); // opens b.x
  await call({ operation: "hover", path: join(outside, "c.x"), line: 1, character: 1 }); // opens c.x
  const found = await call({ operation: "references", path: "a.x", line: 2, character: 7 });
  expect(found.output.split("\n").sort()).toEqual(["a.x:2:7", "a.x:5:7", "b.x:1:6", `${join(outside, "c.x")}:1:1`].sort());
  expect(found.output).not.toContain(root);
});

test("no definition and no references are said so", async () => {
  const { call, file } = setup();
  file("a.x", "one two\n\n");
  expect((await call({ operation: "definition", path: "a.x", line: 2, character: 1 })).output).toBe("No definition found.");
  expect((await call({ operation: "references", path: "a.x", line: 2, character: 1 })).output).toBe("No references found.");
});

test("more than 100 references: the first 100 and how many more", async () => {
  const { call, file } = setup();
  file("many.x", "word\n".repeat(130));
  const lines = (await call({ operation: "references", path: "many.x", line: 1, character: 1 })).output.split("\n");
  expect(lines).toHaveLength(101);
  expect(lines[99]).toBe("many.x:100:1");
  expect(lines[100]).toBe("...and 30 more");
});

test("hover joins the parts of its contents; none is said so; a server error is an error result", async () => {
  const { call, file } = setup();
  file("h.x", "alpha EMPTY THROW\n");
  expect((await call({ operation: "hover", path: "h.x", line: 1, character: 2 })).output).toBe("the word alpha\n\nalpha: thing");
  expect((await call({ operation: "hover", path: "h.x", line: 1, character: 8 })).output).toBe("No hover information at that position.");
  expect(await call({ operation: "hover", path: "h.x", line: 1, character: 14 })).toMatchObject({ isError: true, output: "The language server could not answer hover: hover failed on purpose" });
});

test("document symbols are a tree with kinds and lines; workspace symbols filter by the query over the open files", async () => {
  const { call, file } = setup();
  file("a.x", CODE);
  file("b.x", "fn helper_two\n");
  expect((await call({ operation: "document_symbols", path: "a.x" })).output).toBe(
    ["function main a.x:1", "  variable total a.x:2", "  variable count a.x:3", "function helper a.x:4", "function other a.x:6"].join("\n"),
  );
  await call({ operation: "document_symbols", path: "b.x" });
  expect((await call({ operation: "workspace_symbols", path: "a.x", query: "helper" })).output.split("\n").sort()).toEqual(["function helper a.x:4", "function helper_two b.x:1"]);
  expect((await call({ operation: "workspace_symbols", path: "a.x", query: "nothing-like-it" })).output).toBe("No symbols found.");
  file("empty.x", "plain text\n");
  expect((await call({ operation: "document_symbols", path: "empty.x" })).output).toBe("No symbols found.");
});

test("diagnostics: every one of the file as a line; a clean file says none", async () => {
  const { call, file } = setup();
  file("d.x", "ok\n  BAD one\nBAD two\n");
  expect((await call({ operation: "diagnostics", path: "d.x" })).output).toBe("d.x:2:3: error F1: BAD is not allowed\nd.x:3:1: error F1: BAD is not allowed");
  file("d.x", "ok\n");
  expect((await call({ operation: "diagnostics", path: "d.x" })).output).toBe("No diagnostics for d.x.");
});

test("diagnostics pulled from a server that offers textDocument/diagnostic", async () => {
  const { call, file } = setup("pull");
  file("p.x", "BAD\n");
  expect((await call({ operation: "diagnostics", path: "p.x" })).output).toBe("p.x:1:1: error F1: BAD is not allowed");
});

test("a server that never publishes: the diagnostics operation says it waited", async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-lsp-tool-")));
  dirs.push(root);
  const configs = lspConfigs([{ file: "test", scope: "user", servers: { fake: { command: process.execPath, args: [FAKE, "silent"], extensionToLanguage: { ".x": "x" } } } }], true);
  const hub = new LspHub({ configs, root, env: { PATH: process.env.PATH ?? "" }, logDir: join(root, ".logs"), waitMs: 10_000 });
  hubs.push(hub);
  const tool = lspTool(() => Promise.resolve(hub), root, 1500);
  writeFileSync(join(root, "s.x"), "BAD\n");
  // started beforehand with time to spare: the tool's short wait is the diagnostics', not the start's
  expect(await hub.clientFor(join(root, "s.x"), Date.now() + 20_000)).toHaveProperty("client");
  const result = toolOutcome(await tool.run(v.parse(tool.input, { operation: "diagnostics", path: "s.x" }) as never, toolContext(root)));
  expect(result).toMatchObject({ isError: true, output: "The language server did not report diagnostics within 2 s." });
});

test("the settings of the entry answer the server's workspace/configuration", async () => {
  const { call, file } = setup("config", { settings: { fake: { strict: true } } });
  file("c.x", "x\n");
  expect((await call({ operation: "diagnostics", path: "c.x" })).output).toBe('c.x:1:1: error: settings {"fake":{"strict":true}}');
});

test("a position operation without a line says what it needs", async () => {
  const { call, file } = setup();
  file("a.x", CODE);
  for (const operation of ["definition", "references", "hover"]) {
    expect(await call({ operation, path: "a.x" })).toMatchObject({ isError: true, output: `${operation} needs line and character (1-based, as read shows them).` });
  }
});

test("a file no server takes, a missing file and a server that cannot start are error results naming them", async () => {
  const { call, file } = setup();
  file("notes.md", "# notes\n");
  expect(await call({ operation: "hover", path: "notes.md", line: 1, character: 1 })).toMatchObject({
    isError: true,
    output: 'No language server is configured for notes.md (see rein doctor; servers come from the "lsp" config key and plugins\' .lsp.json).',
  });
  const missing = await call({ operation: "document_symbols", path: "gone.x" });
  expect(missing.isError).toBe(true);
  expect(missing.output).toStartWith("Could not read gone.x: ");
  expect(missing.output).toContain("ENOENT");

  const broken = setup("ok", { command: "/nonexistent/fake-language-server", args: [] });
  broken.file("a.x", "x\n");
  expect(await broken.call({ operation: "document_symbols", path: "a.x" })).toMatchObject({
    isError: true,
    output: 'The language server "fake" for a.x is not running: /nonexistent/fake-language-server is not installed (not found on PATH).',
  });
});

test("the input refuses an unknown operation and a position below 1", () => {
  const { tool } = setup();
  expect(v.safeParse(tool.input, { operation: "rename", path: "a.x" }).success).toBe(false);
  expect(v.safeParse(tool.input, { operation: "hover", path: "a.x", line: 0, character: 1 }).success).toBe(false);
  expect(v.safeParse(tool.input, { operation: "documentSymbol", path: "a.x" }).success).toBe(true);
});

test("the call asks to read the file it names, absolute from the working folder", () => {
  const { root, tool } = setup();
  const asks = (tool as Tool & { permissions: (input: unknown, ctx: { cwd: string }) => unknown }).permissions({ operation: "hover", path: "src/a.x" }, { cwd: root });
  expect(asks).toEqual([{ permission: "read", pattern: join(root, "src/a.x"), always: [join(root, "src/a.x")] }]);
  expect(tool.readOnly).toBe(true);
});

describe("the client's answers when the server misbehaves", () => {
  test("a request the server never answers ends at the wait, naming the server and the method", async () => {
    const { call, file, hub, root } = setup("ok", {}, 1000);
    file("h.x", "HANG\n");
    // started beforehand with time to spare: the 1 s is the request's alone
    expect(await hub.clientFor(join(root, "h.x"), Date.now() + 20_000)).toHaveProperty("client");
    expect(await call({ operation: "hover", path: "h.x", line: 1, character: 1 })).toMatchObject({ isError: true, output: "The language server could not answer hover: fake did not answer textDocument/hover within 1 s" });
  });

  test("a server that exits during a request: the answer says how it ended, and the hub knows it is gone", async () => {
    const { call, file, hub } = setup();
    file("d.x", "DIE\n");
    const answer = await call({ operation: "hover", path: "d.x", line: 1, character: 1 });
    expect(answer.isError).toBe(true);
    expect(answer.output).toStartWith("The language server could not answer hover: ");
    expect(answer.output).toMatch(/it exited with code 5|its connection closed/);
    // the next call starts it again (once), and it answers
    file("ok.x", "fn again\n");
    expect((await call({ operation: "document_symbols", path: "ok.x" })).output).toBe("function again ok.x:1");
    expect(hub.status()[0]).toMatchObject({ state: "running" });
  });

  test("a server that asks for didSave gets the text with it, and its diagnostics come from that", async () => {
    const { call, file } = setup("save");
    file("s.x", "BAD\n");
    expect((await call({ operation: "diagnostics", path: "s.x" })).output).toBe("s.x:1:1: error F1: BAD is not allowed\ns.x:1:1: error: saved with its text: true");
  });

  test("a server whose pulled diagnostics fail: what it publishes is read instead", async () => {
    const { call, file } = setup("pullfail");
    file("p.x", "ok\nBAD\n");
    expect((await call({ operation: "diagnostics", path: "p.x" })).output).toBe("p.x:2:1: error F1: BAD is not allowed");
  });
});
