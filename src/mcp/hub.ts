// The MCP servers of one session. A server whose tool list a previous session cached (for the same
// configuration) is offered from the cache at once and connects on its first call (`lazy`); the
// others start connecting in the background when the session is made; the first turn waits for
// them at most `waitMs` (a server that takes longer joins at a later turn), later turns never
// wait. Each turn offers the tools of the servers connected (or cached) by then.
import type { Tool } from "../sdk.ts";
import { McpServer, type ServerEnv } from "./server.ts";
import type { ServerConfig } from "./sources.ts";
import { serverTools, type ToolProblem } from "./tools.ts";
import { definitionsSize, searchTool } from "./search-tool.ts";
import { resourcesTool } from "./resources.ts";

/**
 * `toolBudget`: the most characters the MCP tools' definitions may take before the search tool stands in for them;
 * `taken`: the names tool files already have (name -> which file), whose tools are used instead of a server's
 */
export type HubOptions = ServerEnv & { waitMs: number; lazy?: boolean; toolBudget?: number; taken?: () => ReadonlyMap<string, string> };

export class McpHub {
  readonly servers: McpServer[];
  private started: Promise<void> | undefined;
  private waited = false;
  /** tools the model loaded through the search tool: sent in full for the rest of the session */
  private readonly loaded = new Set<string>();
  private readonly built = new Map<McpServer, { version: number; tools: Tool[]; problems: ToolProblem[] }>();
  private readonly resources: Tool;

  constructor(
    configs: readonly ServerConfig[],
    private readonly options: HubOptions,
  ) {
    this.servers = configs.map((config) => new McpServer(config, options));
    this.resources = resourcesTool(() => this.servers);
  }

  /** Starts every usable server (does not wait). */
  start(): Promise<void> {
    this.started ??= Promise.all(this.servers.filter((s) => !(this.options.lazy && s.loadCachedTools())).map((s) => s.start())).then(() => {});
    return this.started;
  }

  /** Starts the servers; the first time, waits for them at most `waitMs`. */
  async firstTurn(): Promise<void> {
    const started = this.start();
    if (this.waited) return;
    this.waited = true;
    await bounded(started, this.options.waitMs);
  }

  async tools(): Promise<Tool[]> {
    await this.firstTurn();
    const ready = this.servers.filter((s) => s.state === "connected" || s.state === "closed");
    const offered = this.offered();
    const all = ready.flatMap((s) => offered.get(s) ?? []);
    // One small tool for every server's resources, offered once a server says it has some.
    const resources = ready.some((s) => s.resources) ? [this.resources] : [];
    const budget = this.options.toolBudget;
    if (budget === undefined || definitionsSize(all) <= budget) return [...all, ...resources];
    const counts = ready.map((s) => ({ name: s.name, count: offered.get(s)?.length ?? 0 })).filter((s) => s.count > 0);
    const search = searchTool(counts, () => all, (names) => names.forEach((n) => this.loaded.add(n)));
    return [search, ...resources, ...all.filter((t) => this.loaded.has(t.name))];
  }

  /** The server's rein tools, rebuilt only when its list changed (a tool keeps its identity otherwise). */
  toolsOf(server: McpServer): { tools: Tool[]; problems: ToolProblem[] } {
    const cached = this.built.get(server);
    if (cached && cached.version === server.version) return cached;
    const next = { version: server.version, ...serverTools(server) };
    this.built.set(server, next);
    return next;
  }

  /**
   * Each server's tools that no tool file and no earlier server's tool has the name of: `a.b` and
   * `a_b` both make `mcp__a_b__...`, and the first configured keeps the name.
   */
  offered(): Map<McpServer, Tool[]> {
    const taken = this.taken();
    const owners = new Map<string, McpServer>();
    const offered = new Map<McpServer, Tool[]>();
    for (const server of this.servers) {
      const kept = this.toolsOf(server).tools.filter((t) => !owners.has(t.name) && !taken.has(t.name));
      for (const t of kept) owners.set(t.name, server);
      offered.set(server, kept);
    }
    return offered;
  }

  /** The server's tools left out because a tool file or an earlier server's tool has their name (`offered`: this.offered(), when the caller has it). */
  clashes(server: McpServer, offered = this.offered()): ToolProblem[] {
    const taken = this.taken();
    const kept = new Set((offered.get(server) ?? []).map((t) => t.name));
    return this.toolsOf(server)
      .tools.filter((t) => !kept.has(t.name))
      .map((t) => {
        const file = taken.get(t.name);
        if (file) return { tool: t.name, reason: `its name is taken by the tool file ${file}, which is used instead (rename that tool to have both)` };
        const owner = [...offered].find(([other, tools]) => other !== server && tools.some((o) => o.name === t.name))?.[0];
        return { tool: t.name, reason: `its name is taken by a tool of MCP server "${owner?.name}"` };
      });
  }

  /** The servers' tools whose names tool files have: those files' tools are used instead. */
  shadowed(): { server: string; tool: string; file: string }[] {
    const taken = this.taken();
    return this.servers.flatMap((server) =>
      this.toolsOf(server).tools.flatMap((t) => {
        const file = taken.get(t.name);
        return file ? [{ server: server.name, tool: t.name, file }] : [];
      }),
    );
  }

  private taken(): ReadonlyMap<string, string> {
    return this.options.taken?.() ?? NONE;
  }

  close(): Promise<void> {
    return Promise.all(this.servers.map((s) => s.close())).then(() => {});
  }

  /** Ends the servers' processes now (on exit, where nothing can be awaited). */
  kill(): void {
    for (const server of this.servers) server.kill();
  }
}

const NONE: ReadonlyMap<string, string> = new Map();

function bounded(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
