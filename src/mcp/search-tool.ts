// When the MCP tools' definitions would take more than the budget, the model gets one tool in
// their place: it searches the servers' tools by name and description, and the ones it finds are
// loaded, sent with their full definitions from the next turn on, for the rest of the session.
import { toolDefinition } from "../agent/tool-schema.ts";
import { defineJsonTool, type Tool } from "../sdk.ts";

export const SEARCH_TOOL = "mcp_tool_search";
const MAX_FOUND = 8;

/** Each tool's definition size, as the hub measures its tools every turn and a tool keeps its identity until its server's list changes. */
const sizes = new WeakMap<Tool, number>();

/** The characters the tools' definitions take in a request. */
export function definitionsSize(tools: readonly Tool[]): number {
  return tools.reduce((sum, tool) => sum + sizeOf(tool), 0);
}

function sizeOf(tool: Tool): number {
  let size = sizes.get(tool);
  if (size === undefined) sizes.set(tool, (size = JSON.stringify(toolDefinition(tool)).length));
  return size;
}

export function searchTool(servers: readonly { name: string; count: number }[], all: () => readonly Tool[], load: (names: string[]) => void): Tool {
  const listing = servers.map((s) => `${s.name} (${s.count} tools)`).join(", ");
  return defineJsonTool({
    name: SEARCH_TOOL,
    description:
      `Finds tools of the connected MCP servers: ${listing}. Their definitions are not sent until found: ` +
      "search with words of what you need (or a tool's name, mcp__SERVER__TOOL); the tools found become callable from your next turn on.",
    inputSchema: { type: "object", properties: { query: { type: "string", description: "words to look for in tool names and descriptions" } }, required: ["query"] },
    readOnly: true,
    permissions: () => [],
    run: (input) => {
      const query = typeof input.query === "string" ? input.query : "";
      const found = rank(all(), query).slice(0, MAX_FOUND);
      if (found.length === 0) return `No MCP tool matches "${query}". Try other words; the servers are: ${listing}.`;
      load(found.map((t) => t.name));
      const lines = found.map((t) => `- ${t.name}: ${t.description.split("\n")[0]!.slice(0, 200)}`);
      return `Loaded ${found.length} tool${found.length === 1 ? "" : "s"}, callable from your next turn:\n${lines.join("\n")}`;
    },
  });
}

/** Tools by how many of the query's words their name and description contain (an exact name first). */
function rank(tools: readonly Tool[], query: string): Tool[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);
  const exact = query.trim();
  const scored = tools
    .map((tool) => {
      const name = tool.name.toLowerCase();
      const text = `${name} ${tool.description.toLowerCase()}`;
      const score = (tool.name === exact ? 100 : 0) + words.reduce((n, w) => n + (name.includes(w) ? 3 : text.includes(w) ? 1 : 0), 0);
      return { tool, score };
    })
    .filter((s) => s.score > 0);
  return scored.sort((a, b) => b.score - a.score).map((s) => s.tool);
}
