import { describe, expect, test } from "bun:test";
import { alwaysPattern, commandPatterns, commandText, escapeWildcard, isDestructive } from "../../../src/permission/always.ts";
import { matchRule, type Action, type Rule } from "../../../src/permission/evaluate.ts";
import type { ShellCommand } from "../../../src/permission/shell/types.ts";
import { matchWildcard } from "../../../src/permission/wildcard.ts";

const command = (argv: string[], extra: Partial<ShellCommand> = {}): ShellCommand => ({
  argv,
  env: [],
  wrappers: [],
  cwd: "/work",
  text: argv.join(" "),
  ...extra,
});
const words = (text: string) => text.split(" ");
const rule = (pattern: string, action: Action): Rule => ({ permission: "bash", pattern, action });

// The engine's use of commandPatterns, as documented there: the pattern decides, then a deny (or
// an ask from a rule other than the bare `*`) found for an alsoCheck form overrides an allow.
function decide(c: ShellCommand, rules: Rule[]): Action {
  const { pattern, alsoCheck } = commandPatterns(c);
  const inner = alsoCheck.map((text) => matchRule({ permission: "bash", pattern: text, always: [] }, rules));
  if (inner.some((r) => r?.action === "deny")) return "deny";
  const own = matchRule({ permission: "bash", pattern, always: [] }, rules)?.action ?? "ask";
  if (own === "deny") return "deny";
  if (inner.some((r) => r?.action === "ask" && r.pattern !== "*")) return "ask";
  return own;
}

describe("alwaysPattern generalises by the arity table", () => {
  const cases: Array<[string, string]> = [
    ["git checkout main", "git checkout *"],
    ["npm run dev", "npm run dev *"],
    ["docker compose up -d", "docker compose up *"],
    ["aws s3 ls s3://b", "aws s3 ls *"],
    ["kubectl get pods", "kubectl get *"],
    ["cargo build --release", "cargo build *"],
    ["ls -la", "ls *"],
    ["python -m pytest x", "python -m pytest *"],
    ["chmod 755 script.sh", "chmod *"],
    ["git push origin main", "git push *"],
    ["git reset --soft HEAD~1", "git reset *"],
    ["find . -name x", "find *"],
  ];
  test.each(cases)("%p -> %p", (text, pattern) => {
    const c = command(words(text));
    expect(alwaysPattern(c)).toBe(pattern);
    expect(matchWildcard(pattern, commandPatterns(c).pattern)).toBe(true);
  });
});

describe("alwaysPattern saves exactly", () => {
  const cases: Array<[string, ShellCommand, string]> = [
    ["a wrapper", command(words("rm -rf x"), { wrappers: ["sudo"] }), "sudo rm -rf x"],
    ["a wrapper around a harmless command", command(words("npm test"), { wrappers: ["timeout"] }), "timeout npm test"],
    ["an env assignment", command(words("npm test"), { env: ["LD_PRELOAD=x"] }), "LD_PRELOAD=x npm test"],
    ["an opaque command", command(["python", "-c", "print(1)"], { opaque: "interpreter code" }), "python -c print(1)"],
    ["a wrapper the analysis did not look through", command(words("sudo ls")), "sudo ls"],
    ["a shell", command(words("bash script.sh")), "bash script.sh"],
    ["global flags before the subcommand", command(words("git -C repo status --short")), "git -C repo status --short"],
    ["too few words for the table", command(words("git")), "git"],
    ["rm", command(words("rm -rf build")), "rm -rf build"],
    ["a glob, escaped", command(["rm", "-rf", "build/*"], { dynamic: true }), "rm -rf build/\\*"],
    ["git push --force", command(words("git push --force origin main")), "git push --force origin main"],
    ["git push -f in a bundle", command(words("git push -fu origin main")), "git push -fu origin main"],
    ["git push --force-with-lease", command(words("git push --force-with-lease")), "git push --force-with-lease"],
    ["git push +refspec", command(words("git push origin +main")), "git push origin +main"],
    ["git reset --hard", command(words("git reset --hard HEAD~1")), "git reset --hard HEAD~1"],
    ["git clean", command(words("git clean -fd")), "git clean -fd"],
    ["chmod -R", command(words("chmod -R 777 /srv")), "chmod -R 777 /srv"],
    ["chown --recursive", command(words("chown --recursive me dir")), "chown --recursive me dir"],
    ["mkfs.ext4", command(words("mkfs.ext4 /dev/sdb1")), "mkfs.ext4 /dev/sdb1"],
    ["a quoted word", command(["rm", "a b"]), "rm 'a b'"],
  ];
  test.each(cases)("%s", (_, c, pattern) => {
    expect(alwaysPattern(c)).toBe(pattern);
  });

  test("an exact pattern matches its own command and not a wider one", () => {
    const c = command(words("rm -rf build"));
    expect(matchWildcard(alwaysPattern(c), commandPatterns(c).pattern)).toBe(true);
    expect(matchWildcard(alwaysPattern(c), "rm -rf build /")).toBe(false);
  });

  test("an escaped glob never matches a wider command (until wildcard.ts reads escapes, nothing at all)", () => {
    const pattern = alwaysPattern(command(["rm", "-rf", "build/*"], { dynamic: true }));
    expect(matchWildcard(pattern, "rm -rf build/ /")).toBe(false);
    expect(matchWildcard(pattern, "rm -rf build/x")).toBe(false);
  });
});

describe("commandPatterns", () => {
  test("a plain command: its words, nothing else to check", () => {
    expect(commandPatterns(command(words("git status")))).toEqual({ pattern: "git status", alsoCheck: [] });
  });

  test("a wrapper: the full text, and the inner command for deny and ask rules", () => {
    expect(commandPatterns(command(words("rm -rf x"), { wrappers: ["sudo"] }))).toEqual({
      pattern: "sudo rm -rf x",
      alsoCheck: ["rm -rf x"],
    });
  });

  test("assignments that change only how it prints are left out; the others stay", () => {
    expect(commandPatterns(command(words("sort f"), { env: ["LC_ALL=C", "TZ=UTC"] }))).toEqual({ pattern: "sort f", alsoCheck: [] });
    expect(commandPatterns(command(words("date"), { env: ["TZ=/etc/shadow"] })).pattern).toBe("TZ=/etc/shadow date");
    expect(commandPatterns(command(words("ls"), { env: ["LANG=C", "LD_PRELOAD=x"] })).pattern).toBe("LD_PRELOAD=x ls");
    expect(alwaysPattern(command(words("sort f"), { env: ["LC_ALL=C"] }))).toBe("sort *");
  });

  test("env assignments: with and without them", () => {
    expect(commandPatterns(command(words("npm test"), { env: ["LD_PRELOAD=x"] }))).toEqual({
      pattern: "LD_PRELOAD=x npm test",
      alsoCheck: ["npm test"],
    });
  });

  test("wrappers and env: every form with outer wrappers or the assignments dropped", () => {
    const c = command(words("rm x"), { wrappers: ["timeout", "sudo"], env: ["A=1"] });
    expect(commandPatterns(c)).toEqual({
      pattern: "timeout sudo A=1 rm x",
      alsoCheck: ["timeout sudo rm x", "sudo A=1 rm x", "sudo rm x", "A=1 rm x", "rm x"],
    });
  });

  test("the issue's example: --allow 'bash(*)' --deny 'bash(rm *)' denies sudo rm -rf x", () => {
    const rules = [rule("*", "allow"), rule("rm *", "deny")];
    expect(decide(command(words("rm -rf x"), { wrappers: ["sudo"] }), rules)).toBe("deny");
    expect(decide(command(words("rm -rf x"), { env: ["FOO=1"] }), rules)).toBe("deny");
    expect(decide(command(words("ls")), rules)).toBe("allow");
  });

  test("an allow for the inner command does not allow the wrapped one", () => {
    const rules = [rule("*", "ask"), rule("rm *", "allow"), rule("npm test *", "allow")];
    expect(decide(command(words("rm -rf x")), rules)).toBe("allow");
    expect(decide(command(words("rm -rf x"), { wrappers: ["sudo"] }), rules)).toBe("ask");
    expect(decide(command(words("npm test"), { env: ["LD_PRELOAD=x"] }), rules)).toBe("ask");
  });

  test("a deny for a wrapper reaches it under another wrapper; an ask for the inner command is kept", () => {
    expect(decide(command(words("ls"), { wrappers: ["timeout", "sudo"] }), [rule("*", "allow"), rule("sudo *", "deny")])).toBe("deny");
    expect(decide(command(words("git push"), { wrappers: ["sudo"] }), [rule("*", "allow"), rule("git push *", "ask")])).toBe("ask");
    expect(decide(command(words("git status"), { wrappers: ["sudo"] }), [rule("*", "ask"), rule("sudo *", "allow")])).toBe("allow");
  });
});

describe("isDestructive", () => {
  const cases: Array<[string, boolean]> = [
    ["rm x", true],
    ["rmdir d", true],
    ["dd if=/dev/zero of=x", true],
    ["shred f", true],
    ["truncate -s 0 f", true],
    ["mkfs /dev/sda", true],
    ["chmod -R 755 d", true],
    ["chmod -Rf 755 d", true],
    ["chmod 755 d", false],
    ["chown -R u d", true],
    ["chown u d", false],
    ["find . -delete", true],
    ["find . -name x", false],
    ["rsync -a --delete a/ b/", true],
    ["rsync -a a/ b/", false],
    ["git push -f", true],
    ["git push --force-if-includes", true],
    ["git push origin :old", true],
    ["git push --delete origin old", true],
    ["git push origin main", false],
    ["git reset --hard", true],
    ["git reset HEAD", false],
    ["git clean -n", true],
    ["git branch -D x", true],
    ["git branch -d x", false],
    ["git branch --delete --force x", true],
    ["git stash drop", true],
    ["git stash pop", false],
    ["docker system prune -a", true],
    ["docker volume rm v", true],
    ["docker ps", false],
    ["kubectl delete pod x", true],
    ["kubectl get pods", false],
    ["terraform destroy", true],
    ["terraform plan", false],
    ["aws s3 rm s3://b/x", true],
    ["aws s3 ls", false],
    ["kill -9 1234", false],
    ["ls -la", false],
  ];
  test.each(cases)("%p -> %p", (text, expected) => {
    expect(isDestructive(words(text))).toBe(expected);
  });
});

describe("commandText and escapeWildcard", () => {
  test("words are single-spaced; empty words and words with whitespace are single-quoted", () => {
    expect(commandText(["git", "commit", "-m", "fix the bug"])).toBe("git commit -m 'fix the bug'");
    expect(commandText(["echo", ""])).toBe("echo ''");
    expect(commandText(["echo", "it's a"])).toBe("echo 'it'\\''s a'");
    expect(commandText(["echo", "it's"])).toBe("echo it's");
  });

  test("* and \\ are escaped", () => {
    expect(escapeWildcard("rm *.log a\\b")).toBe("rm \\*.log a\\\\b");
    expect(escapeWildcard("ls -la")).toBe("ls -la");
  });
});
