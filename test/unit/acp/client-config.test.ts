import { expect, test } from "bun:test";
import { mcpEntries } from "../../../src/acp/mcp-servers.ts";
import { modeChoice } from "../../../src/acp/modes.ts";

test("the client's MCP servers become mcpServers entries: stdio with its env, http and sse with their headers", () => {
  expect(
    mcpEntries([
      { name: "local", command: "node", args: ["s.js"], env: [{ name: "TOKEN", value: "t" }] },
      { type: "http", name: "remote", url: "https://mcp.example/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] },
      { type: "sse", name: "old", url: "https://mcp.example/sse", headers: [] },
    ]),
  ).toEqual({
    local: { command: "node", args: ["s.js"], env: { TOKEN: "t" } },
    remote: { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: "Bearer x" } },
    old: { type: "sse", url: "https://mcp.example/sse", headers: {} },
  });
});

test("a mode id is an agent or a permission mode, and only one that was offered", () => {
  const offered = [{ id: "plan" }, { id: "agent:build" }];
  expect(modeChoice("plan", offered)).toEqual({ permissionMode: "plan" });
  expect(modeChoice("agent:build", offered)).toEqual({ agent: "build" });
  expect(modeChoice("auto", offered)).toBeUndefined();
});
