import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isInside, resolveForCheck } from "../../../src/permission/paths.ts";

// root/home/.ssh/id_rsa, root/secret/, root/ws/ with links into them.
const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-paths-")));
const home = join(root, "home");
const ws = join(root, "ws");
const secret = join(root, "secret");
for (const dir of [join(home, ".ssh"), join(ws, "src"), join(secret, "inner")]) mkdirSync(dir, { recursive: true });
writeFileSync(join(home, ".ssh", "id_rsa"), "key");
writeFileSync(join(secret, "inner", "file.txt"), "x");
symlinkSync(join(home, ".ssh"), join(ws, "keys")); // absolute link to a folder
symlinkSync("../secret/inner", join(ws, "rel")); // relative link
symlinkSync(join(ws, "keys"), join(ws, "chain")); // a link to a link
symlinkSync(join(home, ".ssh", "authorized_keys"), join(ws, "dangling")); // target does not exist yet
symlinkSync(join(ws, "loop-b"), join(ws, "loop-a"));
symlinkSync(join(ws, "loop-a"), join(ws, "loop-b"));
symlinkSync(ws, join(root, "ws-link")); // a cwd reached through a link
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("resolveForCheck", () => {
  const cases: Array<[string, string, string]> = [
    ["a relative path against cwd", "src/a.ts", join(ws, "src/a.ts")],
    ["`.` is cwd", ".", ws],
    ["`..` leaves cwd", "../secret/inner/file.txt", join(secret, "inner/file.txt")],
    ["an absolute path stays", "/etc/../etc/hostname", realpathSync("/etc") + "/hostname"],
    ["~ is home", "~", home],
    ["~/x under home", "~/.ssh/id_rsa", join(home, ".ssh/id_rsa")],
    ["$HOME/x under home", "$HOME/.ssh/id_rsa", join(home, ".ssh/id_rsa")],
    ["${HOME}/x under home", "${HOME}/.ssh", join(home, ".ssh")],
    ["$HOMEX is not $HOME", "$HOMEX/a", join(ws, "$HOMEX/a")],
    ["~root is /root", "~root/.ssh", "/root/.ssh"],
    ["~user is beside home", "~bob/.ssh/id_rsa", join(root, "bob/.ssh/id_rsa")],
    ["a tilde inside a word is literal", "a~/b", join(ws, "a~/b")],
    ["a link to a folder", "keys/id_rsa", join(home, ".ssh/id_rsa")],
    ["a file not yet there, under a link", "keys/new_key", join(home, ".ssh/new_key")],
    ["a relative link", "rel/file.txt", join(secret, "inner/file.txt")],
    ["a chain of links", "chain/id_rsa", join(home, ".ssh/id_rsa")],
    ["a dangling link is followed to where a write would land", "dangling", join(home, ".ssh/authorized_keys")],
    ["`..` after a link is taken from the link's target, as the kernel does", "keys/../.ssh/id_rsa", join(home, ".ssh/id_rsa")],
    ["`..` after a relative link", "rel/../inner/file.txt", join(secret, "inner/file.txt")],
    ["missing folders are kept as written, `..` taken lexically", "nope/deeper/../x", join(ws, "nope/x")],
  ];
  test.each(cases)("%s", (_, path, expected) => {
    expect(resolveForCheck(path, ws, home)).toBe(expected);
  });

  test("a cwd reached through a link is resolved too", () => {
    expect(resolveForCheck("src/a.ts", join(root, "ws-link"), home)).toBe(join(ws, "src/a.ts"));
    expect(resolveForCheck(join(root, "ws-link", "keys"), "/", home)).toBe(join(home, ".ssh"));
  });

  test("a symlink loop ends instead of hanging, inside the folder of the loop", () => {
    const resolved = resolveForCheck("loop-a/x", ws, home);
    expect(dirname(resolved).startsWith(ws)).toBe(true);
  });
});

describe("isInside", () => {
  const cases: Array<[string, string, boolean]> = [
    ["/w", "/w", true],
    ["/w/a/b", "/w", true],
    ["/w/..hidden", "/w", true],
    ["/w", "/w/a", false],
    ["/wx/a", "/w", false],
    ["/etc/passwd", "/w", false],
    ["/", "/w", false],
    ["/w/a", "/", true],
  ];
  test.each(cases)("%p inside %p: %p", (path, dir, expected) => {
    expect(isInside(path, dir)).toBe(expected);
  });

  test("with resolved paths, a link in the workspace to a folder outside is outside", () => {
    expect(isInside(resolveForCheck("keys/id_rsa", ws, home), ws)).toBe(false);
    expect(isInside(resolveForCheck("src/a.ts", ws, home), ws)).toBe(true);
  });
});
