// cd as bash does it, in a real folder tree: logical by default (`link/..` is where the link is),
// physical with -P or after `set -P` (`link/..` is beside the link's target).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeShell } from "../../../../src/permission/shell/analyze.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-cd-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
mkdirSync(join(ws, "sub"), { recursive: true });
mkdirSync(join(root, "elsewhere", "inner"), { recursive: true });
symlinkSync(join(root, "elsewhere", "inner"), join(ws, "link"));

const cwdOfLast = async (line: string) => (await analyzeShell(line, ws, "/home/u")).commands.at(-1)?.cwd;

test("a logical cd takes .. lexically", async () => {
  expect(await cwdOfLast("cd link/.. && ls")).toBe(ws);
  expect(await cwdOfLast("cd -L link/.. && ls")).toBe(ws);
});

test("cd -P and set -P resolve the link first", async () => {
  expect(await cwdOfLast("cd -P link/.. && ls")).toBe(join(root, "elsewhere"));
  expect(await cwdOfLast("set -P; cd link/.. && ls")).toBe(join(root, "elsewhere"));
  expect(await cwdOfLast("set -o physical; cd link/..; ls")).toBe(join(root, "elsewhere"));
  expect(await cwdOfLast("cd -P link && ls")).toBe(join(root, "elsewhere", "inner"));
});

test("a logical cd whose lexical folder does not exist falls back to the physical one", async () => {
  expect(await cwdOfLast("cd link/../inner && ls")).toBe(join(root, "elsewhere", "inner"));
});
