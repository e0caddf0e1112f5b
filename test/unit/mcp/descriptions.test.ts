// An MCP tool's description as the model gets it: whole up to Claude Code's 4,096 characters, cut
// past that with a mark, and the cut listed as a note (the tool is still offered).
import { expect, test } from "bun:test";
import { MAX_DESCRIPTION, serverTools } from "../../../src/mcp/tools.ts";
import type { McpServer } from "../../../src/mcp/server.ts";

const server = (description: string) => ({ name: "big", config: {}, tools: [{ name: "t", description, inputSchema: { type: "object" } }] }) as unknown as McpServer;

test("a description up to the limit is sent whole, with no note", () => {
  const whole = `${"a".repeat(MAX_DESCRIPTION - 1)}z`;
  const { tools, problems } = serverTools(server(whole));
  expect(tools[0]!.description).toBe(whole);
  expect(problems).toEqual([]);
});

test("a longer one is cut at the limit, marked, and noted", () => {
  const { tools, problems } = serverTools(server("b".repeat(5000)));
  expect(tools[0]!.description).toBe(`${"b".repeat(4096)}… [truncated]`);
  expect(problems).toEqual([{ tool: "t", reason: "its description is 5000 characters; the first 4096 are sent", cut: true }]);
});
