// /memory edit NAME in the terminal, with a real editor: $EDITOR is a shell command run on the
// memory's file (here sed, true or false), the terminal lent to it. What it saved, a failed editor
// leaving the memory as it was, an edit that breaks the front matter undone, and an unknown name.
import { afterEach, beforeEach, expect, test } from "bun:test";
import chalk from "chalk";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { memoryEditLine, memoryLabel, quickMemoryLine } from "../../../../src/cli/term/quick-memory.ts";
import { listMemories, memoryDirs, saveMemory } from "../../../../src/memory/store.ts";
import { tempDir, type TempDir } from "../../../support/temp-dir.ts";

chalk.level = 0;
let dir: TempDir;
let ctx: { paths: { dataDir: string }; projectRoot: string; env: Record<string, string | undefined> };
beforeEach(() => {
  dir = tempDir("rein-memory-edit-");
  ctx = { paths: { dataDir: join(dir.path, "data") }, projectRoot: join(dir.path, "project"), env: { PATH: process.env.PATH } };
});
afterEach(() => dir.remove());

const dirs = () => memoryDirs(ctx.paths.dataDir, ctx.projectRoot);
async function saved(name: string, text: string) {
  const memory = await saveMemory(dirs(), "project", { name, description: `about ${name}`, type: "project", text });
  if (typeof memory === "string") throw new Error(memory);
  return memory;
}
const lent: string[] = [];
const lend = (run: () => void) => {
  lent.push("lent");
  run();
};
const edit = (name: string, editor: string) => memoryEditLine({ ...ctx, env: { ...ctx.env, EDITOR: editor } } as never, name, lend);

test("the editor's change is saved, said with where it went; the terminal was lent for it", async () => {
  const memory = await saved("db-port", "The test database listens on 5432.");
  lent.length = 0;
  const line = await edit("db-port", "sed -i s/5432/5433/");
  expect(line).toBe(`saved db-port (${memory.file}); sessions read it from the next one (this one after /memory reload)`);
  expect(lent).toEqual(["lent"]);
  expect(readFileSync(memory.file, "utf8")).toContain("listens on 5433.");
});

test("VISUAL comes before EDITOR", async () => {
  const memory = await saved("style", "Use tabs.");
  await memoryEditLine({ ...ctx, env: { ...ctx.env, VISUAL: "sed -i s/tabs/spaces/", EDITOR: "false" } } as never, "style", lend);
  expect(readFileSync(memory.file, "utf8")).toContain("Use spaces.");
});

test("an editor that fails leaves the memory as it was, and says how it ended", async () => {
  const memory = await saved("keep-me", "Original text.");
  const before = readFileSync(memory.file, "utf8");
  expect(await edit("keep-me", "sed -i s/Original/Changed/ \"$1\"; false")).toBe("the editor (sed -i s/Original/Changed/ \"$1\"; false) exited with 1; the memory is as it was");
  expect(readFileSync(memory.file, "utf8")).toBe(before);
});

test("an edit that breaks the front matter is not saved, and the file is put back", async () => {
  const memory = await saved("fragile", "Some fact.");
  const before = readFileSync(memory.file, "utf8");
  const line = await edit("fragile", "sed -i 1d");
  expect(line).toStartWith("not saved: ");
  expect(line).toEndWith("; the memory is as it was");
  expect(readFileSync(memory.file, "utf8")).toBe(before);
});

test("an edit that renames the memory moves it to the new name's file", async () => {
  const memory = await saved("old-name", "A fact worth keeping.");
  const line = await edit("old-name", "sed -i s/^name:.*/name:\\ new-name/");
  expect(line).toStartWith("saved new-name (");
  expect(listMemories(dirs()).memories.map((m) => m.name)).toEqual(["new-name"]);
  expect(line).not.toContain(memory.file);
});

test("a name no memory has says so, and how to list them", async () => {
  expect(await edit("nothing-here", "true")).toBe('no memory named "nothing-here": /memory lists them');
});

test("# and #~ lines: a project or an every-project memory; ## and #word stay prompts", async () => {
  expect(await quickMemoryLine("# the API tests need the database", ctx as never)).toStartWith("remembered for this project: the API tests need the database (");
  expect(await quickMemoryLine("#~ I prefer short answers", ctx as never)).toStartWith("remembered for every project: I prefer short answers (");
  expect(await quickMemoryLine("## a heading", ctx as never)).toBeUndefined();
  expect(await quickMemoryLine("#tag", ctx as never)).toBeUndefined();
  expect(listMemories(dirs()).memories.map((m) => [m.name, m.scope])).toEqual(expect.arrayContaining([["the API tests need the database", "project"], ["I prefer short answers", "user"]]));
  expect(memoryLabel({ type: "feedback", scope: "project" })).toBe("type feedback, this project");
  expect(memoryLabel({ type: "user", scope: "user" })).toBe("type user, every project");
});
