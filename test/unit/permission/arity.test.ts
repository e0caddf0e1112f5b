import { describe, expect, test } from "bun:test";
import { ARITY, commandPrefix } from "../../../src/permission/arity.ts";
import { matchWildcard } from "../../../src/permission/wildcard.ts";

const words = (command: string) => command.split(" ");

describe("commandPrefix", () => {
  const generalised: Array<[string, string]> = [
    ["git checkout main", "git checkout"],
    ["git checkout -b feature", "git checkout"],
    ["git status", "git status"],
    ["git stash pop", "git stash pop"],
    ["npm run dev", "npm run dev"],
    ["npm run dev -- --port 3000", "npm run dev"],
    ["npm install", "npm install"],
    ["npm test", "npm test"],
    ["docker compose up -d", "docker compose up"],
    ["docker run nginx", "docker run"],
    ["aws s3 ls s3://b", "aws s3 ls"],
    ["kubectl get pods", "kubectl get"],
    ["kubectl rollout restart deploy/api", "kubectl rollout restart"],
    ["cargo build --release", "cargo build"],
    ["ls -la", "ls"],
    ["ls", "ls"],
    ["python -m pytest x", "python -m pytest"],
    ["python3 -m venv .venv", "python3 -m venv"],
    ["systemctl --user restart app", "systemctl --user restart"],
    ["yarn workspace web build --prod", "yarn workspace web build"],
    ["gcloud compute instances list", "gcloud compute instances list"],
    ["make test", "make test"],
    ["./mvnw test -q", "./mvnw test"],
    ["mytool do things", "mytool"],
    ["./scripts/deploy.sh prod", "./scripts/deploy.sh"],
  ];
  test.each(generalised)("%p is named by %p", (command, prefix) => {
    expect(commandPrefix(words(command))).toEqual(words(prefix));
  });

  const exact: Array<[string, string[]]> = [
    ["no words", []],
    ["fewer words than the table asks for: git", ["git"]],
    ["fewer words than the table asks for: npm run", ["npm", "run"]],
    ["a global flag before the subcommand: git -C", ["git", "-C", "repo", "status", "--short"]],
    ["a flag where the subcommand is expected: git --version", ["git", "--version"]],
    ["a flag where a third naming word is expected", ["docker", "compose", "-f", "x.yml", "up"]],
    ["an expansion in a naming word", ["git", "$CMD", "x"]],
    ["a glob in a naming word", ["git", "che*", "x"]],
    ["whitespace in a naming word", ["git", "check out", "x"]],
    ["a backslash in a naming word", ["git", "a\\b"]],
  ];
  test.each(exact)("no prefix (saved exactly): %s", (_, argv) => {
    expect(commandPrefix(argv)).toEqual([]);
  });

  test("a command named like an Object.prototype member uses the default, not the prototype", () => {
    expect(commandPrefix(["constructor", "x"])).toEqual(["constructor"]);
    expect(commandPrefix(["toString", "a", "b"])).toEqual(["toString"]);
    expect(commandPrefix(["__proto__", "a"])).toEqual(["__proto__"]);
  });

  test("the prefix plus ` *` matches the command itself, its variants, and not other subcommands", () => {
    for (const [command] of generalised) {
      const pattern = `${commandPrefix(words(command)).join(" ")} *`;
      expect(matchWildcard(pattern, command)).toBe(true);
    }
    expect(matchWildcard("git checkout *", "git checkout dev")).toBe(true);
    expect(matchWildcard("git checkout *", "git push --force")).toBe(false);
    expect(matchWildcard("npm run dev *", "npm run build")).toBe(false);
  });
});

describe("ARITY", () => {
  test("has about 150 entries or more, each a positive whole number at least as long as its key", () => {
    const entries = Object.entries(ARITY);
    expect(entries.length).toBeGreaterThanOrEqual(150);
    const bad = entries.filter(([key, n]) => !Number.isInteger(n) || n < key.split(" ").length);
    expect(bad).toEqual([]);
  });

  test("keys are single-spaced words with no wildcard", () => {
    const bad = Object.keys(ARITY).filter((key) => key.trim() !== key || key.includes("  ") || key.includes("*"));
    expect(bad).toEqual([]);
  });
});
