// sensitiveBelow answers as sensitivePath does for every path below its folder: a workspace
// anywhere (under a home, as the home, under another user's, under rein's folders, in /proc, in a
// git folder, at the top of the tree), against paths made of every protected entry, the names
// matched alone and paths not in normal form.
import { expect, test } from "bun:test";
import { HOME_DENIED, SYSTEM_DENIED, sensitiveBelow, sensitivePath } from "../../../src/permission/sensitive.ts";

const HOME = "/home/me";
const REIN_DIRS = ["/home/me/.config/rein", "/home/me/.local/share/rein"];

const DIRS = [
  "/srv/work/app",
  "/tmp/ws",
  "/home/me/proj",
  "/home/me",
  "/home/me/.config",
  "/home/me/.config/rein",
  "/home/me/.config/rein/sub",
  "/home/bob/src",
  "/home/bob",
  "/root",
  "/root/code",
  "/var/root/x",
  "/Users/ann/dev",
  "/var",
  "/var/lib",
  "/home",
  "/Users",
  "/",
  "/etc",
  "/proc",
  "/proc/self",
  "/srv/repo/.git",
  "/srv/repo/.git/modules/lib",
  "/srv/work/app/",
];

/** Names and tails to put below a folder: every protected entry, what is matched by name, git's files, plain files. */
const TAILS = [
  ...HOME_DENIED.map(([rel]) => rel),
  ...HOME_DENIED.map(([rel]) => `${rel}/inner`),
  ...SYSTEM_DENIED.map(([entry]) => entry.slice(1)),
  ".env", ".env.local", "prod.env", ".env.example", ".envrc", "#.env#", ".env.swp", "core.1234", "core", "core.x",
  "config", "config.json", "rein.db", "token", "trust.json", "mcp-auth.json", "prompt-history.jsonl",
  ".git", ".git/config", ".git/hooks/pre-commit", "sub/.git/config", ".git/modules/x/config", ".git/worktrees/w/config.worktree", ".gitconfig",
  "src/index.ts", "README.md", "a/b/c/d.txt", "self/environ", "1/mem", "self/mem",
  "./.env", "a/../.env", "a//b", "a/", "a/.", "x/../../etc/shadow", "../.ssh/id_rsa",
];

test("sensitiveBelow gives sensitivePath's answer for every path below the folder", () => {
  const differ: string[] = [];
  let checked = 0;
  for (const dir of DIRS) {
    const below = sensitiveBelow(dir, HOME, REIN_DIRS);
    const base = dir === "/" ? "" : dir.replace(/\/$/, "");
    for (const tail of TAILS) {
      for (const path of [`${base}/${tail}`, `${base}/deep/er/${tail}`]) {
        checked++;
        const want = sensitivePath(path, HOME, REIN_DIRS) !== undefined;
        if (below(path) !== want) differ.push(`${dir}: ${path} (sensitivePath says ${want})`);
      }
    }
  }
  expect(differ).toEqual([]);
  expect(checked).toBeGreaterThan(5000);
});

test("a folder that holds no protected entry is answered by names: a .env and a core dump are sensitive, other files not", () => {
  const below = sensitiveBelow("/srv/work/app", HOME, REIN_DIRS);
  expect(["/srv/work/app/.env", "/srv/work/app/x/core.77", "/srv/work/app/.git/config"].map(below)).toEqual([true, true, true]);
  expect(["/srv/work/app/src/a.ts", "/srv/work/app/.env.example", "/srv/work/app/.ssh/id_rsa"].map(below)).toEqual([false, false, false]);
  // The same names below the home hold secrets.
  expect(sensitiveBelow(HOME, HOME, REIN_DIRS)(`${HOME}/.ssh/id_rsa`)).toBe(true);
});
