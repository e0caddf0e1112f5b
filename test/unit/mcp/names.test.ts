import { expect, test } from "bun:test";
import { evaluateRequest, type Rule } from "../../../src/permission/evaluate.ts";
import { toolName } from "../../../src/mcp/names.ts";

test("names are mcp__SERVER__TOOL with characters outside [A-Za-z0-9_-] as _", () => {
  expect(toolName("github", "create_issue")).toBe("mcp__github__create_issue");
  expect(toolName("my.server", "get file/v2")).toBe("mcp__my_server__get_file_v2");
});

test("names over 64 characters are shortened deterministically and stay distinct", () => {
  const a = toolName("a-very-long-server-name-for-testing", "an_extremely_long_tool_name_number_one");
  const b = toolName("a-very-long-server-name-for-testing", "an_extremely_long_tool_name_number_two");
  expect(a).toHaveLength(64);
  expect(a).toMatch(/^mcp__a-very-long-server-name-for-testing__an_extremely__[0-9a-f]{8}$/);
  expect(a).toBe(toolName("a-very-long-server-name-for-testing", "an_extremely_long_tool_name_number_one"));
  expect(a).not.toBe(b);
});

const request = (permission: string) => ({ permission, pattern: "*", always: ["*"] });
const rule = (permission: string, action: Rule["action"]): Rule => ({ permission, pattern: "*", action });

test("a rule may name a whole server, its tools by wildcard, or one tool; the default is ask", () => {
  const base = [rule("*", "ask")];
  expect(evaluateRequest(request("mcp__github__create_issue"), base).action).toBe("ask");
  expect(evaluateRequest(request("mcp__github__create_issue"), [...base, rule("mcp__github", "allow")]).action).toBe("allow");
  expect(evaluateRequest(request("mcp__github__create_issue"), [...base, rule("mcp__github__*", "allow")]).action).toBe("allow");
  expect(evaluateRequest(request("mcp__github__create_issue"), [...base, rule("mcp__github", "allow"), rule("mcp__github__create_issue", "deny")]).action).toBe("deny");
  // A server rule is not a prefix match on other servers' names.
  expect(evaluateRequest(request("mcp__github2__x"), [...base, rule("mcp__github", "allow")]).action).toBe("ask");
});
