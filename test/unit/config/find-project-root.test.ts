import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../../../src/config/load.ts";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "rein-root-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test("walks up to the nearest directory with .git", () => {
  mkdirSync(join(root, "repo", ".git"), { recursive: true });
  mkdirSync(join(root, "repo", "src", "deep"), { recursive: true });
  expect(findProjectRoot(join(root, "repo", "src", "deep"))).toBe(join(root, "repo"));
});

test("a .git file (worktree, submodule) counts too", () => {
  mkdirSync(join(root, "worktree", "src"), { recursive: true });
  writeFileSync(join(root, "worktree", ".git"), "gitdir: /elsewhere\n");
  expect(findProjectRoot(join(root, "worktree", "src"))).toBe(join(root, "worktree"));
});

test("the nearest marker wins: a .rein inside a git repository", () => {
  mkdirSync(join(root, "repo", ".git"), { recursive: true });
  mkdirSync(join(root, "repo", "packages", "app", ".rein"), { recursive: true });
  mkdirSync(join(root, "repo", "packages", "app", "src"), { recursive: true });
  expect(findProjectRoot(join(root, "repo", "packages", "app", "src"))).toBe(join(root, "repo", "packages", "app"));
});

test("the start directory itself may be the root", () => {
  mkdirSync(join(root, "repo", ".git"), { recursive: true });
  expect(findProjectRoot(join(root, "repo"))).toBe(join(root, "repo"));
});

test("without any marker above, the start directory is the root", () => {
  mkdirSync(join(root, "plain", "sub"), { recursive: true });
  expect(findProjectRoot(join(root, "plain", "sub"))).toBe(join(root, "plain", "sub"));
});
