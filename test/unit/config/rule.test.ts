// The rule grammar: what parses, what is refused, and the round trip every saved rule relies on.
import { describe, expect, test } from "bun:test";
import { foreignPermissionWarnings, formatRule, parseRule, readRule, ruleNote } from "../../../src/config/rule.ts";
import { ruleText } from "../../../src/config/save-rules.ts";

describe("parseRule", () => {
  test("a bare permission matches every pattern", () => {
    expect(parseRule("edit", "allow")).toEqual({ permission: "edit", pattern: "*", action: "allow" });
  });

  test("the pattern is everything between the first ( and the last ), kept as written", () => {
    expect(parseRule("bash(npm test *)", "allow")).toEqual({ permission: "bash", pattern: "npm test *", action: "allow" });
    expect(parseRule("  bash(echo (hi))  ", "ask")).toEqual({ permission: "bash", pattern: "echo (hi)", action: "ask" });
    expect(parseRule("bash(rm x))", "deny")).toEqual({ permission: "bash", pattern: "rm x)", action: "deny" });
    expect(parseRule("bash(a)(b)", "deny")).toEqual({ permission: "bash", pattern: "a)(b", action: "deny" });
    expect(parseRule("bash( ls )", "ask")).toEqual({ permission: "bash", pattern: " ls ", action: "ask" });
  });

  test("names may use letters of either case, digits, _, -, . and *", () => {
    expect(parseRule("*", "deny")).toEqual({ permission: "*", pattern: "*", action: "deny" });
    expect(parseRule("myTool", "allow")).toEqual({ permission: "myTool", pattern: "*", action: "allow" });
    expect(parseRule("mcp__git.hub__create_issue-2(x)", "allow")).toEqual({ permission: "mcp__git.hub__create_issue-2", pattern: "x", action: "allow" });
  });

  test("malformed rules return the problem", () => {
    expect(parseRule("", "allow")).toBe("empty rule");
    expect(parseRule("   ", "allow")).toBe("empty rule");
    expect(parseRule("bash((", "allow")).toBe("missing the closing parenthesis at the end");
    expect(parseRule("bash(npm test", "allow")).toBe("missing the closing parenthesis at the end");
    expect(parseRule("bash)", "allow")).toBe('invalid permission name "bash)" (use letters, digits, _, -, . and *)');
    expect(parseRule("(npm test)", "allow")).toBe("empty permission name");
    expect(parseRule("bash()", "allow")).toBe("empty pattern; write bash alone to match everything");
    expect(parseRule("read file", "allow")).toBe('invalid permission name "read file" (use letters, digits, _, -, . and *)');
  });
});

describe("the permission's name", () => {
  test("a misspelling of a known permission is refused with the closest suggested", () => {
    expect(readRule("bsah(rm *)", "deny")).toEqual({ error: expect.stringContaining('unknown permission "bsah" (did you mean "bash"?') });
    expect(readRule("Bash(rm *)", "deny")).toEqual({ error: expect.stringContaining('did you mean "bash"?') });
    expect(readRule("reed", "allow")).toEqual({ error: expect.stringContaining('did you mean "read"?') });
    expect(readRule("external_directroy", "allow")).toEqual({ error: expect.stringContaining('did you mean "external_directory"?') });
    expect(readRule("bsah(rm *)", "deny")).toEqual({ error: expect.stringContaining("known permissions: bash, read, edit, external_directory, webfetch") });
  });

  test("a built-in tool checked under another name is refused, naming the one to write", () => {
    expect(readRule("write(src/*)", "deny")).toEqual({ error: expect.stringContaining('the write tool is checked as edit, so a rule for "write" matches nothing') });
    expect(readRule("grep", "allow")).toEqual({ error: expect.stringContaining("checked as read") });
  });

  test("a name that may belong to a user, project or MCP tool loads; it is warned about while no tool of that name is loaded", () => {
    expect(readRule("myTool", "allow")).toEqual({ rule: { permission: "myTool", pattern: "*", action: "allow" } });
    expect(ruleNote({ permission: "myTool", pattern: "*", action: "allow" })).toEqual({ foreign: true });
    expect(ruleNote({ permission: "todo", pattern: "*", action: "allow" })).toEqual({ warning: expect.stringContaining("asks for no permission") });
    const foreign = [
      { permission: "myTool", where: "--allow" },
      { permission: "mcp__github__create_issue", where: "config.json" },
    ];
    expect(foreignPermissionWarnings(foreign, ["bash", "myTool"])).toEqual([
      expect.stringContaining('config.json: "mcp__github__create_issue" is none of rein\'s permissions'),
    ]);
    expect(foreignPermissionWarnings(foreign, ["myTool", "mcp__github__create_issue"])).toEqual([]);
    expect(readRule("bash(ls *)", "allow")).toEqual({ rule: { permission: "bash", pattern: "ls *", action: "allow" } });
    expect(readRule("mcp__*", "deny")).toEqual({ rule: { permission: "mcp__*", pattern: "*", action: "deny" } });
  });
});

// Generated names and patterns: every name a tool can have, every pattern the engine can save.
const NAME_CHARS = "abcXYZ019_-.";
const PATTERN_PIECES = ["(", ")", "'", '"', "*", "\\", " ", "\\*", "x", "rm", "$(", "`", "é", "\t", ")(", "))", "(("];

function* generated(count: number, seed = 7): Generator<{ permission: string; pattern: string }> {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  for (let i = 0; i < count; i++) {
    const nameLength = 1 + next(12);
    let permission = next(4) === 0 ? "mcp__" : "";
    for (let j = 0; j < nameLength; j++) permission += NAME_CHARS[next(NAME_CHARS.length)];
    if (next(3) === 0) permission += `__${NAME_CHARS[next(NAME_CHARS.length)]}`;
    let pattern = "";
    const pieces = 1 + next(8);
    for (let j = 0; j < pieces; j++) pattern += PATTERN_PIECES[next(PATTERN_PIECES.length)];
    yield { permission, pattern };
  }
}

describe("writing and parsing a rule round-trip", () => {
  test("for 5,000 generated names and patterns", () => {
    const failures: string[] = [];
    for (const rule of generated(5000)) {
      const back = parseRule(formatRule(rule), "allow");
      if (typeof back === "string" || back.permission !== rule.permission || back.pattern !== rule.pattern) {
        failures.push(`${JSON.stringify(rule)} -> ${JSON.stringify(back)}`);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  test("the text saved for an approval is the one that loads back", () => {
    expect(ruleText({ permission: "myTool", pattern: "*" })).toBe("myTool");
    expect(ruleText({ permission: "bash", pattern: "rm 'x)'" })).toBe("bash(rm 'x)')");
    expect(parseRule(ruleText({ permission: "bash", pattern: "rm x)" }), "allow")).toEqual({ permission: "bash", pattern: "rm x)", action: "allow" });
    expect(() => ruleText({ permission: "bash", pattern: "" })).toThrow("cannot be saved as a rule");
    expect(() => ruleText({ permission: "my tool", pattern: "x" })).toThrow("cannot be saved as a rule");
  });
});
