// Diagnostics after a change, through the session's language-server part (lspSession) with our fake
// server started for real: what goes beside an edit's, a write's and a bash command's result, what
// does not (a clean file, a file no server takes, a failed call's missing path), the other open
// files' new errors, and the notes for a server that is not running or does not answer.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ToolCallDone } from "../../../src/agent/types.ts";
import { lspConfigs } from "../../../src/lsp/config.ts";
import { lspSession, type LspSession } from "../../../src/lsp/session.ts";

const FAKE = resolve(import.meta.dir, "../../fake/fake-lsp.ts");
const dirs: string[] = [];
const sessions: LspSession[] = [];
afterEach(() => {
  sessions.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function setup(mode = "ok", opts: { waitMs?: number; command?: string } = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-after-edit-")));
  dirs.push(root);
  const configs = lspConfigs([{ file: "test", scope: "user", servers: { fake: { command: opts.command ?? process.execPath, args: [FAKE, mode], extensionToLanguage: { ".x": "x" } } } }], true);
  const session = lspSession({ configs, root, cwd: root, env: { PATH: process.env.PATH ?? "" }, logDir: join(root, ".logs"), ...(opts.waitMs ? { waitMs: opts.waitMs } : {}) })!;
  sessions.push(session);
  const file = (name: string, text: string) => (writeFileSync(join(root, name), text), join(root, name));
  const after = (name: string, input: unknown) => session.afterToolCall({ name, input } as unknown as ToolCallDone);
  return { root, session, file, after };
}

test("a write that leaves errors: the count and one line per error go beside the result", async () => {
  const { file, after } = setup();
  file("a.x", "fine\nBAD\n  BAD again\n");
  expect(await after("write", { path: "a.x" })).toEqual({
    context: ["rein: the language server reports 2 errors after this change:", "a.x:2:1: error F1: BAD is not allowed", "a.x:3:3: error F1: BAD is not allowed"].join("\n"),
  });
});

test("one error is said in the singular; an absolute path and Claude Code's file_path are read too", async () => {
  const { root, file, after } = setup();
  file("b.x", "BAD\n");
  expect((await after("edit", { file_path: join(root, "b.x") }))?.context).toStartWith("rein: the language server reports 1 error after this change:\nb.x:1:1:");
});

test("a clean file adds nothing; fixing it adds nothing either", async () => {
  const { file, after } = setup();
  file("c.x", "BAD\n");
  expect(await after("write", { path: "c.x" })).toBeDefined();
  file("c.x", "good\n");
  expect(await after("edit", { path: "c.x" })).toBeUndefined();
});

test("files no server takes, calls without a path and other tools start no server", async () => {
  const { session, file, after } = setup();
  file("notes.md", "BAD\n");
  expect(await after("write", { path: "notes.md" })).toBeUndefined();
  expect(await after("write", {})).toBeUndefined();
  expect(await after("write", null)).toBeUndefined();
  expect(await after("edit", { path: 42 })).toBeUndefined();
  expect(await after("read", { path: "a.x" })).toBeUndefined();
  // with no server running, a bash command cannot have changed a file one has open
  expect(await after("bash", { command: "echo BAD > a.x" })).toBeUndefined();
  expect(session.status()).toMatchObject([{ name: "fake", state: "not started" }]);
});

test("a file the edit did not leave (a failed write) adds nothing", async () => {
  const { after } = setup();
  expect(await after("write", { path: "never-written.x" })).toBeUndefined();
});

test("a bash command that changed an open file: its errors are told, files it did not touch are not", async () => {
  const { root, file, after } = setup();
  file("d.x", "good\n");
  file("e.x", "good\n");
  expect(await after("write", { path: "d.x" })).toBeUndefined();
  expect(await after("write", { path: "e.x" })).toBeUndefined();
  expect(await after("bash", { command: "true" })).toBeUndefined(); // nothing changed on disk
  file("d.x", "BAD from the shell\n");
  utimesSync(join(root, "d.x"), new Date(), new Date(Date.now() + 5000)); // a distinct mtime, however fast the write
  expect((await after("bash", { command: "sed -i ..." }))?.context).toBe("rein: the language server reports 1 error after this change:\nd.x:1:1: error F1: BAD is not allowed");
});

test("another open file's new errors are told beside the changed one's; old ones are not told again", async () => {
  const { file, after } = setup("deps");
  file("lib.x", "good\n");
  file("app.x", "good\n");
  expect(await after("write", { path: "app.x" })).toBeUndefined();
  expect(await after("write", { path: "lib.x" })).toBeUndefined();
  file("lib.x", "BAD\n");
  expect((await after("edit", { path: "lib.x" }))?.context).toBe(
    ["rein: the language server reports 2 errors after this change:", "lib.x:1:1: error F1: BAD is not allowed", "app.x:1:1: error D1: depends on lib.x, which is broken"].join("\n"),
  );
  file("lib.x", "still BAD\n");
  // app.x's error is the same one: only lib.x's is new to say
  expect((await after("edit", { path: "lib.x" }))?.context).toBe("rein: the language server reports 1 error after this change:\nlib.x:1:7: error F1: BAD is not allowed");
});

test("more than 20 errors: the first 20 and how many more", async () => {
  const { file, after } = setup();
  file("many.x", "BAD\n".repeat(25));
  const lines = (await after("write", { path: "many.x" }))!.context!.split("\n");
  expect(lines[0]).toBe("rein: the language server reports 25 errors after this change:");
  expect(lines).toHaveLength(22);
  expect(lines.at(-1)).toBe("...and 5 more");
});

test("a server that cannot start is said once per session, then its files add nothing", async () => {
  const { file, after, session } = setup("ok", { command: "/nonexistent/fake-ls" });
  file("a.x", "BAD\n");
  expect((await after("write", { path: "a.x" }))?.context).toBe(
    'rein: the language server "fake" is not running: /nonexistent/fake-ls is not installed (not found on PATH). Diagnostics for its files are not shown.',
  );
  expect(await after("write", { path: "a.x" })).toBeUndefined();
  expect(session.status()).toMatchObject([{ name: "fake", state: "failed" }]);
});

test("a server that never publishes: one note naming the file and the wait, never an endless wait", async () => {
  // the wait covers the server's start too: long enough for a start on a busy machine
  const { file, after } = setup("silent", { waitMs: 6000 });
  file("s.x", "BAD\n");
  expect((await after("write", { path: "s.x" }))?.context).toBe('rein: the language server "fake" did not report diagnostics for s.x within 6 s; none are shown.');
});

test("no server configured is no language-server part at all", () => {
  expect(lspSession({ configs: [], root: "/", cwd: "/", env: {}, logDir: "/tmp" })).toBeUndefined();
});

test("the session's lsp tool and its status share the hub that the edits started", async () => {
  const { session, file, after, root } = setup();
  file("t.x", "fn main\n");
  await after("write", { path: "t.x" });
  expect(session.status()).toMatchObject([{ name: "fake", state: "running" }]);
  const result = await session.tool.run({ operation: "document_symbols", path: "t.x" } as never, { cwd: root } as never);
  expect(result).toBe("function main t.x:1");
});
