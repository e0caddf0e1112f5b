import { describe, expect, test } from "bun:test";
import { evaluate, evaluateRequest, formatRule, matchRule, type Action, type PermissionRequest as Checked, type Rule } from "../../../src/permission/evaluate.ts";
import { DEFAULT_RULES, modeRules, PERMISSION_MODES, type PermissionMode } from "../../../src/permission/modes.ts";
import type { PermissionRequest } from "../../../src/sdk.ts";

const rule = (permission: string, pattern: string, action: Action): Rule => ({ permission, pattern, action });
const req = (permission: string, pattern: string, opaque = false): PermissionRequest => ({
  permission,
  pattern,
  always: [pattern],
  ...(opaque ? { opaque: true } : {}),
});
const bash = (command: string, opaque = false) => req("bash", command, opaque);
const decide = (request: Checked, rules: readonly Rule[], approvals: readonly Rule[] = []) =>
  evaluateRequest(request, rules, approvals).action;

describe("rules", () => {
  test("no matching rule: ask", () => {
    expect(decide(bash("ls"), [])).toBe("ask");
    expect(decide(bash("ls"), [rule("edit", "*", "allow")])).toBe("ask");
    expect(evaluate([bash("ls")], []).action).toBe("ask");
  });

  test("the last matching rule wins", () => {
    const rules = [rule("bash", "*", "allow"), rule("bash", "rm *", "deny")];
    expect(decide(bash("rm -rf build"), rules)).toBe("deny");
    expect(decide(bash("ls"), rules)).toBe("allow");
    expect(decide(bash("rm -rf build"), [...rules].reverse())).toBe("allow");
    expect(evaluateRequest(bash("rm x"), rules).rule).toBe(rules[1]);
  });

  test("a later ask overrides an earlier allow", () => {
    expect(decide(bash("git push"), [rule("bash", "*", "allow"), rule("bash", "git push *", "ask")])).toBe("ask");
  });

  test("the permission itself is a wildcard", () => {
    expect(decide(req("webfetch", "https://x"), [rule("*", "*", "deny")])).toBe("deny");
    expect(decide(req("mcp_github", "x"), [rule("mcp_*", "*", "allow")])).toBe("allow");
    expect(decide(req("edit", "x"), [rule("mcp_*", "*", "allow")])).toBe("ask");
  });
});

describe("a call with several requests", () => {
  const rules = [rule("bash", "ls *", "allow"), rule("bash", "rm *", "deny"), rule("bash", "git push *", "ask")];

  test("any deny makes the call denied, even next to allowed requests", () => {
    const decision = evaluate([bash("ls"), bash("rm -rf /"), bash("git push")], rules);
    expect(decision.action).toBe("deny");
    expect(decision.requests.map((d) => d.action)).toEqual(["allow", "deny", "ask"]);
  });

  test("otherwise any ask makes the call ask", () => {
    expect(evaluate([bash("ls"), bash("git push origin")], rules).action).toBe("ask");
  });

  test("all allowed: allow", () => {
    expect(evaluate([bash("ls"), bash("ls -la")], rules).action).toBe("allow");
  });
});

describe("run-time approvals", () => {
  test("an approval allows what the rules would ask", () => {
    const approvals = [rule("bash", "npm run dev *", "allow")];
    const decision = evaluateRequest(bash("npm run dev --port 3000"), [rule("bash", "*", "ask")], approvals);
    expect(decision).toMatchObject({ action: "allow", approved: true, rule: approvals[0] });
  });

  test("an approval never overrides a configured deny", () => {
    const rules = [rule("bash", "*", "allow"), rule("bash", "rm *", "deny")];
    const approvals = [rule("bash", "*", "allow"), rule("bash", "rm -rf build", "allow")];
    expect(decide(bash("rm -rf build"), rules, approvals)).toBe("deny");
    expect(evaluate([bash("rm -rf build")], rules, approvals).action).toBe("deny");
  });

  test("an approval for something else leaves the ask", () => {
    expect(decide(bash("git push"), [], [rule("bash", "git status *", "allow")])).toBe("ask");
  });
});

describe("opaque requests (not resolvable statically)", () => {
  const opaque = bash("echo $(cat secret)", true);

  test("a pattern allow rule never allows them, however broad", () => {
    expect(decide(opaque, [rule("bash", "echo *", "allow")])).toBe("ask");
    expect(decide(opaque, [rule("bash", "echo $(cat secret)", "allow")])).toBe("ask");
    expect(decide(opaque, [rule("*", "e*", "allow")])).toBe("ask");
  });

  test("only a bare `*` allow rule does", () => {
    expect(decide(opaque, [rule("bash", "*", "allow")])).toBe("allow");
    expect(decide(opaque, [rule("*", "*", "allow")])).toBe("allow");
  });

  test("a pattern allow rule after a bare allow does not hide it; the bare allow still decides", () => {
    expect(decide(opaque, [rule("bash", "*", "allow"), rule("bash", "echo *", "allow")])).toBe("allow");
  });

  test("a pattern can deny them", () => {
    expect(decide(opaque, [rule("bash", "*", "allow"), rule("bash", "echo *", "deny")])).toBe("deny");
  });

  test("a pattern approval does not allow them either", () => {
    expect(decide(opaque, [], [rule("bash", "echo *", "allow")])).toBe("ask");
    expect(decide(opaque, [], [rule("bash", "*", "allow")])).toBe("allow");
  });
});

describe("modes", () => {
  const rulesFor = (mode: PermissionMode) => [...DEFAULT_RULES, ...modeRules(mode)];
  const edit = req("edit", "src/main.ts");

  test("default: reads are allowed, edits and unknown commands ask, read-only commands are allowed", () => {
    const rules = rulesFor("default");
    expect(decide(req("read", "src/main.ts"), rules)).toBe("allow");
    expect(decide(req("read", ".env"), rules)).toBe("ask");
    expect(decide(req("read", "app/.env"), rules)).toBe("ask");
    expect(decide(req("read", ".env.example"), rules)).toBe("allow");
    expect(decide(edit, rules)).toBe("ask");
    expect(decide(bash("ls -la"), rules)).toBe("allow");
    expect(decide({ ...bash("git status"), readOnly: true }, rules)).toBe("allow");
    // git is allowed by what its tables find, not by its name: the same words unanalysed ask.
    expect(decide(bash("git status"), rules)).toBe("ask");
    expect(decide({ ...bash("git status"), readOnly: true, opaque: true }, rules)).toBe("ask");
    expect(decide(bash("npm install"), rules)).toBe("ask");
  });

  test("plan denies edits and non-read-only bash, keeps read-only bash", () => {
    const rules = rulesFor("plan");
    expect(decide(edit, rules)).toBe("deny");
    expect(decide(bash("rm -rf build"), rules)).toBe("deny");
    expect(decide(bash("ls"), rules)).toBe("allow");
    expect(decide(req("read", "src/main.ts"), rules)).toBe("allow");
  });

  test("accept-edits allows edits; bash still asks", () => {
    const rules = rulesFor("accept-edits");
    expect(decide(edit, rules)).toBe("allow");
    expect(decide(bash("npm install"), rules)).toBe("ask");
  });

  test("auto allows everything, opaque commands included, but a later deny rule still denies", () => {
    const rules = rulesFor("auto");
    expect(decide(edit, rules)).toBe("allow");
    expect(decide(bash("npm install"), rules)).toBe("allow");
    expect(decide(bash("eval $X", true), rules)).toBe("allow");
    expect(decide(bash("rm -rf /"), [...rules, rule("bash", "rm *", "deny")])).toBe("deny");
  });

  test("every mode has a rule set", () => {
    for (const mode of PERMISSION_MODES) expect(Array.isArray(modeRules(mode))).toBe(true);
  });
});

test("matchRule and formatRule", () => {
  expect(matchRule(bash("ls"), [])).toBeUndefined();
  expect(formatRule({ permission: "bash", pattern: "*" })).toBe("bash");
  expect(formatRule({ permission: "bash", pattern: "git push *" })).toBe("bash(git push *)");
});

describe("read-only defaults do not let writing flags through", () => {
  const bash = (pattern: string): Checked => ({ permission: "bash", pattern, always: [pattern] });
  for (const mode of ["default", "plan"] as const) {
    const rules = [...DEFAULT_RULES, ...modeRules(mode)];
    // date -s is stopped by date's option table, through the engine (options/options.test.ts).
    test(`${mode}: git diff/log --output are not allowed, plain reads are`, () => {
      expect(evaluate([bash("git diff --output=/tmp/pwned")], rules).action).not.toBe("allow");
      expect(evaluate([bash("git log --output=src/main.ts")], rules).action).not.toBe("allow");
      expect(evaluate([{ ...bash("git diff HEAD~1"), readOnly: true }], rules).action).toBe("allow");
      expect(evaluate([bash("date +%s")], rules).action).toBe("allow");
    });
  }
});
