// The write tool on real files: creating, refusing to overwrite unseen or changed content, and the
// stamp it leaves so a following edit works.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import edit from "../../../tools/edit.ts";
import read from "../../../tools/read.ts";
import write from "../../../tools/write.ts";
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
  return outcome(await write.run(v.parse(write.input, input), ctx));
}

describe("write: new files", () => {
  test("creates the file and its parent folders and says what it wrote", async () => {
    const path = join(dir.path, "src/deep/new.ts");
    const result = await run({ path: "src/deep/new.ts", content: "const a = 1;\nconst b = 2;\n" });
    expect(result).toEqual({ output: `Wrote 2 lines (26 bytes) to ${path}: created a new file.`, isError: false });
    expect(readFileSync(path, "utf8")).toBe("const a = 1;\nconst b = 2;\n");
  });

  test("counts bytes, not characters, and a last line without a newline", async () => {
    const result = await run({ path: "u.txt", content: "héllo\nwörld" });
    expect(result.output).toBe(`Wrote 2 lines (13 bytes) to ${join(dir.path, "u.txt")}: created a new file.`);
  });

  test("an empty file is 0 lines", async () => {
    const result = await run({ path: "empty.txt", content: "" });
    expect(result.output).toContain("Wrote 0 lines (0 bytes)");
    expect(readFileSync(join(dir.path, "empty.txt"), "utf8")).toBe("");
  });

  test("records the new stamp, so an edit can follow without a read", async () => {
    const path = join(dir.path, "fresh.txt");
    await run({ path, content: "one\ntwo\n" });
    const stat = statSync(path);
    const { hash, ...stamp } = ctx.files.lastRead(path)!;
    expect(stamp).toEqual({ mtimeMs: stat.mtimeMs, size: stat.size });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const edited = outcome(await edit.run({ path, old_string: "two", new_string: "three" }, ctx));
    expect(edited).toMatchObject({ isError: false });
    expect(readFileSync(path, "utf8")).toBe("one\nthree\n");
  });
});

describe("write: existing files", () => {
  test("refuses to overwrite a file not read in this session, and leaves it alone", async () => {
    const path = join(dir.path, "notes.md");
    writeFileSync(path, "precious work\n");
    const result = await run({ path: "notes.md", content: "replacement\n" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("already exists and you have not read it in this session. Read it first");
    expect(readFileSync(path, "utf8")).toBe("precious work\n");
  });

  test("overwrites a file after it was read", async () => {
    const path = join(dir.path, "notes.md");
    writeFileSync(path, "old\n");
    await read.run({ path }, ctx);
    const result = await run({ path, content: "new\ncontent\nhere\n" });
    expect(result).toEqual({ output: `Wrote 3 lines (17 bytes) to ${path}: overwrote the previous content.`, isError: false });
    expect(readFileSync(path, "utf8")).toBe("new\ncontent\nhere\n");
  });

  test("refuses when the file grew since it was read", async () => {
    const path = join(dir.path, "notes.md");
    writeFileSync(path, "old\n");
    await read.run({ path }, ctx);
    writeFileSync(path, "old\nand someone else's line\n");
    const result = await run({ path, content: "mine\n" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("changed on disk since you last read it");
    expect(result.output).toContain("Read it again");
    expect(readFileSync(path, "utf8")).toBe("old\nand someone else's line\n");
  });

  test("refuses when only the modification time changed since the read", async () => {
    const path = join(dir.path, "same-size.txt");
    writeFileSync(path, "aaa\n");
    await read.run({ path }, ctx);
    writeFileSync(path, "bbb\n");
    const later = new Date(statSync(path).mtimeMs + 5000);
    utimesSync(path, later, later);
    const result = await run({ path, content: "ccc\n" });
    expect(result.isError).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("bbb\n");
  });

  test("refuses when the content changed but the size and modification time were kept", async () => {
    const path = join(dir.path, "kept-stamp.txt");
    const second = 1_700_000_000; // a whole second, which utimes sets exactly
    writeFileSync(path, "aaa\n");
    utimesSync(path, second, second);
    await read.run({ path }, ctx);
    writeFileSync(path, "bbb\n");
    utimesSync(path, second, second);
    expect(statSync(path).mtimeMs).toBe(ctx.files.lastRead(path)!.mtimeMs);
    const result = await run({ path, content: "ccc\n" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("changed on disk since you last read it");
    expect(readFileSync(path, "utf8")).toBe("bbb\n");
  });

  test("the same goes after a write and a read: an outside change that kept size and mtime is not overwritten", async () => {
    const path = join(dir.path, "own.txt");
    await run({ path, content: "mine\n" });
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    await read.run({ path }, ctx);
    writeFileSync(path, "your\n");
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    expect((await run({ path, content: "again\n" })).isError).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("your\n");
  });

  test("a second write after its own write needs no read", async () => {
    const path = join(dir.path, "twice.txt");
    await run({ path, content: "first\n" });
    const result = await run({ path, content: "second\n" });
    expect(result.output).toContain("overwrote the previous content");
    expect(readFileSync(path, "utf8")).toBe("second\n");
  });

  test("a directory path is an error", async () => {
    mkdirSync(join(dir.path, "folder"));
    const result = await run({ path: "folder", content: "x" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("is a directory");
  });

  test("a path through a file is an error the model can act on", async () => {
    writeFileSync(join(dir.path, "plain"), "x");
    const result = await run({ path: "plain/child.txt", content: "x" });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(`A part of ${join(dir.path, "plain/child.txt")} is a file, not a directory. Check the path.`);
  });
});

describe("write: input and permissions", () => {
  test("the schema needs a path and string content", () => {
    expect(v.safeParse(write.input, { path: "a" }).success).toBe(false);
    expect(v.safeParse(write.input, { path: "a", content: 3 }).success).toBe(false);
    expect(v.safeParse(write.input, { path: "a", content: "" }).success).toBe(true);
  });

  test("asks for edit permission on the resolved path", () => {
    expect(write.readOnly).toBeUndefined();
    expect(write.permissions!({ path: "a.txt", content: "" }, { cwd: "/w" })).toEqual([{ permission: "edit", pattern: "/w/a.txt", always: ["/w/a.txt"] }]);
  });
});
