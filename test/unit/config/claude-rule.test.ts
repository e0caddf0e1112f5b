// Claude Code's rule syntax in rein's rules: every form its docs list, each written back through
// rein's one grammar (parse(format(rule)) is the rule).
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { translateClaudeRule } from "../../../src/config/claude-rule.ts";
import { formatRule, parseRule } from "../../../src/permission/rule-syntax.ts";
import { tempDir } from "../../support/temp-dir.ts";

const base = { cwd: "/work/proj/pkg", root: "/work/proj", home: "/home/u" };
const rein = (text: string, action: "allow" | "ask" | "deny" = "allow") => {
  const rules = translateClaudeRule(text, action, base);
  return typeof rules === "string" ? rules : rules.map((rule) => formatRule(rule));
};

describe("translateClaudeRule", () => {
  test("Bash: the legacy prefix form, exact commands, wildcards, the bare tool", () => {
    expect(rein("Bash(npm run test:*)")).toEqual(["bash(npm run test *)"]);
    expect(rein("Bash(git diff:*)")).toEqual(["bash(git diff *)"]);
    expect(rein("Bash(npm test)")).toEqual(["bash(npm test)"]);
    expect(rein("Bash(git * main)")).toEqual(["bash(git * main)"]);
    expect(rein("Bash")).toEqual(["bash"]);
    expect(rein("Bash(*)")).toEqual(["bash"]);
  });

  test("Read and Edit paths: ./ and bare from the working directory, / from the project root, // absolute, ~ home", () => {
    expect(rein("Read(./secrets/**)")).toEqual(["read(/work/proj/pkg/secrets)", "read(/work/proj/pkg/secrets/*)"]);
    expect(rein("Read(./secret.txt)")).toEqual(["read(/work/proj/pkg/secret.txt)"]);
    expect(rein("Edit(src/**)")).toEqual(["edit(/work/proj/pkg/src)", "edit(/work/proj/pkg/src/*)"]);
    expect(rein("Edit(/docs/**)")).toEqual(["edit(/work/proj/docs)", "edit(/work/proj/docs/*)"]);
    expect(rein("Read(//etc/hosts)")).toEqual(["read(/etc/hosts)"]);
    expect(rein("Read(~/x)")).toEqual(["read(/home/u/x)"]);
    expect(rein("Read(*.env)")).toEqual(["read(/work/proj/pkg/*.env)"]);
    expect(rein("Read(./build/)")).toEqual(["read(/work/proj/pkg/build)", "read(/work/proj/pkg/build/*)"]);
    // Claude Code's other file tools are checked under the same permissions in rein.
    expect(rein("Write(out/**)")).toEqual(["edit(/work/proj/pkg/out)", "edit(/work/proj/pkg/out/*)"]);
    expect(rein("MultiEdit")).toEqual(["edit"]);
    expect(rein("Glob")).toEqual(["read"]);
    expect(rein("Read")).toEqual(["read"]);
  });

  test("WebFetch by domain is every http(s) URL of that host, and nothing that only starts with it", () => {
    expect(rein("WebFetch(domain:example.com)")).toEqual([
      "webfetch(https://example.com)",
      "webfetch(https://example.com/*)",
      "webfetch(http://example.com)",
      "webfetch(http://example.com/*)",
    ]);
    expect(rein("WebFetch")).toEqual(["webfetch"]);
    expect(rein("WebFetch(domain:ex ample)")).toContain("is not a host name");
  });

  test("MCP tools and servers, skills and agents keep their names", () => {
    expect(rein("mcp__github__create_issue")).toEqual(["mcp__github__create_issue"]);
    expect(rein("mcp__github")).toEqual(["mcp__github"]);
    expect(rein("mcp__github__*")).toEqual(["mcp__github__*"]);
    expect(rein("Skill(deploy)")).toEqual(["skill(deploy)"]);
    expect(rein("Agent(explore)")).toEqual(["task(explore)"]);
    expect(rein("Task(general)")).toEqual(["task(general)"]);
  });

  test("what rein cannot translate says why", () => {
    expect(rein("ExitPlanMode")).toBe("rein has no tool for Claude Code's ExitPlanMode");
    expect(rein("WebSearch")).toEqual(["websearch"]);
    expect(rein("TodoWrite")).toBe("rein has no tool for Claude Code's TodoWrite");
    expect(rein("Bash(npm test")).toBe("missing the closing parenthesis at the end");
    expect(rein("mcp__x__y(arg)")).toBe("an MCP rule takes no pattern in parentheses");
    expect(translateClaudeRule(42 as unknown as string, "deny", base)).toBe("not a string");
  });

  test("every translation round-trips through rein's grammar with its action", () => {
    const forms = ["Bash(npm run test:*)", "Read(./secrets/**)", "Edit(src/**)", "Read(//abs)", "Read(~/x)", "WebFetch(domain:example.com)", "mcp__server__tool", "Skill(name)", "Agent(name)"];
    for (const action of ["allow", "ask", "deny"] as const) {
      for (const form of forms) {
        const rules = translateClaudeRule(form, action, base);
        if (typeof rules === "string") throw new Error(`${form}: ${rules}`);
        for (const rule of rules) expect(parseRule(formatRule(rule), action)).toEqual(rule);
      }
    }
  });

  test("a path's folders are resolved through symlinks, as the requests' paths are", () => {
    const dir = tempDir("rein-claude-rule-");
    try {
      const real = join(dir.path, "real");
      mkdirSync(real);
      symlinkSync(real, join(dir.path, "link"));
      const rules = translateClaudeRule("Read(./link/secret.txt)", "deny", { ...base, cwd: dir.path });
      expect(rules).toEqual([{ permission: "read", pattern: `${realpathSync(real)}/secret.txt`, action: "deny" }]);
    } finally {
      dir.remove();
    }
  });
});
