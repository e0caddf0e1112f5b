// read, write and edit reach a file's text through the context's file access: an editor's buffers
// stand in for the disk without the tools knowing; the disk access keeps a byte-order mark.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import edit from "../../../tools/edit.ts";
import read from "../../../tools/read.ts";
import write from "../../../tools/write.ts";
import type { FileAccess } from "../../../src/sdk.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome as outcome } from "../../support/tool-context.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

/** Buffers held in memory, as an editor holds unsaved files. */
function buffers(initial: Record<string, string>): FileAccess & { texts: Map<string, string>; reads: string[] } {
  const texts = new Map(Object.entries(initial));
  const reads: string[] = [];
  return {
    texts,
    reads,
    async *readText(path) {
      reads.push(path);
      const text = texts.get(path);
      if (text === undefined) throw new Error(`no buffer for ${path}`);
      yield text;
    },
    writeText: async (path, content) => void texts.set(path, content),
  };
}

test("read shows the access's text, edit and write change it there, the disk keeps its own", async () => {
  const path = join(dir.path, "a.txt");
  writeFileSync(path, "disk line\n");
  const access = buffers({ [path]: "buffer line 1\nbuffer line 2\n" });
  const ctx = toolContext(dir.path, { fileAccess: access });
  const shown = outcome(await read.run({ path, offset: 2 }, ctx));
  expect(shown.output).toBe("     2\tbuffer line 2");
  expect(outcome(await edit.run({ path, old_string: "line 2", new_string: "line two" }, ctx)).isError).toBe(false);
  expect(access.texts.get(path)).toBe("buffer line 1\nbuffer line two\n");
  expect(outcome(await write.run({ path, content: "all new\n" }, ctx)).isError).toBe(false);
  expect(access.texts.get(path)).toBe("all new\n");
  expect(readFileSync(path, "utf8")).toBe("disk line\n");
});

test("a read that reaches the end of the text asks for it once; one that stops early asks again for the stamp", async () => {
  const path = join(dir.path, "a.txt");
  writeFileSync(path, "x\n");
  const access = buffers({ [path]: "one\ntwo\nthree\n" });
  const ctx = toolContext(dir.path, { fileAccess: access });
  await read.run({ path }, ctx);
  expect(access.reads).toEqual([path]);
  await read.run({ path, limit: 1 }, ctx);
  expect(access.reads).toEqual([path, path, path]);
  // either way the stamp is of the whole text: an edit right after is accepted
  expect(outcome(await edit.run({ path, old_string: "two", new_string: "2" }, ctx)).isError).toBe(false);
});

test("a buffer changed behind the model's back makes edit ask for a fresh read", async () => {
  const path = join(dir.path, "a.txt");
  writeFileSync(path, "x\n");
  const access = buffers({ [path]: "one\n" });
  const ctx = toolContext(dir.path, { fileAccess: access });
  await read.run({ path }, ctx);
  access.texts.set(path, "one, typed since\n");
  const result = outcome(await edit.run({ path, old_string: "one", new_string: "two" }, ctx));
  expect(result.isError).toBe(true);
  expect(result.output).toContain("Read it again");
});

test("on the disk, read hides a byte-order mark and edit keeps it", async () => {
  const path = join(dir.path, "bom.txt");
  writeFileSync(path, "\uFEFFfirst\nsecond\n");
  const ctx = toolContext(dir.path);
  expect(outcome(await read.run({ path }, ctx)).output).toBe("     1\tfirst\n     2\tsecond");
  expect(outcome(await edit.run({ path, old_string: "second", new_string: "2nd" }, ctx)).isError).toBe(false);
  expect(readFileSync(path, "utf8")).toBe("\uFEFFfirst\n2nd\n");
});
