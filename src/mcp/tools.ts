// A server's tools as rein tools: `mcp__SERVER__TOOL`, the server's JSON Schema as the input the
// model reads, one request for `mcp__SERVER__TOOL` (asked by default) plus a denied read for an
// argument naming a credential (credential-arguments.ts), never read-only (the server's hints are its own claims). Results: text as text,
// images as images the model sees, embedded resources as their text, structuredContent as JSON
// when no text block came with it; isError makes an error result.
import { defineJsonTool, type Tool, type ToolResult } from "../sdk.ts";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { matchWildcard } from "../permission/wildcard.ts";
import { contentParts } from "./content.ts";
import { credentialArguments } from "./credential-arguments.ts";
import { toolName } from "./names.ts";
import type { McpServer } from "./server.ts";
import { messageOf } from "./message.ts";

/** Claude Code's limit on an MCP tool's description (its CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH default); longer ones are cut, said with a note. */
export const MAX_DESCRIPTION = 4_096;
const CUT_MARK = "… [truncated]";

/** `cut`: the tool is offered, with its description cut (a note, not a tool left out). */
export type ToolProblem = { tool: string; reason: string; cut?: true };

/** The server's usable tools as rein tools, and the ones left out with why. */
export function serverTools(server: McpServer): { tools: Tool[]; problems: ToolProblem[] } {
  const tools: Tool[] = [];
  const problems: ToolProblem[] = [];
  const filter = server.config.entry?.tools;
  for (const t of server.tools) {
    if (filter?.allow && !filter.allow.some((p) => matchWildcard(p, t.name))) continue;
    if (filter?.deny?.some((p) => matchWildcard(p, t.name))) continue;
    const schema = t.inputSchema as unknown;
    if (!schema || typeof schema !== "object" || (schema as { type?: unknown }).type !== "object") {
      problems.push({ tool: t.name, reason: 'its input schema is not a JSON Schema of type "object"' });
      continue;
    }
    const tool = asTool(server, t);
    if (tool.description.endsWith(CUT_MARK)) problems.push({ tool: t.name, reason: `its description is ${describedOf(server, t).length} characters; the first ${MAX_DESCRIPTION} are sent`, cut: true });
    tools.push(tool);
  }
  return { tools, problems };
}

function describedOf(server: McpServer, t: McpTool): string {
  return t.description?.trim() || t.title || `The ${t.name} tool of MCP server ${server.name}.`;
}

function asTool(server: McpServer, t: McpTool): Tool {
  const described = describedOf(server, t);
  return defineJsonTool({
    name: toolName(server.name, t.name),
    description: described.length > MAX_DESCRIPTION ? `${described.slice(0, MAX_DESCRIPTION)}${CUT_MARK}` : described,
    inputSchema: t.inputSchema as Record<string, unknown>,
    // One request for the tool, as for any tool without its own, and a denied read for an argument naming a credential.
    permissions: (input, ctx) => [{ permission: toolName(server.name, t.name), pattern: "*", always: ["*"] }, ...credentialArguments(input, ctx.cwd)],
    run: async (input, ctx) => {
      try {
        return toolResult(await server.call(t.name, input, ctx.signal));
      } catch (error) {
        return { output: messageOf(error), isError: true };
      }
    },
  });
}

export function toolResult(result: CallToolResult): ToolResult {
  const { texts, images } = contentParts(result.content ?? []);
  const hasText = (result.content ?? []).some((block) => block.type === "text");
  if (result.structuredContent !== undefined && !hasText) texts.push(JSON.stringify(result.structuredContent, null, 2));
  return { output: texts.join("\n"), ...(result.isError ? { isError: true } : {}), ...(images.length ? { images } : {}) };
}
