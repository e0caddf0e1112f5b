// Workers' worktrees on a real git repository: names are validated, node_modules is linked, an
// unchanged worktree goes away with its branch, a changed one stays and says what changed.
import { expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorktree, finishWorktree, worktreeNameProblem } from "../../../src/session/worktree.ts";
import { tempDir } from "../../support/temp-dir.ts";

function repo() {
  const dir = tempDir("rein-wt-");
  const root = join(dir.path, "repo");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, "node_modules", "left-pad"), { recursive: true });
  writeFileSync(join(root, "node_modules", "left-pad", "index.js"), "module.exports = 1;\n");
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  writeFileSync(join(root, "src", "a.ts"), "export const a = 1;\n");
  for (const args of [["init", "-q"], ["add", "-A"], ["-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one"]]) {
    expect(Bun.spawnSync(["git", ...args], { cwd: root }).exitCode).toBe(0);
  }
  return { dir, root, data: join(dir.path, "data") };
}
const branches = (root: string) => Bun.spawnSync(["git", "branch", "--list", "--format=%(refname:short)", "rein/*"], { cwd: root }).stdout.toString().trim();

test("worktree names: a word, no path", () => {
  expect(worktreeNameProblem("fix-1.2_b")).toBeUndefined();
  for (const bad of ["", "..", "a/../b", "/abs", "a/b", ".hidden", "x.lock", "a b", "x".repeat(65)]) expect(worktreeNameProblem(bad)).toBeString();
});

test("an unchanged worktree is removed with its branch; node_modules was linked, not copied", async () => {
  const { dir, root, data } = repo();
  const wt = await createWorktree(join(root, "src"), data, "quiet");
  expect(wt.path.startsWith(join(data, "worktrees"))).toBe(true);
  expect(wt.cwd).toBe(join(wt.path, "src"));
  expect(lstatSync(join(wt.path, "node_modules")).isSymbolicLink()).toBe(true);
  expect(existsSync(join(wt.path, "src", "a.ts"))).toBe(true);
  expect(branches(root)).toBe("rein/quiet");
  expect(await finishWorktree(wt)).toBeUndefined();
  expect(existsSync(wt.path)).toBe(false);
  expect(branches(root)).toBe("");
  dir.remove();
});

test("a changed worktree is kept: its path, branch and diffstat are named", async () => {
  const { dir, root, data } = repo();
  const wt = await createWorktree(root, data, "busy");
  writeFileSync(join(wt.path, "src", "a.ts"), "export const a = 2;\nexport const b = 3;\n");
  writeFileSync(join(wt.path, "src", "new.ts"), "new\n");
  const kept = await finishWorktree(wt);
  expect(kept).toBe(`path: ${wt.path}\nbranch: rein/busy\ndiffstat: 1 file changed, 2 insertions(+), 1 deletion(-); 1 new file not yet added`);
  expect(existsSync(wt.path)).toBe(true);
  await expect(createWorktree(root, data, "busy")).rejects.toThrow('a worktree named "busy" is already there');
  dir.remove();
});

test("outside a repository, or with a bad name, there is no worktree and one line says why", async () => {
  const dir = tempDir("rein-wt-");
  await expect(createWorktree(dir.path, join(dir.path, "data"), "x")).rejects.toThrow(/needs a git repository/);
  await expect(createWorktree(dir.path, join(dir.path, "data"), "../up")).rejects.toThrow(/not usable/);
  dir.remove();
});
