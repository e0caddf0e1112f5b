// Secrets through every route, through the whole engine in a real workspace and home, in auto mode
// (where a bare allow of everything would otherwise win): credential paths named in text the
// analysis cannot follow, programs that print a credential, recursive reads, symlinks leading out,
// .env filters, and programs found through PATH inside the workspace.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { credentialMention } from "../../../src/permission/credential-text.ts";
import { engineContext, expandRequests } from "../../../src/permission/engine.ts";
import { envFilter } from "../../../src/permission/env-filters.ts";
import { evaluate } from "../../../src/permission/evaluate.ts";
import { DEFAULT_RULES, modeRules, type PermissionMode } from "../../../src/permission/modes.ts";
import { programInWorkspace } from "../../../src/permission/path-lookup.ts";
import { envFile } from "../../../src/permission/sensitive.ts";
import { redTeamDirs } from "./redteam/fixture.ts";

const dirs = redTeamDirs();
afterAll(() => dirs.remove());
const ws = dirs.workspace;
mkdirSync(join(ws, "bin"));
writeFileSync(join(ws, "bin", "ls"), "#!/bin/sh\n");
chmodSync(join(ws, "bin", "ls"), 0o755);
mkdirSync(join(ws, "plain"));
writeFileSync(join(ws, "plain", "a.txt"), "a\n");
mkdirSync(join(ws, "linked"));
symlinkSync(join(dirs.root, "tmp"), join(ws, "linked", "out"));
symlinkSync("/usr/bin", join(ws, "plain", "system"));

async function decide(line: string, mode: PermissionMode = "auto", searchPath = "/usr/bin:/bin") {
  const ctx = engineContext({ cwd: ws, projectRoot: ws, home: dirs.home, reinDirs: [], tmp: join(dirs.root, "elsewhere"), searchPath });
  const { requests } = await expandRequests([{ permission: "bash", pattern: line, always: [] }], ctx);
  return evaluate(requests, [...DEFAULT_RULES, ...modeRules(mode)]);
}

describe("credential paths in text the analysis cannot follow", () => {
  const H = "/home/u";
  test.each([
    [`python3 -c 'open("/home/u/.ssh/id_rsa")'`, "/home/u/.ssh"],
    [`node -e "fs.readFileSync(os.homedir() + '/.aws/credentials')"`, "/home/u/.aws"],
    ["x=~/.ssh/id_rsa; cat $x", "/home/u/.ssh"],
    ["cat ~/.s?h/id_rsa", "/home/u/.ssh"],
    ["cat ~/.$d/id_rsa", "/home/u/.ssh"],
    [`python -c "open('/etc/shadow')"`, "/etc/shadow"],
  ])("%p names %p", (line, path) => {
    expect(credentialMention(line, H, ["/w"])?.path).toBe(path);
  });
  test.each(["for f in *.ts; do wc -l \"$f\"; done", "echo $PATH", "cat .npmrc", "ls /*", "ls ~/.x*"])("%p names none", (line) => {
    expect(credentialMention(line, H, ["/w"])).toBeUndefined();
  });
  test("an ambiguous name (.npmrc) counts only at the home", () => {
    expect(credentialMention("python -c \"open('.npmrc')\"", H, [H])?.path).toBe("/home/u/.npmrc");
  });
  test("such a line is denied in auto mode", async () => {
    expect((await decide(`python3 -c 'print(open("${dirs.home}/.ssh/id_rsa").read())'`)).action).toBe("deny");
    expect((await decide("echo ~/.ssh/id_rsa | xargs cat")).action).toBe("deny");
  });
});

describe("programs that print a credential", () => {
  test.each(["gh auth token", "gpg --armor --export-secret-keys", "aws configure get aws_secret_access_key", "kubectl config view --raw", "docker-credential-desktop get"])(
    "%p is denied in auto mode",
    async (line) => {
      expect((await decide(line)).action).toBe("deny");
    },
  );
  test("their harmless neighbours are not", async () => {
    expect((await decide("gh pr list")).action).toBe("allow");
    expect((await decide("kubectl config view")).action).toBe("allow");
  });
});

describe("recursive reads", () => {
  test("of a folder holding credentials: denied in auto mode; a listing of it is not", async () => {
    expect((await decide(`grep -r key ${dirs.home}`)).action).toBe("deny");
    expect((await decide(`find ${dirs.root}`)).action).toBe("deny");
    expect((await decide(`ls -la ${dirs.home}`)).action).toBe("allow");
    expect((await decide(`ls -R ${dirs.home}`)).action).toBe("deny");
  });
  test("of a folder holding a symlink out of the workspace, by a reader that follows links: asks, even in auto mode", async () => {
    expect((await decide("grep -r x linked", "default")).action).toBe("allow"); // grep -r follows only the links it is given
    const result = await decide("grep -R x linked");
    expect(result.action).toBe("ask");
    expect(result.requests.find((r) => r.action === "ask")?.reason).toContain("symlink");
    expect((await decide("grep -r x plain", "default")).action).toBe("allow"); // a link into /usr/bin leads nowhere private
    expect((await decide("cat linked/../plain/a.txt", "default")).action).not.toBe("deny");
  });
});

describe("a recursive read of a folder too large to walk for symlinks", () => {
  // More entries than the symlink walk looks at, with an environment file below them all.
  const big = join(ws, "big");
  mkdirSync(join(big, "files"), { recursive: true });
  for (let i = 0; i < 10_100; i++) writeFileSync(join(big, "files", `f${i}.txt`), "");
  mkdirSync(join(big, "zz", "service"), { recursive: true });
  writeFileSync(join(big, "zz", "service", ".env"), "KEY=1\n");
  const clean = join(ws, "big-clean");
  mkdirSync(clean);
  for (let i = 0; i < 10_100; i++) writeFileSync(join(clean, `f${i}.txt`), "");

  test("still finds the environment file past that walk, and asks for a read of its contents", async () => {
    for (const line of ["grep -r KEY big", "rg --hidden KEY big"]) {
      const result = await decide(line, "default");
      expect(result.action).toBe("ask");
      expect(result.requests.find((r) => r.action === "ask")?.reason).toContain("environment file");
    }
    expect((await decide("rg KEY big", "default")).action).toBe("allow"); // rg reads no dot file without --hidden
    expect((await decide("find big -name x", "default")).action).toBe("allow"); // names only: nothing read
  });
  test("a folder as large without one is read without asking", async () => {
    expect((await decide("grep -r KEY big-clean", "default")).action).toBe("allow");
  });
});

describe("the .env family", () => {
  test.each([".env", ".env.local", ".env-prod", ".env_test", ".envrc", ".env~", "#.env#", ".env.swp", "prod.env", ".ENV"])("%p is an environment file", (name) => {
    expect(envFile(name)).toBe(true);
  });
  test.each([".env.example", ".env.sample", ".env.template", "environment.ts", "env.d.ts", ".environment"])("%p is not", (name) => {
    expect(envFile(name)).toBe(false);
  });
  test("a filter selecting them is found; echo only prints the word", () => {
    expect(envFilter(["grep", "-r", "--include=.env", "x", "."])).toBe("--include=.env");
    expect(envFilter(["rg", "-g", ".env*", "x"])).toBe(".env*");
    expect(envFilter(["grep", "-r", "--include=*.ts", "x", "."])).toBeUndefined();
    expect(envFilter(["echo", ".env"])).toBeUndefined();
  });
});

describe("a program found through PATH", () => {
  test("inside the workspace: opaque, so it asks under the defaults", async () => {
    expect(programInWorkspace("ls", ws, "bin:/usr/bin", ws, dirs.home)).toBe(join(ws, "bin", "ls"));
    expect(programInWorkspace("ls", ws, "/usr/bin:bin", ws, dirs.home)).toBeUndefined();
    expect(programInWorkspace("cd", ws, "bin", ws, dirs.home)).toBeUndefined();
    expect((await decide("ls", "default", `${join(ws, "bin")}:/usr/bin`)).action).toBe("ask");
    expect((await decide("ls", "default")).action).toBe("allow");
  });
});
