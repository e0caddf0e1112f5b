import { describe, expect, test } from "bun:test";
import { matchWildcard } from "../../../src/permission/wildcard.ts";

describe("matchWildcard", () => {
  test("a trailing ' *' also matches nothing: `ls *` matches ls and ls -la, not lsblk", () => {
    expect(matchWildcard("ls *", "ls")).toBe(true);
    expect(matchWildcard("ls *", "ls -la")).toBe(true);
    expect(matchWildcard("ls *", "ls -la /tmp /var")).toBe(true);
    expect(matchWildcard("ls *", "lsblk")).toBe(false);
    expect(matchWildcard("ls *", "lsblk -a")).toBe(false);
    expect(matchWildcard("ls *", "els -la")).toBe(false);
  });

  test("`git checkout *` keeps the subcommand fixed", () => {
    expect(matchWildcard("git checkout *", "git checkout main")).toBe(true);
    expect(matchWildcard("git checkout *", "git checkout")).toBe(true);
    expect(matchWildcard("git checkout *", "git checkoutx")).toBe(false);
    expect(matchWildcard("git checkout *", "git push")).toBe(false);
  });

  test("`*` matches anything, including nothing and newlines", () => {
    for (const text of ["", "x", "rm -rf /", "line one\nline two", "\n", "tab\tand\r\nCRLF"]) {
      expect(matchWildcard("*", text)).toBe(true);
    }
  });

  test("`*` inside a pattern matches across newlines too", () => {
    expect(matchWildcard("echo *", "echo a\nb")).toBe(true);
    expect(matchWildcard("src/*.ts", "src/a\nb.ts")).toBe(true);
    expect(matchWildcard("a*z", "a\n\nz")).toBe(true);
  });

  test("the match is anchored at both ends", () => {
    expect(matchWildcard("rm", "rm -rf /")).toBe(false);
    expect(matchWildcard("rm", "xrm")).toBe(false);
    expect(matchWildcard("*.env", ".env")).toBe(true);
    expect(matchWildcard("*.env", ".env.local")).toBe(false);
    expect(matchWildcard("*/.env", "app/.env")).toBe(true);
  });

  test("regex metacharacters in patterns are literal", () => {
    expect(matchWildcard("a.b", "a.b")).toBe(true);
    expect(matchWildcard("a.b", "axb")).toBe(false);
    expect(matchWildcard("(x)", "(x)")).toBe(true);
    expect(matchWildcard("(x)", "x")).toBe(false);
    expect(matchWildcard("a+", "aaa")).toBe(false);
    expect(matchWildcard("a+", "a+")).toBe(true);
    expect(matchWildcard("[ab]", "a")).toBe(false);
    expect(matchWildcard("[ab]", "[ab]")).toBe(true);
    expect(matchWildcard("a|b", "a")).toBe(false);
    expect(matchWildcard("^$", "^$")).toBe(true);
    expect(matchWildcard("^$", "")).toBe(false);
    expect(matchWildcard("a?", "a")).toBe(false);
    expect(matchWildcard("a{2}", "aa")).toBe(false);
    // a backslash before * or \ escapes it (see "escapes"); before anything else it is literal
    expect(matchWildcard("C:\\dir\\\\*", "C:\\dir\\file")).toBe(true);
    expect(matchWildcard("C:\\dir\\*", "C:\\dir\\file")).toBe(false);
    expect(matchWildcard("C:\\d", "C:d")).toBe(false);
    expect(matchWildcard("$HOME/*", "$HOME/x")).toBe(true);
  });

  test("the same pattern gives the same answer every time (the compiled form is cached safely)", () => {
    expect(matchWildcard("cache *", "cache hit")).toBe(true);
    expect(matchWildcard("cache *", "cachemiss")).toBe(false);
    expect(matchWildcard("cache *", "cache hit")).toBe(true);
  });
});

describe("escapes", () => {
  test("\\* is a literal star and \\\\ a literal backslash", () => {
    expect(matchWildcard("rm -rf build/\\*", "rm -rf build/*")).toBe(true);
    expect(matchWildcard("rm -rf build/\\*", "rm -rf build/ /")).toBe(false);
    expect(matchWildcard("echo a\\\\b", "echo a\\b")).toBe(true);
    expect(matchWildcard("echo a\\\\*", "echo a\\anything")).toBe(true);
    expect(matchWildcard("ls *", "ls")).toBe(true);
  });
});
