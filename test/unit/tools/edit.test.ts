// The edit tool on real files: one exact match, the read-first rule, useful errors for zero or
// several matches, CRLF kept, and the diff it reports.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import edit from "../../../tools/edit.ts";
import read from "../../../tools/read.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, type TestContext, toolOutcome as outcome } from "../../support/tool-context.ts";

let dir: TempDir;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = toolContext(dir.path);
});
afterEach(() => dir.remove());


async function run(input: unknown) {
  return outcome(await edit.run(v.parse(edit.input, input), ctx));
}

/** A file the session has read, as the model would have before editing. */
async function readFile(name: string, content: string): Promise<string> {
  const path = join(dir.path, name);
  writeFileSync(path, content);
  expect(outcome(await read.run({ path }, ctx)).isError).toBe(false);
  return path;
}

const SOURCE = ["function add(a, b) {", "  return a + b;", "}", "", "function sub(a, b) {", "  return a - b;", "}", ""].join("\n");

describe("edit: replacing", () => {
  test("replaces the one match, reports a diff and records the new stamp", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path: "math.js", old_string: "  return a - b;", new_string: "  return b - a;" });
    expect(result.isError).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(SOURCE.replace("a - b", "b - a"));
    expect(result.output).toBe(
      [`Edited ${path}: replaced 1 occurrence.`, "@@ -3,5 +3,5 @@", " }", " ", " function sub(a, b) {", "-  return a - b;", "+  return b - a;", " }"].join("\n"),
    );
    expect(result.metadata).toEqual({ diff: `--- ${path}\n+++ ${path}\n${result.output.split("\n").slice(1).join("\n")}` });
    const stat = statSync(path);
    expect(ctx.files.lastRead(path)).toEqual({ mtimeMs: stat.mtimeMs, size: stat.size, hash: createHash("sha256").update(readFileSync(path)).digest("hex") });
  });

  test("edits in a row work, each one refreshing the stamp", async () => {
    const path = await readFile("math.js", SOURCE);
    expect((await run({ path, old_string: "add", new_string: "plus" })).isError).toBe(false);
    expect((await run({ path, old_string: "sub", new_string: "minus" })).isError).toBe(false);
    expect(readFileSync(path, "utf8")).toContain("function plus(a, b)");
    expect(readFileSync(path, "utf8")).toContain("function minus(a, b)");
  });

  test("a deleted line shows as one removed line", async () => {
    const path = await readFile("list.txt", "a\nb\nc\n");
    const result = await run({ path, old_string: "b\n", new_string: "" });
    expect(readFileSync(path, "utf8")).toBe("a\nc\n");
    expect(result.output.split("\n").slice(1)).toEqual(["@@ -1,3 +1,2 @@", " a", "-b", " c"]);
  });

  test("inserted lines show as added lines only", async () => {
    const path = await readFile("list.txt", "a\nb\nc\n");
    const result = await run({ path, old_string: "b\n", new_string: "b\nb2\nb3\n" });
    expect(readFileSync(path, "utf8")).toBe("a\nb\nb2\nb3\nc\n");
    expect(result.output.split("\n").slice(1)).toEqual(["@@ -1,3 +1,5 @@", " a", " b", "+b2", "+b3", " c"]);
  });

  test("replace_all changes every match; distant matches get their own hunks", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => (i % 10 === 0 ? "TODO" : `line ${i + 1}`));
    const path = await readFile("todo.txt", `${lines.join("\n")}\n`);
    const result = await run({ path, old_string: "TODO", new_string: "DONE", replace_all: true });
    expect(result.isError).toBe(false);
    expect(readFileSync(path, "utf8")).not.toContain("TODO");
    expect(readFileSync(path, "utf8").match(/DONE/g)).toHaveLength(3);
    expect(result.output).toStartWith(`Edited ${path}: replaced 3 occurrences.`);
    expect(result.output.match(/^@@ /gm)).toHaveLength(3);
    expect(result.output).toContain("@@ -8,7 +8,7 @@\n line 8\n line 9\n line 10\n-TODO\n+DONE\n line 12");
  });

  test("a CRLF file stays CRLF, matched by old_string written with LF", async () => {
    const path = await readFile("dos.txt", "one\r\ntwo\r\nthree\r\n");
    const result = await run({ path, old_string: "one\ntwo", new_string: "uno\ndos\nzwei" });
    expect(result.isError).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("uno\r\ndos\r\nzwei\r\nthree\r\n");
  });

  test("an LF file stays LF", async () => {
    const path = await readFile("unix.txt", "one\ntwo\n");
    await run({ path, old_string: "two", new_string: "2\n3" });
    expect(readFileSync(path, "utf8")).toBe("one\n2\n3\n");
  });
});

describe("edit: read first", () => {
  test("refuses a file not read in this session, and leaves it alone", async () => {
    const path = join(dir.path, "unseen.js");
    writeFileSync(path, SOURCE);
    const result = await run({ path, old_string: "add", new_string: "plus" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain(`You have not read ${path} in this session. Read it first`);
    expect(readFileSync(path, "utf8")).toBe(SOURCE);
  });

  test("refuses a file changed on disk since it was read", async () => {
    const path = await readFile("math.js", SOURCE);
    writeFileSync(path, `${SOURCE}// added by someone else\n`);
    const result = await run({ path, old_string: "add", new_string: "plus" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("changed on disk since you last read it. Read it again");
    expect(readFileSync(path, "utf8")).toBe(`${SOURCE}// added by someone else\n`);
  });

  test("a missing file points to write", async () => {
    const result = await run({ path: "ghost.ts", old_string: "a", new_string: "b" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("does not exist");
    expect(result.output).toContain("write");
  });
});

describe("edit: no match or several", () => {
  test("several matches list their lines and change nothing", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "(a, b) {", new_string: "(x, y) {" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("old_string matches 2 places");
    expect(result.output).toContain("(at lines 1, 5)");
    expect(result.output).toContain("replace_all");
    expect(readFileSync(path, "utf8")).toBe(SOURCE);
  });

  test("no match shows the lines most like old_string's first line", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "  return a * b;\n}", new_string: "  return 0;\n}" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain(`old_string was not found in ${path}.`);
    expect(result.output).toContain("     2\t  return a + b;");
    expect(result.output).toContain("     6\t  return a - b;");
    expect(readFileSync(path, "utf8")).toBe(SOURCE);
  });

  test("a match that differs only in whitespace is located by line", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "function sub(a,  b) {\n    return a - b;", new_string: "x" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("It matches lines 5-6 if whitespace is ignored");
    expect(result.output).toContain("     5\tfunction sub(a, b) {\n     6\t  return a - b;");
  });

  test("line numbers copied from read's output are pointed out", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "     2\t  return a + b;", new_string: "     2\t  return 0;" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("line numbers copied from read's output");
  });

  test("nothing alike says to read the file again", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "SELECT * FROM users", new_string: "x" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("No line resembles its first line");
    expect(result.output).toContain("Read it again");
  });

  test("old_string equal to new_string is an error", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "add", new_string: "add" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("the same");
  });

  test("strings that differ only in CRLF are the same edit in a CRLF file", async () => {
    const path = await readFile("dos.txt", "a\r\nb\r\n");
    const result = await run({ path, old_string: "a\nb", new_string: "a\r\nb" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("differ only in line endings");
    expect(readFileSync(path, "utf8")).toBe("a\r\nb\r\n");
  });

  test("an empty old_string is an error that points to write", async () => {
    const path = await readFile("math.js", SOURCE);
    const result = await run({ path, old_string: "", new_string: "x" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("use write");
  });
});

describe("edit: input and permissions", () => {
  test("the schema needs both strings, and replace_all must be a boolean", () => {
    expect(v.safeParse(edit.input, { path: "a", old_string: "x" }).success).toBe(false);
    expect(v.safeParse(edit.input, { path: "a", old_string: "x", new_string: "y", replace_all: "yes" }).success).toBe(false);
    expect(v.safeParse(edit.input, { path: "a", old_string: "x", new_string: "y", replace_all: true }).success).toBe(true);
  });

  test("asks for edit permission on the resolved path", () => {
    expect(edit.permissions!({ path: "a.txt", old_string: "x", new_string: "y" }, { cwd: "/w" })).toEqual([
      { permission: "edit", pattern: "/w/a.txt", always: ["/w/a.txt"] },
    ]);
  });
});
