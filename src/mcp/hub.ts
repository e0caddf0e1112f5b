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

/** `toolBudget`: the most characters the MCP tools' definitions may take before the search tool stands in for them */
export type HubOptions = ServerEnv & { waitMs: number; lazy?: boolean; toolBudget?: number };

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
    const all = ready.flatMap((s) => this.toolsOf(s).tools);
    // One small tool for every server's resources, offered once a server says it has some.
    const resources = ready.some((s) => s.resources) ? [this.resources] : [];
    const budget = this.options.toolBudget;
    if (budget === undefined || definitionsSize(all) <= budget) return [...all, ...resources];
    const counts = ready.map((s) => ({ name: s.name, count: this.toolsOf(s).tools.length })).filter((s) => s.count > 0);
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

  close(): Promise<void> {
    return Promise.all(this.servers.map((s) => s.close())).then(() => {});
  }

  /** Ends the servers' processes now (on exit, where nothing can be awaited). */
  kill(): void {
    for (const server of this.servers) server.kill();
  }
}

function bounded(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
