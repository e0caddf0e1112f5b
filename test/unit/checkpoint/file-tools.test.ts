// Checkpoints of turns that change files through rein's own file tools: only the files they write
// are read, and undo puts exactly those back; a shell command in the same turn reads the rest.
// The real read, write and bash tools, the real permission engine, git and files, the fake model.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { redoCode, undoCode } from "../../../src/checkpoint/undo.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import bash from "../../../tools/bash.ts";
import read from "../../../tools/read.ts";
import write from "../../../tools/write.ts";
import { ALLOW_ALL, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

type Call = { name: string; input: Record<string, unknown> };

function workspace(files: Record<string, string>): string {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  return cwd;
}

const settings = () => ({ dir: join(kit.dir.path, "checkpoints") });

function session(cwd: string): Session {
  const options = { ...kit.options({ tools: [read, write, bash], rules: ALLOW_ALL }), expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }), checkpoints: settings() };
  return Session.create(cwd, options);
}

/** One turn whose calls run one after another; the turn's checkpoint event. */
async function turn(s: Session, calls: Call[]) {
  const events: StampedEvent[] = [];
  const off = s.subscribe((e) => events.push(e));
  kit.fake.script(...calls.map((call) => ({ reply: [{ type: "tool_use" as const, ...call }] })), { reply: [{ type: "text", text: "done" }] });
  expect((await s.prompt("change things")).status).toBe("success");
  off();
  const failed = events.filter((e) => e.type === "tool_end" && e.is_error);
  expect(failed).toEqual([]);
  return events.find((e) => e.type === "checkpoint") as Extract<StampedEvent, { type: "checkpoint" }> | undefined;
}

const undo = (cwd: string, s: Session) => undoCode({ settings: settings(), workspace: cwd, sessionId: s.id, turns: 1 });
const text = (cwd: string, path: string) => readFileSync(join(cwd, path), "utf8");

test("a write turn records the file it wrote, and undo puts back only that file", async () => {
  const cwd = workspace({ "a.txt": "one\n", "b.txt": "b\n" });
  const s = session(cwd);
  // Changed by someone else before the turn: not the turn's, so neither listed nor undone.
  writeFileSync(join(cwd, "b.txt"), "mine\n");
  const checkpoint = await turn(s, [
    { name: "read", input: { path: "a.txt" } },
    { name: "write", input: { path: "a.txt", content: "two\n" } },
    { name: "write", input: { path: "new/c.txt", content: "c\n" } },
  ]);

  expect(checkpoint?.changed).toEqual([
    { status: "modified", path: "a.txt" },
    { status: "added", path: "new/c.txt" },
  ]);
  const outcome = await undo(cwd, s);
  expect(outcome.type === "done" && outcome.files.sort()).toEqual(["a.txt", "new/c.txt"]);
  expect(text(cwd, "a.txt")).toBe("one\n");
  expect(text(cwd, "b.txt")).toBe("mine\n");
  expect(() => readFileSync(join(cwd, "new/c.txt"))).toThrow();
});

test("a file .gitignore leaves out is still covered when rein's write overwrites it", async () => {
  const cwd = workspace({ ".gitignore": "*.local\n", "settings.local": "secret=1\n" });
  const s = session(cwd);
  await turn(s, [
    { name: "read", input: { path: "settings.local" } },
    { name: "write", input: { path: "settings.local", content: "secret=2\n" } },
  ]);

  expect((await undo(cwd, s)).type).toBe("done");
  expect(text(cwd, "settings.local")).toBe("secret=1\n");
});

test("a write then a shell command in one turn: undo takes both back to before the turn", async () => {
  const cwd = workspace({ "a.txt": "one\n", "b.txt": "b\n" });
  const s = session(cwd);
  await turn(s, [
    { name: "read", input: { path: "a.txt" } },
    { name: "write", input: { path: "a.txt", content: "two\n" } },
    { name: "bash", input: { command: "echo three >> a.txt && echo B > b.txt" } },
  ]);

  expect(text(cwd, "a.txt")).toBe("two\nthree\n");
  expect((await undo(cwd, s)).type).toBe("done");
  expect(text(cwd, "a.txt")).toBe("one\n");
  expect(text(cwd, "b.txt")).toBe("b\n");
});

test("a change made between two turns is kept when the next turn's command changes the same file and is undone", async () => {
  const cwd = workspace({ "a.txt": "one\n" });
  const s = session(cwd);
  await turn(s, [{ name: "bash", input: { command: "echo two > a.txt" } }]);
  writeFileSync(join(cwd, "a.txt"), "mine\n");
  await turn(s, [{ name: "bash", input: { command: "echo formatted >> a.txt" } }]);

  expect((await undo(cwd, s)).type).toBe("done");
  expect(text(cwd, "a.txt")).toBe("mine\n");
});

test("undoing two turns refuses to overwrite a change made between them, unless forced", async () => {
  const cwd = workspace({ "a.txt": "one\n", "b.txt": "b\n" });
  const s = session(cwd);
  await turn(s, [{ name: "bash", input: { command: "echo two > a.txt" } }]);
  writeFileSync(join(cwd, "a.txt"), "mine\n");
  await turn(s, [{ name: "bash", input: { command: "echo B > b.txt" } }]);

  const both = { settings: settings(), workspace: cwd, sessionId: s.id, turns: 2 };
  expect(await undoCode(both)).toMatchObject({ type: "refused", files: ["a.txt"] });
  expect(text(cwd, "a.txt")).toBe("mine\n");
  expect(text(cwd, "b.txt")).toBe("B\n");
  expect((await undoCode({ ...both, force: true })).type).toBe("done");
  expect(text(cwd, "a.txt")).toBe("one\n");
  expect(text(cwd, "b.txt")).toBe("b\n");
});

describe("files outside the workspace that rein's file tools wrote", () => {
  test("are put back by undo (a new one removed) and changed again by redo", async () => {
    const cwd = workspace({ "a.txt": "a\n" });
    const out = mkdtempSync(join(kit.dir.path, "out-"));
    writeFileSync(join(out, "conf.ini"), "x=1\n");
    const s = session(cwd);
    const checkpoint = await turn(s, [
      { name: "read", input: { path: join(out, "conf.ini") } },
      { name: "write", input: { path: join(out, "conf.ini"), content: "x=2\n" } },
      { name: "write", input: { path: join(out, "new/made.txt"), content: "made\n" } },
    ]);
    expect(checkpoint?.changed).toEqual([
      { status: "modified", path: join(out, "conf.ini") },
      { status: "added", path: join(out, "new/made.txt") },
    ]);
    expect(checkpoint?.side_effects).toEqual([]);

    const undone = await undo(cwd, s);
    expect(undone.type === "done" && undone.files).toEqual([join(out, "conf.ini"), join(out, "new/made.txt")]);
    expect(text(out, "conf.ini")).toBe("x=1\n");
    expect(existsSync(join(out, "new/made.txt"))).toBe(false);

    expect(await redoCode({ settings: settings(), workspace: cwd, sessionId: s.id })).toMatchObject({ type: "done" });
    expect(text(out, "conf.ini")).toBe("x=2\n");
    expect(text(out, "new/made.txt")).toBe("made\n");
  });

  test("one changed since the turn makes undo refuse and name it, unless forced", async () => {
    const cwd = workspace({ "a.txt": "a\n" });
    const out = mkdtempSync(join(kit.dir.path, "out-"));
    const s = session(cwd);
    await turn(s, [{ name: "write", input: { path: join(out, "notes.md"), content: "rein\n" } }]);
    writeFileSync(join(out, "notes.md"), "mine\n");

    const refused = await undo(cwd, s);
    expect(refused).toMatchObject({ type: "refused", files: [join(out, "notes.md")] });
    expect(text(out, "notes.md")).toBe("mine\n");
    expect((await undoCode({ settings: settings(), workspace: cwd, sessionId: s.id, turns: 1, force: true })).type).toBe("done");
    expect(existsSync(join(out, "notes.md"))).toBe(false);
  });

  test("one over the size limit is listed as not covered and left alone", async () => {
    const cwd = workspace({ "a.txt": "a\n" });
    const out = mkdtempSync(join(kit.dir.path, "out-"));
    writeFileSync(join(out, "big.txt"), "y".repeat(3000));
    const options = { ...kit.options({ tools: [read, write], rules: ALLOW_ALL }), expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }), checkpoints: { ...settings(), maxFileBytes: 1000 } };
    const s = Session.create(cwd, options);
    const checkpoint = await turn(s, [
      { name: "read", input: { path: join(out, "big.txt") } },
      { name: "write", input: { path: join(out, "big.txt"), content: "small now\n" } },
    ]);

    expect(checkpoint?.uncovered).toEqual([join(out, "big.txt")]);
    const outcome = await undoCode({ settings: { ...settings(), maxFileBytes: 1000 }, workspace: cwd, sessionId: s.id, turns: 1 });
    expect(outcome.type === "done" && outcome.uncovered).toEqual([join(out, "big.txt")]);
    expect(text(out, "big.txt")).toBe("small now\n");
  });
});
