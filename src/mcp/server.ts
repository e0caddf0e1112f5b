// One configured server during a session: connects in the background, keeps its tool list (and
// refreshes it on notifications/tools/list_changed), calls tools with a timeout, and remembers
// its state and last error for `rein mcp list` and for the model's error results. A server that
// exited is connected again on the next call.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { transportOf, type Transport } from "./config.ts";
import type { ServerConfig } from "./sources.ts";
import { cleanName } from "./names.ts";
import type { RemoteAuth } from "./oauth-fetch.ts";

export type ServerState = "disabled" | "failed" | "needs login" | "connecting" | "connected" | "closed";

export type ServerEnv = {
  toolEnv: Readonly<Record<string, string>>;
  cwd: string;
  /** per-server stderr logs go here */
  logDir: string;
  /** each server's last tool list, by its configuration, so a later session can offer it before connecting */
  cacheDir?: string;
  /** the saved OAuth logins of remote servers */
  tokenFile?: string;
  version: string;
  startupTimeoutMs: number;
  callTimeoutMs: number;
};

export class McpServer {
  state: ServerState;
  lastError: string | undefined;
  tools: McpTool[] = [];
  readonly transport: Transport | undefined;
  private client: Client | undefined;
  private pid: number | undefined;
  private connecting: Promise<void> | undefined;
  /** bumped when the tool list changes, so the source rebuilds its tools */
  version = 0;

  constructor(
    readonly config: ServerConfig,
    private readonly env: ServerEnv,
  ) {
    this.transport = config.entry && transportOf(config.entry);
    this.lastError = config.problem;
    this.state = config.problem ? "failed" : config.entry?.enabled === false ? "disabled" : "closed";
  }

  get name(): string {
    return this.config.name;
  }

  get logFile(): string {
    return join(this.env.logDir, `${cleanName(this.name)}.log`);
  }

  /** The tool list cache of this exact configuration (a changed entry starts a new one). */
  private get cacheFile(): string | undefined {
    if (!this.env.cacheDir || !this.config.entry) return undefined;
    const hash = createHash("sha256").update(JSON.stringify(this.config.entry)).digest("hex").slice(0, 16);
    return join(this.env.cacheDir, `${cleanName(this.name)}-${hash}.json`);
  }

  /** Takes the tool list a previous session saved for this configuration; false when there is none. */
  loadCachedTools(): boolean {
    const file = this.cacheFile;
    if (!file || this.state !== "closed") return false;
    try {
      const tools: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (!Array.isArray(tools)) return false;
      this.setTools(tools.filter((t): t is McpTool => !!t && typeof t === "object" && typeof (t as { name?: unknown }).name === "string"));
      return true;
    } catch {
      return false; // none yet, or unreadable: the server is connected instead
    }
  }

  private saveTools(): void {
    const file = this.cacheFile;
    if (!file) return;
    try {
      mkdirSync(this.env.cacheDir!, { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(this.tools), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // a cache that cannot be written only costs the next start its head start
    }
  }

  /** Connects unless connected, disabled or unusable; never throws (a failure is the state). */
  start(): Promise<void> {
    const entry = this.config.entry;
    if (!entry || this.state === "disabled" || this.state === "connected") return Promise.resolve();
    return (this.connecting ??= this.open(entry).finally(() => (this.connecting = undefined)));
  }

  private async open(entry: NonNullable<ServerConfig["entry"]>): Promise<void> {
    this.state = "connecting";
    let auth: RemoteAuth | undefined;
    try {
      // The SDK loads with the first server that connects (a cached one may never need it).
      const [{ connect }, { remoteAuth }] = await Promise.all([import("./connect.ts"), import("./oauth-fetch.ts")]);
      auth = remoteAuth(this.name, entry, this.env.tokenFile);
      const client = await connect(entry, {
        fetch: auth?.fetch,
        toolEnv: this.env.toolEnv,
        cwd: this.env.cwd,
        logFile: this.logFile,
        timeoutMs: this.env.startupTimeoutMs,
        version: this.env.version,
        onToolsChanged: () => void this.relist(),
        onClose: (why) => {
          if (this.client !== client) return;
          this.client = undefined;
          this.state = "closed";
          this.lastError = why;
        },
      });
      this.client = client;
      this.state = "connecting";
      this.pid = (client.transport as { pid?: number | null } | undefined)?.pid ?? undefined;
      this.setTools(await listAll(client, this.env.startupTimeoutMs));
      this.saveTools();
      this.state = "connected";
      this.lastError = undefined;
    } catch (error) {
      const client = this.client;
      this.client = undefined;
      await client?.close().catch(() => {});
      this.state = auth?.needsLogin() ? "needs login" : "failed";
      this.lastError = messageOf(error);
    }
  }

  /** Takes the server's new tool list (after notifications/tools/list_changed); keeps the old one if that fails. */
  private async relist(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      this.setTools(await listAll(client, this.env.startupTimeoutMs));
      this.saveTools();
    } catch (error) {
      this.lastError = `its changed tool list could not be read: ${messageOf(error)}`;
    }
  }

  private setTools(tools: McpTool[]): void {
    this.tools = tools;
    this.version++;
  }

  /** Calls a tool; a failure is thrown with a sentence that names this server and says why. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (!this.client) await this.start();
    const client = this.client;
    if (!client) throw new Error(`MCP server "${this.name}" is not available: ${this.lastError ?? "it is not connected"}`);
    const timeout = this.config.entry?.timeout ?? this.env.callTimeoutMs;
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout })) as CallToolResult;
    } catch (error) {
      const message = messageOf(error);
      const why = /timed out|timeout/i.test(message)
        ? `the call did not finish within ${timeout / 1000} s (set "timeout" in ms on the server's entry to wait longer)`
        : /Connection closed/i.test(message)
          ? "the server exited or closed the connection during the call"
          : message;
      if (!signal.aborted) this.lastError = why;
      throw new Error(`MCP server "${this.name}" failed calling ${tool}: ${why}`);
    }
  }

  kill(): void {
    if (this.pid === undefined) return;
    try {
      process.kill(this.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (this.state === "connected") this.state = "closed";
    await client?.close().catch(() => {});
  }
}

// The SDK's listTools rejects the whole list when one tool is malformed; this takes the page as
// it came and keeps each tool that has a name (serverTools checks the rest, tool by tool).
const AS_IS = { safeParse: (data: unknown) => ({ success: true as const, data }) } as unknown as Parameters<Client["request"]>[1];

async function listAll(client: Client, timeout: number): Promise<McpTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = (await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, AS_IS, { timeout })) as { tools?: unknown; nextCursor?: unknown };
    if (!Array.isArray(page?.tools)) throw new Error("its tools/list answer has no tools list");
    for (const tool of page.tools as unknown[]) {
      if (tool && typeof tool === "object" && typeof (tool as { name?: unknown }).name === "string") tools.push(tool as McpTool);
    }
    cursor = typeof page.nextCursor === "string" && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor && tools.length < 10_000);
  return tools;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
