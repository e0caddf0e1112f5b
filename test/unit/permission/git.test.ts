// The git module: global options, read-only forms with every option classed, GNU-style prefixes,
// and repository discovery in a real folder tree (an embedded repository, a bare one, a submodule,
// one outside the workspace).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeGit } from "../../../src/permission/git/analyze.ts";
import { globalOptions } from "../../../src/permission/git/global-options.ts";
import { foreignRepository } from "../../../src/permission/git/repository.ts";
import type { ShellCommand } from "../../../src/permission/shell/types.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-git-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
const home = join(root, "home");
const where = { workspace: ws, home };
for (const dir of [".git/objects", ".git/refs", ".git/modules/sub", "vendor/lib/.git", "vendor/bare/objects", "vendor/bare/refs", "sub", "src", "../outside/.git"]) {
  mkdirSync(join(ws, dir), { recursive: true });
}
writeFileSync(join(ws, ".git/HEAD"), "ref: refs/heads/main\n");
writeFileSync(join(ws, "vendor/bare/HEAD"), "ref: refs/heads/main\n");
writeFileSync(join(ws, "sub/.git"), "gitdir: ../.git/modules/sub\n");

const command = (line: string, cwd = ws, env: string[] = []): ShellCommand => ({ argv: line.split(" "), env, wrappers: [], cwd, text: line });
const git = (line: string, cwd = ws) => analyzeGit(command(line, cwd), where);

describe("global options", () => {
  test("harmless ones are dropped from the form the rules see; -C is followed", () => {
    expect(git("git --no-pager log -5")).toMatchObject({ argv: ["git", "log", "-5"], readOnly: true });
    expect(git("git -C src --no-optional-locks status")).toMatchObject({ argv: ["git", "status"], readOnly: true, dir: join(ws, "src") });
    expect(git("git --version").readOnly).toBe(true);
  });
  test("options that run programs or change configuration make git opaque", () => {
    for (const line of ["git -c core.pager=sh log", "git -ccore.fsmonitor=x status", "git --config-env=core.pager=X log", "git --exec-path=./bin status", "git -p log", "git --paginate log", "git --bare log", "git --frobnicate log"]) {
      expect({ line, opaque: git(line).opaque !== undefined }).toEqual({ line, opaque: true });
    }
    expect(globalOptions(["git", "--exec-path"]).info).toBe(true);
  });
});

describe("read-only forms", () => {
  const readOnly = (line: string) => git(line).readOnly;
  test("read-only subcommands with known options", () => {
    for (const line of ["git log --oneline --graph", "git diff --stat HEAD~1", "git show HEAD:src/a.ts", "git grep -n TODO", "git rev-list --count HEAD", "git shortlog -sn", "git blame -L 1,5 a.ts", "git ls-files -m", "git describe --tags"]) {
      expect({ line, readOnly: readOnly(line) }).toEqual({ line, readOnly: true });
    }
  });
  test("mixed subcommands: only their listing forms", () => {
    const cases: [string, boolean][] = [
      ["git branch --show-current", true], ["git branch -a", true], ["git branch --list feat/*", true], ["git branch new", false],
      ["git branch -D old", false], ["git tag -l v*", true], ["git tag v2", false], ["git stash list", true], ["git stash", false],
      ["git stash pop", false], ["git remote get-url origin", true], ["git remote -v", true], ["git remote add x u", false],
      ["git remote show origin", false], ["git remote -v add x u", false], ["git config --unset user.name", false], ["git config --get user.name", true], ["git config user.name", true],
      ["git config user.name ann", false], ["git config --unset user.name", false], ["git worktree list", true], ["git worktree add x", false],
    ];
    for (const [line, expected] of cases) expect({ line, readOnly: readOnly(line) }).toEqual({ line, readOnly: expected });
  });
  test("an unknown option leaves the command to the rules; one that runs a program makes it opaque", () => {
    expect(git("git log --frobnicate")).toMatchObject({ readOnly: false });
    expect(git("git log --frobnicate").opaque).toBeUndefined();
    expect(git("git diff --ext-diff").opaque).toContain("runs a program");
    expect(git("git grep -O x").opaque).toContain("runs a program");
  });
  test("a unique prefix is the option it abbreviates, the most dangerous when several share it", () => {
    expect(git("git log --onel")).toMatchObject({ readOnly: true });
    expect(git("git log --outp=x")).toMatchObject({ readOnly: false, writes: ["x"] });
    expect(git("git diff --ext-d").opaque).toContain("runs a program");
    expect(git("git log --no-decorate").readOnly).toBe(true);
  });
  test("files: rev:path from the top level, --no-index operands, --contents, pathspecs", () => {
    expect(git("git show HEAD:.env").reads).toContain(join(ws, ".env"));
    expect(git("git show :./x", join(ws, "src")).reads).toContain("./x");
    expect(git("git diff --no-index a b").reads).toEqual([".", "a", "b"]);
    expect(git("git blame --contents .env a.ts").reads).toContain(".env");
    expect(git("git log -- src/a.ts").reads).toContain("src/a.ts");
  });
  test("git config: a listing of configuration holding a secret, or a credential-looking key, asks; setting writes the config", () => {
    expect(git("git config --list").secret).toBeUndefined();
    writeFileSync(join(ws, "leaky.gitconfig"), '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eA==\n');
    expect(git("git config -f leaky.gitconfig --list").secret).toContain("leaky.gitconfig");
    writeFileSync(join(ws, "remote.gitconfig"), '[remote "origin"]\n\turl = https://ann:s3cret@example.com/r.git\n');
    expect(git("git config --file=remote.gitconfig --get-regexp .").secret).toContain("remote.gitconfig");
    expect(git("git config --get http.https://github.com/.extraheader").secret).toBeString();
    expect(git("git config --get user.name").secret).toBeUndefined();
    expect(git("git config core.fsmonitor x").writes).toEqual([join(ws, ".git", "config")]);
    expect(git("git config --global core.pager x").writes).toEqual([join(home, ".gitconfig")]);
  });
  test("a writing subcommand given a program to run is opaque", () => {
    for (const line of ["git push --receive-pack=x origin", "git fetch --upload-pack=x", "git rebase -x make main", "git submodule foreach ls", "git bisect run ./t", "git filter-branch x"]) {
      expect({ line, opaque: git(line).opaque !== undefined }).toEqual({ line, opaque: true });
    }
    expect(git("git push origin main").opaque).toBeUndefined();
  });
  test("an environment prefix other than locale and colour settings is not read-only", () => {
    expect(analyzeGit(command("git log", ws, ["LC_ALL=C"]), where).readOnly).toBe(true);
    expect(analyzeGit(command("git log", ws, ["GIT_PAGER=sh"]), where).readOnly).toBe(false);
  });
});

describe("repository discovery", () => {
  test("the workspace's own repository, a folder in it, and a submodule of it", () => {
    expect(foreignRepository(ws, where)).toBeUndefined();
    expect(foreignRepository(join(ws, "src"), where)).toBeUndefined();
    expect(foreignRepository(join(ws, "sub"), where)).toBeUndefined();
    expect(foreignRepository(join(ws, ".git"), where)).toBeUndefined();
  });
  test("a workspace that is a folder of a repository runs that repository, from inside the workspace only", () => {
    const inner = { workspace: join(ws, "src"), home };
    expect(foreignRepository(join(ws, "src"), inner)).toBeUndefined();
    expect(foreignRepository(join(ws, "vendor/lib"), inner)).toContain("vendor/lib");
  });
  test("an embedded repository, a bare one, one outside, or --git-dir elsewhere is foreign", () => {
    expect(foreignRepository(join(ws, "vendor/lib"), where)).toContain("vendor/lib");
    expect(foreignRepository(join(ws, "vendor/bare"), where)).toContain("bare repository");
    expect(foreignRepository(join(root, "outside"), where)).toContain("outside");
    expect(foreignRepository(ws, where, "vendor/lib/.git")).toContain("another repository");
    expect(foreignRepository(ws, where, ".git")).toBeUndefined();
  });
  test("a git command there is opaque, whatever its subcommand", () => {
    expect(git("git status", join(ws, "vendor/lib")).opaque).toContain("not the workspace's own");
    expect(git("git -C vendor/bare log").opaque).toContain("bare repository");
    expect(git("git --work-tree=/tmp status").opaque).toContain("work tree");
  });
});

describe("remote URLs", () => {
  test("git remote -v and get-url ask once the repository's config holds a URL with a password", () => {
    expect(git("git remote -v").secret).toBeUndefined();
    writeFileSync(join(ws, ".git", "config"), '[remote "origin"]\n\turl = https://x-access-token:ghs_abc@github.com/o/r.git\n');
    try {
      expect(git("git remote -v").secret).toContain(".git/config");
      expect(git("git remote get-url origin").secret).toContain(".git/config");
      expect(git("git log").secret).toBeUndefined();
    } finally {
      rmSync(join(ws, ".git", "config"));
    }
  });
});
