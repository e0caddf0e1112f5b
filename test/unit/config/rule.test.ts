import { describe, expect, test } from "bun:test";
import { parseRule } from "../../../src/config/rule.ts";

describe("parseRule", () => {
  test("a bare permission matches every pattern", () => {
    expect(parseRule("edit", "allow")).toEqual({ permission: "edit", pattern: "*", action: "allow" });
  });

  test("a permission with a pattern keeps the pattern as written", () => {
    expect(parseRule("bash(npm test *)", "allow")).toEqual({ permission: "bash", pattern: "npm test *", action: "allow" });
    expect(parseRule("bash(git push *)", "deny")).toEqual({ permission: "bash", pattern: "git push *", action: "deny" });
  });

  test("outer and inner whitespace is trimmed; inner parentheses may nest", () => {
    expect(parseRule("  bash( echo (hi) )  ", "ask")).toEqual({ permission: "bash", pattern: "echo (hi)", action: "ask" });
  });

  test("names may use digits, _, - and *", () => {
    expect(parseRule("*", "deny")).toEqual({ permission: "*", pattern: "*", action: "deny" });
    expect(parseRule("web_fetch-2(https://*)", "allow")).toEqual({
      permission: "web_fetch-2",
      pattern: "https://*",
      action: "allow",
    });
  });

  test("malformed rules return the problem", () => {
    expect(parseRule("", "allow")).toBe("empty rule");
    expect(parseRule("   ", "allow")).toBe("empty rule");
    expect(parseRule("bash((", "allow")).toBe("unbalanced parentheses");
    expect(parseRule("bash(npm test", "allow")).toBe("unbalanced parentheses");
    expect(parseRule("bash(a))", "allow")).toBe("unbalanced parentheses");
    expect(parseRule("bash)", "allow")).toBe("unbalanced parentheses");
    expect(parseRule("(npm test)", "allow")).toBe("empty permission name");
    expect(parseRule("bash()", "allow")).toBe("empty pattern; write bash alone to match everything");
    expect(parseRule("bash(a)(b)", "allow")).toBe('unexpected text after the closing parenthesis: "(b)"');
    expect(parseRule("Bash(ls)", "allow")).toBe('invalid permission name "Bash" (use only a-z, 0-9, _, - and *)');
    expect(parseRule("read file", "allow")).toBe('invalid permission name "read file" (use only a-z, 0-9, _, - and *)');
  });
});
