// Servers' prompts as slash commands: `/mcp__SERVER__PROMPT args` (the name made as a tool's is)
// gets the prompt with the arguments mapped onto its declared ones, and its messages, whatever their
// role, become one user turn: their text in order, their images attached. A server whose prompts
// are not known yet (not connected, nothing cached) is connected when one of its names is typed.
import type { ImageBlock } from "../agent/types.ts";
import type { McpHub } from "./hub.ts";
import type { McpServer } from "./server.ts";
import { contentParts, imageBlocks } from "./content.ts";
import { serverPermission, toolName } from "./names.ts";
import { promptArguments, usage } from "./prompt-arguments.ts";
import { messageOf } from "./message.ts";

export type PromptCommand = { name: string; description: string; argumentHint?: string };
export type ExpandedPrompt = { text: string; attachments: ImageBlock[] } | { error: string };

export type PromptCommands = {
  /** the prompts of the servers connected (or cached) by now, for /help and completion */
  known(): PromptCommand[];
  /** every server's, once the servers still connecting are done (within the hub's first-turn bound) */
  list(): Promise<PromptCommand[]>;
  /** every server's, once each has connected or failed (each within its startup timeout; cached ones count as known) */
  started(): Promise<PromptCommand[]>;
  /** whether `name` is in a configured server's namespace (`mcp__SERVER__...`), whether its prompt is known yet or not */
  owns(name: string): boolean;
  expand(name: string, args: string, signal?: AbortSignal): Promise<ExpandedPrompt>;
  /** why `args` do not fit the prompt's declared arguments (a usage error), or undefined; fetches nothing */
  check(name: string, args: string): Promise<string | undefined>;
};

export function promptCommands(hub: Promise<McpHub>, serverNames: readonly string[]): PromptCommands {
  let ready: McpHub | undefined;
  void hub.then((h) => (ready = h), () => {});
  const owners = (name: string) => serverNames.filter((server) => name.startsWith(`${serverPermission(server)}__`));
  return {
    known: () => (ready ? ready.servers.flatMap(commandsOf) : []),
    list: async () => {
      const h = await hub;
      await h.firstTurn();
      return h.servers.flatMap(commandsOf);
    },
    started: async () => {
      const h = await hub;
      await h.start();
      return h.servers.flatMap(commandsOf);
    },
    owns: (name) => owners(name).length > 0,
    expand: async (name, args, signal) => {
      const servers = await serversOf(name);
      const found = findPrompt(servers, name);
      return found ? getPrompt(found.server, found.prompt, args, signal) : { error: unknownPrompt(name, servers) };
    },
    check: async (name, args) => {
      const servers = await serversOf(name);
      const found = findPrompt(servers, name);
      // A server that is not available is the run's failure (exit 1), not a usage error.
      if (!found) return servers.every((s) => s.state === "connected" || s.prompts.length) ? unknownPrompt(name, servers) : undefined;
      const parsed = promptArguments(found.prompt.arguments ?? [], args);
      return "error" in parsed ? `/${name}: ${parsed.error}` : undefined;
    },
  };

  async function serversOf(name: string): Promise<McpServer[]> {
    const h = await hub;
    const servers = h.servers.filter((s) => owners(name).includes(s.name));
    for (const server of servers) if (server.state !== "connected" && !server.prompts.length) await server.start();
    return servers;
  }
}

function findPrompt(servers: readonly McpServer[], name: string): { server: McpServer; prompt: McpServer["prompts"][number] } | undefined {
  for (const server of servers) {
    const prompt = server.prompts.find((p) => toolName(server.name, p.name) === name);
    if (prompt) return { server, prompt };
  }
  return undefined;
}

function commandsOf(server: McpServer): PromptCommand[] {
  return server.prompts.map((p) => {
    const hint = usage(p.arguments ?? []);
    const about = p.description?.trim() || p.title || `a prompt of MCP server ${server.name}`;
    return { name: toolName(server.name, p.name), description: about.split("\n")[0]!, ...(hint ? { argumentHint: hint } : {}) };
  });
}

async function getPrompt(server: McpServer, prompt: McpServer["prompts"][number], typed: string, signal: AbortSignal | undefined): Promise<ExpandedPrompt> {
  const name = toolName(server.name, prompt.name);
  const args = promptArguments(prompt.arguments ?? [], typed);
  if ("error" in args) return { error: `/${name}: ${args.error}` };
  try {
    const result = await server.request(`getting prompt ${prompt.name}`, signal, (client, options) => client.getPrompt({ name: prompt.name, arguments: args }, options));
    const { texts, images } = contentParts(result.messages.map((m) => m.content));
    const attachments = imageBlocks(images);
    const text = texts.join("\n\n").trim();
    if (!text && attachments.length === 0) return { error: `/${name}: MCP server "${server.name}" gave the prompt ${prompt.name} no content; nothing was sent` };
    return { text: text || `(the images of /${name})`, attachments };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

function unknownPrompt(name: string, servers: readonly McpServer[]): string {
  const failed = servers.find((s) => s.state === "failed" || s.state === "disabled");
  if (failed && servers.length === 1) return `/${name}: MCP server "${failed.name}" is not available: ${failed.lastError ?? failed.state}`;
  const known = servers.flatMap(commandsOf).map((c) => `/${c.name}`);
  const where = servers.map((s) => `"${s.name}"`).join(", ");
  return `unknown command /${name}: MCP server ${where} has ${known.length ? `the prompts ${known.join(", ")}` : "no prompts"}`;
}
