// One configured server during a session: connects in the background, keeps its tool and prompt
// lists (and refreshes them on notifications/*/list_changed), sends requests (tool calls, prompts,
// resources) with a timeout, and remembers its state and last error for `rein mcp list` and for the
// model's error results. A server that exited is connected again on the next request.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, Prompt as McpPrompt, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { transportOf, type McpSandbox, type Transport } from "./config.ts";
import { listEverything, parseListing, type Listing } from "./lists.ts";
import type { ServerConfig } from "./sources.ts";
import { cleanName } from "./names.ts";
import type { RemoteAuth } from "./oauth-fetch.ts";
import { messageOf } from "./message.ts";
import { readOwnText } from "../sdk/own-file.ts";
import { digestHex } from "../sdk/digest.ts";

export type ServerState = "disabled" | "failed" | "needs login" | "connecting" | "connected" | "closed";

export type ServerEnv = {
  toolEnv: Readonly<Record<string, string>>;
  sandbox?: McpSandbox;
  cwd: string;
  /** per-server stderr logs go here */
  logDir: string;
  /** each server's last tool list, by its configuration, so a later session can offer it before connecting */
  cacheDir?: string;
  /** the saved OAuth logins of remote servers */
  tokenFile?: string;
  version: string;
  startupTimeoutMs: number;
  /** the largest message read from a stdio server (128 MiB by default) */
  maxMessageBytes?: number;
  callTimeoutMs: number;
};

export class McpServer {
  state: ServerState;
  lastError: string | undefined;
  tools: McpTool[] = [];
  prompts: McpPrompt[] = [];
  /** whether the server said it has resources */
  resources = false;
  readonly transport: Transport | undefined;
  private client: Client | undefined;
  /** kills a stdio server's process and all it started, from the moment it starts (undefined for a remote server) */
  private killProcess: (() => void) | undefined;
  private connecting: Promise<void> | undefined;
  /** stops the connection being made, when the server is closed meanwhile */
  private stopConnecting: AbortController | undefined;
  /** why the connection was closed, when rein knows more than that it closed */
  private closedBecause: string | undefined;
  /** bumped when the lists change, so the source rebuilds its tools */
  version = 0;
  /** the lists being read again after a list_changed notification */
  private relisting: Promise<void> | undefined;

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

  /** The listing cache of this exact configuration (a changed entry starts a new one). */
  private get cacheFile(): string | undefined {
    if (!this.env.cacheDir || !this.config.entry) return undefined;
    const hash = digestHex("sha256", JSON.stringify(this.config.entry)).slice(0, 16);
    return join(this.env.cacheDir, `${cleanName(this.name)}-${hash}.json`);
  }

  /** Takes the lists a previous session saved for this configuration; false when there are none. */
  loadCachedTools(): boolean {
    const file = this.cacheFile;
    if (!file || this.state !== "closed") return false;
    try {
      const listing = parseListing(JSON.parse(readOwnText(file)));
      if (!listing) return false;
      this.setListing(listing);
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
      const listing: Listing = { tools: this.tools, prompts: this.prompts, resources: this.resources };
      writeFileSync(`${file}.tmp`, JSON.stringify(listing), { mode: 0o600 });
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
    const stop = (this.stopConnecting = new AbortController());
    try {
      // The SDK loads with the first server that connects (a cached one may never need it).
      const [{ connect }, { remoteAuth }] = await Promise.all([import("./connect.ts"), import("./oauth-fetch.ts")]);
      auth = remoteAuth(this.name, entry, this.env.tokenFile);
      const client = await connect(entry, {
        fetch: auth?.fetch,
        toolEnv: this.env.toolEnv,
        ...(this.env.sandbox ? { sandbox: this.env.sandbox } : {}),
        cwd: this.env.cwd,
        logFile: this.logFile,
        timeoutMs: this.env.startupTimeoutMs,
        signal: stop.signal,
        ...(this.env.maxMessageBytes ? { maxMessageBytes: this.env.maxMessageBytes } : {}),
        version: this.env.version,
        onListChanged: () => void this.relistSoon(),
        onSpawn: (kill) => (this.killProcess = kill),
        onClose: (why, known) => {
          if (this.client !== client) return;
          this.client = undefined;
          this.state = "closed";
          this.lastError = why;
          this.closedBecause = known ? why : undefined;
        },
      });
      this.client = client;
      this.state = "connecting";
      this.setListing(await listEverything(client, this.env.startupTimeoutMs));
      this.saveTools();
      this.state = "connected";
      this.lastError = undefined;
      this.closedBecause = undefined;
    } catch (error) {
      const client = this.client;
      this.client = undefined;
      await client?.close().catch(() => {});
      if (stop.signal.aborted) {
        this.state = "closed"; // closed while connecting: not a failure of the server
        return;
      }
      this.state = auth?.needsLogin() ? "needs login" : "failed";
      this.lastError = messageOf(error);
    }
  }

  /** Reads the lists again; a call whose result came with the notification waits for it (see `call`). */
  private relistSoon(): void {
    const previous = this.relisting ?? Promise.resolve();
    const next = previous.then(() => this.relist());
    this.relisting = next;
    void next.finally(() => {
      if (this.relisting === next) this.relisting = undefined;
    });
  }

  /** Takes the server's new lists (after a list_changed notification); keeps the old ones if that fails. */
  private async relist(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      this.setListing(await listEverything(client, this.env.startupTimeoutMs));
      this.saveTools();
    } catch (error) {
      this.lastError = `its changed tool list could not be read: ${messageOf(error)}`;
    }
  }

  private setListing(listing: Listing): void {
    this.tools = listing.tools;
    this.prompts = listing.prompts;
    this.resources = listing.resources;
    this.version++;
  }

  /** Calls a tool; a failure is thrown with a sentence that names this server and says why. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const result = await this.request(`calling ${tool}`, signal, async (client, options) => (await client.callTool({ name: tool, arguments: args }, undefined, options)) as CallToolResult);
    // A list_changed sent with the result (before it, or in the same read) is taken before the
    // model's next request, so the tool it added can be called at once: let the rest of that read
    // be handled, then wait for the new lists (bounded by the server's startup timeout).
    await new Promise((resolve) => setImmediate(resolve));
    if (!signal.aborted) await this.relisting;
    return result;
  }

  /** Sends one request (connecting first if need be) with the server's timeout; a failure is thrown as a sentence naming this server, `what` it was doing and why. */
  async request<T>(what: string, signal: AbortSignal | undefined, send: (client: Client, options: RequestOptions) => Promise<T>): Promise<T> {
    if (!this.client) await this.start();
    const client = this.client;
    if (!client) throw new Error(`MCP server "${this.name}" is not available: ${this.lastError ?? "it is not connected"}`);
    const timeout = this.config.entry?.timeout ?? this.env.callTimeoutMs;
    try {
      return await send(client, { timeout, ...(signal ? { signal } : {}) });
    } catch (error) {
      const message = messageOf(error);
      const why = /timed out|timeout/i.test(message)
        ? `the call did not finish within ${timeout / 1000} s (set "timeout" in ms on the server's entry to wait longer)`
        : /Connection closed/i.test(message)
          ? (this.closedBecause ?? "the server exited or closed the connection during the call")
          : message;
      if (!signal?.aborted) this.lastError = why;
      throw new Error(`MCP server "${this.name}" failed ${what}: ${why}`);
    }
  }

  /** Ends the server's process and what it started now (process exit: a server still starting too). */
  kill(): void {
    this.killProcess?.();
  }

  async close(): Promise<void> {
    // A connection still being made would otherwise outlive the close.
    this.stopConnecting?.abort();
    const client = this.client;
    this.client = undefined;
    if (this.state === "connected") this.state = "closed";
    await client?.close().catch(() => {});
    await this.connecting;
  }
}
