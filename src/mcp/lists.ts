// What a connected server offers, read page by page: its tools and prompts, and whether it has
// resources. The SDK's own list calls reject a whole list when one entry is malformed; these take
// each page as it came and keep every entry that has a name (serverTools checks tools one by one).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Prompt as McpPrompt, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

export type Listing = { tools: McpTool[]; prompts: McpPrompt[]; resources: boolean };

const AS_IS = { safeParse: (data: unknown) => ({ success: true as const, data }) } as unknown as Parameters<Client["request"]>[1];
const MAX_ENTRIES = 10_000;

export async function listEverything(client: Client, timeout: number): Promise<Listing> {
  const capabilities = client.getServerCapabilities();
  const tools = capabilities?.tools ? await listAll<McpTool>(client, "tools/list", "tools", timeout) : [];
  // A prompt list that cannot be read costs the prompts, not the server's tools.
  const prompts = capabilities?.prompts ? await listAll<McpPrompt>(client, "prompts/list", "prompts", timeout).catch(() => []) : [];
  return { tools, prompts, resources: !!capabilities?.resources };
}

export async function listAll<T>(client: Client, method: "tools/list" | "prompts/list", key: "tools" | "prompts", timeout: number): Promise<T[]> {
  const found: T[] = [];
  let cursor: string | undefined;
  do {
    const page = (await client.request({ method, params: cursor ? { cursor } : {} }, AS_IS, { timeout })) as Record<string, unknown> | undefined;
    const entries = page?.[key];
    if (!Array.isArray(entries)) throw new Error(`its ${method} answer has no ${key} list`);
    for (const entry of entries as unknown[]) if (named(entry)) found.push(entry as T);
    cursor = typeof page?.nextCursor === "string" && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor && found.length < MAX_ENTRIES);
  return found;
}

/** A cached listing (or, from before prompts were cached, a bare tool list); undefined when it is none. */
export function parseListing(value: unknown): Listing | undefined {
  if (Array.isArray(value)) return { tools: value.filter(named) as McpTool[], prompts: [], resources: false };
  if (!value || typeof value !== "object") return undefined;
  const { tools, prompts, resources } = value as Record<string, unknown>;
  if (!Array.isArray(tools)) return undefined;
  return { tools: tools.filter(named) as McpTool[], prompts: Array.isArray(prompts) ? (prompts.filter(named) as McpPrompt[]) : [], resources: resources === true };
}

function named(entry: unknown): boolean {
  return !!entry && typeof entry === "object" && typeof (entry as { name?: unknown }).name === "string";
}
