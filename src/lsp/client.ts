// One language server process spoken to over stdio with vscode-jsonrpc (the framing and JSON-RPC of
// VS Code's own client). The process carries a call marker and leads its own group, so rein's
// shutdown and its watchdog stop it and whatever it started, SIGKILL of rein included. Diagnostics
// are pulled where the server offers `textDocument/diagnostic`, else read from what it publishes.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import { CALL_MARKER, newCallMarker, signalGroup, signalMarked } from "../sdk/process-group.ts";
import { ensureWatchdog } from "../sdk/watchdog.ts";
import type { LspEntry } from "./config.ts";

export type Diagnostic = { range: { start: { line: number; character: number } }; severity?: number; code?: string | number; source?: string; message: string };

export type StartOptions = {
  name: string;
  entry: LspEntry;
  root: string;
  /** the environment tools' processes get (no provider keys) */
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  logFile: string;
  /** the command line to run, when the sandbox wraps it */
  argv?: string[];
};

const CLIENT_CAPABILITIES = {
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    definition: { linkSupport: false },
    references: {},
    hover: { contentFormat: ["plaintext", "markdown"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
  },
  workspace: { symbol: {}, workspaceFolders: true, configuration: true },
  window: { workDoneProgress: false },
};

export class LspClient {
  private readonly versions = new Map<string, number>();
  private readonly published = new Map<string, { diagnostics: Diagnostic[]; at: number; version?: number }>();
  private readonly waiters = new Set<() => void>();
  private exited: string | undefined;
  private endWith: (error: Error) => void = () => {};
  /** rejects, once, when the server is gone: every wait races it (one promise, not a listener per request) */
  private readonly ended = new Promise<never>((_, reject) => (this.endWith = reject));

  private constructor(
    readonly name: string,
    private readonly proc: ChildProcess,
    private readonly marker: string,
    private readonly connection: MessageConnection,
    private readonly settings: unknown,
  ) {
    this.ended.catch(() => {}); // a server that ends while nobody waits is no error
  }

  capabilities: Record<string, unknown> = {};

  static async start(opts: StartOptions): Promise<LspClient> {
    ensureWatchdog();
    const marker = newCallMarker();
    const [command, ...args] = opts.argv ?? [opts.entry.command, ...opts.entry.args];
    mkdirSync(dirname(opts.logFile), { recursive: true });
    const log = createWriteStream(opts.logFile, { flags: "a", mode: 0o600 });
    log.on("error", () => {});
    log.write(`--- ${new Date().toISOString()} ${[opts.entry.command, ...opts.entry.args].join(" ")}\n`);
    const proc = spawn(command!, args, {
      cwd: opts.root,
      env: { ...opts.env, ...opts.entry.env, [CALL_MARKER]: marker },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const started = new Promise<void>((resolve, reject) => {
      proc.once("spawn", resolve);
      proc.once("error", (error: NodeJS.ErrnoException) =>
        reject(new Error(error.code === "ENOENT" ? `${opts.entry.command} is not installed (not found on PATH)` : `${opts.entry.command} could not start: ${error.message}`)),
      );
    });
    await started;
    proc.stderr!.on("data", (chunk: Buffer) => log.write(chunk));
    const connection = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const client = new LspClient(opts.name, proc, marker, connection, opts.entry.settings);
    client.listen(log);
    const rootUri = pathToFileURL(opts.root).href;
    try {
      const answer = await client.within(
        connection.sendRequest<{ capabilities?: Record<string, unknown> }>("initialize", {
          processId: process.pid,
          rootUri,
          rootPath: opts.root,
          workspaceFolders: [{ uri: rootUri, name: opts.root.split("/").pop() || opts.root }],
          capabilities: CLIENT_CAPABILITIES,
          ...(opts.entry.initializationOptions !== undefined ? { initializationOptions: opts.entry.initializationOptions } : {}),
        }),
        opts.timeoutMs,
        `it did not answer initialize within ${Number((opts.timeoutMs / 1000).toFixed(1))} s`,
      );
      client.capabilities = answer?.capabilities ?? {};
      await connection.sendNotification("initialized", {});
      if (opts.entry.settings !== undefined) await connection.sendNotification("workspace/didChangeConfiguration", { settings: opts.entry.settings });
    } catch (error) {
      client.stop();
      throw error;
    }
    return client;
  }

  private listen(log: NodeJS.WritableStream): void {
    const connection = this.connection;
    connection.onNotification("textDocument/publishDiagnostics", (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
      this.published.set(params.uri, { diagnostics: params.diagnostics ?? [], at: Date.now(), ...(params.version !== undefined ? { version: params.version } : {}) });
      for (const wake of [...this.waiters]) wake();
    });
    connection.onNotification("window/logMessage", (params: { message?: string }) => void log.write(`${params.message ?? ""}\n`));
    // What a server asks of its client: configuration answers with the entry's settings, the rest with nothing.
    connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) => (params.items ?? []).map(() => this.settings ?? null));
    connection.onRequest(() => null);
    connection.onError(() => {});
    // The process's own end says more (its code or signal): give it a moment to be seen first.
    connection.onClose(() => void setTimeout(() => this.exit("its connection closed"), 100).unref());
    this.proc.once("exit", (code, signal) => this.exit(signal ? `it was killed by ${signal}` : `it exited with code ${code}`));
    connection.listen();
  }

  private exit(why: string): void {
    if (this.exited) return;
    this.exited = why;
    for (const wake of [...this.waiters]) wake();
    this.endWith(new Error(why));
  }

  /** Why the server is gone, or undefined while it runs. */
  get gone(): string | undefined {
    return this.exited;
  }

  /** Tells the server the file's text now (opening it the first time); returns its version. */
  async sync(file: string, languageId: string, text: string): Promise<number> {
    const uri = pathToFileURL(file).href;
    const known = this.versions.get(uri);
    const version = (known ?? 0) + 1;
    this.versions.set(uri, version);
    if (known === undefined) await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
    else await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
    const sync = this.capabilities.textDocumentSync;
    if (typeof sync === "object" && sync !== null && (sync as { save?: unknown }).save) {
      await this.connection.sendNotification("textDocument/didSave", { textDocument: { uri }, text });
    }
    return version;
  }

  isOpen(file: string): boolean {
    return this.versions.has(pathToFileURL(file).href);
  }

  openFiles(): string[] {
    return [...this.versions.keys()];
  }

  /** The diagnostics last published for a file (undefined: none yet). */
  publishedFor(uri: string): Diagnostic[] | undefined {
    return this.published.get(uri)?.diagnostics;
  }

  /**
   * The file's diagnostics after the change that made `version`: pulled where the server offers it,
   * else the first publication after `since`, then `settleMs` of quiet so publications for the files
   * that depend on it arrive too. Undefined when the server did not answer within `timeoutMs`.
   */
  async diagnostics(file: string, version: number, since: number, timeoutMs: number, settleMs = 150): Promise<Diagnostic[] | undefined> {
    const uri = pathToFileURL(file).href;
    if (this.capabilities.diagnosticProvider) {
      try {
        const report = await this.within(
          this.connection.sendRequest<{ items?: Diagnostic[] }>("textDocument/diagnostic", { textDocument: { uri } }),
          timeoutMs,
          "timeout",
        );
        return report?.items ?? [];
      } catch {
        // fall back to what the server publishes
      }
    }
    const deadline = Date.now() + timeoutMs;
    const fresh = () => {
      const seen = this.published.get(uri);
      return seen && seen.at >= since && (seen.version === undefined || seen.version >= version) ? seen : undefined;
    };
    while (!fresh() && !this.exited && Date.now() < deadline) await this.nextPublication(deadline - Date.now());
    const got = fresh();
    if (!got) return undefined;
    // Publications for the other open files follow in a burst: wait until none came for settleMs.
    while (this.versions.size > 1 && !this.exited && Date.now() < deadline) {
      const before = this.lastPublication();
      await this.nextPublication(Math.min(settleMs, deadline - Date.now()));
      if (this.lastPublication() === before) break;
    }
    return this.published.get(uri)?.diagnostics ?? got.diagnostics;
  }

  private lastPublication(): number {
    let at = 0;
    for (const p of this.published.values()) at = Math.max(at, p.at);
    return at;
  }

  private nextPublication(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  async request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    return this.within(this.connection.sendRequest<T>(method, params), timeoutMs, `${this.name} did not answer ${method} within ${timeoutMs / 1000} s`);
  }

  private async within<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([promise, this.ended, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(why)), ms)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the server and what it started: its group gets SIGTERM now, and SIGKILL (marked processes too) shortly after. */
  stop(): void {
    const pid = this.proc.pid;
    if (pid) signalGroup(pid, "SIGTERM");
    setTimeout(() => {
      this.kill();
      this.connection.dispose();
    }, this.exited ? 0 : 300).unref();
  }

  /** Stops it now, for process exit: no waiting for a polite shutdown. */
  kill(): void {
    if (this.proc.pid) signalGroup(this.proc.pid, "SIGKILL");
    signalMarked(this.marker, "SIGKILL");
  }
}
