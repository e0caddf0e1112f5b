import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendHistory, loadHistory } from "../../../../src/cli/term/prompt-history.ts";

const dir = mkdtempSync(join(tmpdir(), "rein-prompt-history-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `case-${++n}`, "history.jsonl");

describe("prompt history", () => {
  test("prompts appended come back in order", () => {
    const file = fresh();
    appendHistory(file, "first");
    appendHistory(file, "second");
    appendHistory(file, 'with "quotes" and \\ backslash');
    expect(loadHistory(file)).toEqual(["first", "second", 'with "quotes" and \\ backslash']);
  });

  test("the file is created with its directory, readable by its owner only", () => {
    const file = fresh();
    appendHistory(file, "x");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("a multi-line prompt is one entry, its newlines kept", () => {
    const file = fresh();
    appendHistory(file, "line one\nline two\n\nline four");
    appendHistory(file, "next");
    expect(loadHistory(file)).toEqual(["line one\nline two\n\nline four", "next"]);
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(2);
  });

  test("a torn or foreign line is skipped, the others kept", () => {
    const file = fresh();
    appendHistory(file, "before");
    writeFileSync(file, `${readFileSync(file, "utf8")}"torn in the midd\n{"not":"a string"}\n42\ngarbage\n`);
    appendHistory(file, "after");
    expect(loadHistory(file)).toEqual(["before", "after"]);
  });

  test("a missing file is an empty history", () => {
    expect(loadHistory(join(dir, "no-such-dir", "history.jsonl"))).toEqual([]);
  });

  test("only the last 500 are loaded", () => {
    const file = fresh();
    for (let i = 0; i < 520; i++) appendHistory(file, `prompt ${i}`);
    const entries = loadHistory(file);
    expect(entries).toHaveLength(500);
    expect(entries[0]).toBe("prompt 20");
    expect(entries.at(-1)).toBe("prompt 519");
  });

  test("a file grown past twice what is kept is rewritten with the last 500 on load", () => {
    const file = fresh();
    for (let i = 0; i < 1_001; i++) appendHistory(file, `prompt ${i}`);
    expect(loadHistory(file).at(-1)).toBe("prompt 1000");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(500);
    expect(JSON.parse(lines[0]!)).toBe("prompt 501");
    appendHistory(file, "after the rewrite");
    expect(loadHistory(file).at(-1)).toBe("after the rewrite");
  });

  test("a prompt over 10,000 characters is not stored; one of 10,000 is", () => {
    const file = fresh();
    appendHistory(file, "small");
    appendHistory(file, "x".repeat(10_001));
    expect(loadHistory(file)).toEqual(["small"]);
    appendHistory(file, "y".repeat(10_000));
    expect(loadHistory(file)).toEqual(["small", "y".repeat(10_000)]);
  });

  test("an unwritable location stores nothing and does not stop the session", () => {
    // a file where the history's directory should be, and a directory where the file should be:
    // neither can be written, even by root
    const blocker = join(dir, `blocker-${++n}`);
    writeFileSync(blocker, "not a directory");
    expect(() => appendHistory(join(blocker, "history.jsonl"), "lost")).not.toThrow();
    expect(readFileSync(blocker, "utf8")).toBe("not a directory");
    expect(loadHistory(join(blocker, "history.jsonl"))).toEqual([]);

    const asDirectory = join(dir, `directory-${++n}`);
    mkdirSync(asDirectory);
    expect(() => appendHistory(asDirectory, "lost")).not.toThrow();
    expect(statSync(asDirectory).isDirectory()).toBe(true);
    expect(loadHistory(asDirectory)).toEqual([]);
  });
});
