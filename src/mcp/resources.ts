// Servers' resources: one tool for the model (`mcp_resources`: list them, or read one, which asks
// for `mcp__SERVER__resources` with the URI as pattern, as a tool call asks), and `@SERVER:URI` in a
// prompt, which attaches that resource to the user's message (text as text, images as images).
import type { ContentBlock } from "../agent/types.ts";
import { defineJsonTool, type Tool } from "../sdk.ts";
import { imageBlocks, resourceParts } from "./content.ts";
import { serverPermission } from "./names.ts";
import type { McpServer } from "./server.ts";
import { messageOf } from "./message.ts";

export const RESOURCES_TOOL = "mcp_resources";
const MAX_LISTED = 200;
/** characters of one attached resource's text; the rest is cut with a note */
const MAX_ATTACHED = 100_000;
/** `@server:scheme:rest` after a space or at the start; the URI runs to the next space, without a closing `.`, `,` or `)` */
const MENTION = /(^|\s)@([A-Za-z0-9_.-]+):([A-Za-z][A-Za-z0-9+.-]*:\S*[^\s.,;)!?])/g;

export function hasMention(text: string): boolean {
  return new RegExp(MENTION.source).test(text);
}

/** The servers `@SERVER:URI` mentions in `text` name (what the attached resources came from). */
export function mentionedServers(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[2]!))];
}

/** The permission a read of `server`'s resources asks for. */
export function resourcePermission(server: string): string {
  return `${serverPermission(server)}__resources`;
}

export function resourcesTool(servers: () => readonly McpServer[]): Tool {
  const names = () => servers().map((s) => s.name).join(", ");
  return defineJsonTool({
    name: RESOURCES_TOOL,
    description:
      `Lists or reads the resources (files, documents, records) of the connected MCP servers (${names()}). ` +
      'action "list" (optionally for one server) gives each resource\'s server, URI and description; action "read" with server and uri returns its contents.',
    inputSchema: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["list", "read"] },
        server: { type: "string", description: "the MCP server's name" },
        uri: { type: "string", description: "the resource's URI, as the list gives it" },
      },
      required: ["action"],
    },
    permissions: (input) => {
      if (input.action !== "read" || typeof input.server !== "string") return [];
      return [{ permission: resourcePermission(input.server), pattern: typeof input.uri === "string" ? input.uri : "*", always: ["*"] }];
    },
    run: async (input, ctx) => {
      const server = typeof input.server === "string" ? input.server : undefined;
      const chosen = servers().filter((s) => (server ? s.name === server : s.resources));
      if (server && chosen.length === 0) return { output: `No MCP server "${server}" here; the servers are: ${names()}.`, isError: true };
      try {
        if (input.action === "list") return await listResources(chosen, ctx.signal);
        if (input.action !== "read" || !chosen[0] || typeof input.uri !== "string") return { output: 'To read a resource give action "read", server and uri (see action "list").', isError: true };
        const { texts, images } = await readResource(chosen[0], input.uri, ctx.signal);
        return { output: texts.join("\n"), ...(images.length ? { images } : {}) };
      } catch (error) {
        return { output: messageOf(error), isError: true };
      }
    },
  });
}

async function listResources(servers: readonly McpServer[], signal: AbortSignal): Promise<{ output: string }> {
  const lines: string[] = [];
  for (const server of servers) {
    const listed = await server.request("listing resources", signal, (client, options) => client.listResources({}, options));
    for (const r of listed.resources) lines.push(`${server.name}  ${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? `: ${r.description.split("\n")[0]}` : ""}`);
  }
  if (lines.length === 0) return { output: `No resources on ${servers.map((s) => s.name).join(", ") || "any connected MCP server"}.` };
  const shown = lines.slice(0, MAX_LISTED);
  return { output: [...shown, ...(lines.length > shown.length ? [`… and ${lines.length - shown.length} more; list one server at a time`] : [])].join("\n") };
}

function readResource(server: McpServer, uri: string, signal: AbortSignal | undefined, shorten: (text: string) => string = (text) => text) {
  return server
    .request(`reading ${uri}`, signal, (client, options) => client.readResource({ uri }, options))
    .then((read) => resourceParts(read.contents, (text, from) => `<resource server="${server.name}" uri="${from}">\n${shorten(text)}\n</resource>`));
}

/**
 * The resources `@SERVER:URI` names in `text`, as blocks for the user's message; an error (naming
 * what and why) when a server is unknown or a read fails: the prompt is then not sent. Text that
 * names no resource gives no blocks.
 */
export async function attachMentions(servers: readonly McpServer[], text: string, signal?: AbortSignal): Promise<ContentBlock[] | { error: string }> {
  const mentions = [...text.matchAll(MENTION)].map((m) => ({ server: m[2]!, uri: m[3]! }));
  const blocks: ContentBlock[] = [];
  for (const { server: name, uri } of mentions) {
    const server = servers.find((s) => s.name === name);
    if (!server) {
      const known = servers.map((s) => s.name).join(", ") || "none";
      return { error: `@${name}:${uri}: there is no MCP server "${name}" (configured: ${known}); the prompt was not sent` };
    }
    try {
      const { texts, images } = await readResource(server, uri, signal, cut);
      blocks.push(...texts.map((t) => ({ type: "text" as const, text: t })));
      blocks.push(...imageBlocks(images));
    } catch (error) {
      return { error: `@${name}:${uri}: ${messageOf(error)}; the prompt was not sent` };
    }
  }
  return blocks;
}

function cut(text: string): string {
  return text.length <= MAX_ATTACHED ? text : `${text.slice(0, MAX_ATTACHED)}\n[cut: ${MAX_ATTACHED} of ${text.length} characters shown]`;
}
