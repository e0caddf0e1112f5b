// The language servers of one session: each is started on the first file of its languages (never
// at start-up), once per workspace root, and stopped with the session. One that crashes is started
// again once; one that cannot start (not installed, no answer to initialize) says so once and is
// left off for the session.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sandboxArgv, sandboxAvailable } from "../registry/sandbox.ts";
import { tmpdir } from "node:os";
import { LspClient, type Diagnostic } from "./client.ts";
import { serverFor, type LspServerConfig } from "./config.ts";
import { isError } from "./diagnostics.ts";
import { serverState, type ServerState } from "./state.ts";

export type LspHubOptions = {
  configs: readonly LspServerConfig[];
  root: string;
  env: Readonly<Record<string, string>>;
  logDir: string;
  /** the whole wait of one edit's diagnostics, start-up included (REIN_LSP_WAIT_MS, 10 s) */
  waitMs: number;
  sandbox?: { mode: string; network: boolean; masked: () => string[] };
};

export type { ServerState } from "./state.ts";

type Slot = { config: LspServerConfig; client?: LspClient; starting?: Promise<LspClient>; restarts: number; failed?: string };

const MAX_RESTARTS = 1;

export class LspHub {
  private readonly slots = new Map<string, Slot>();
  /** when rein last told a server a file's text, by file (a shell command that changed it since is noticed) */
  private readonly synced = new Map<string, { mtimeMs: number; text: string }>();

  constructor(private readonly opts: LspHubOptions) {
    for (const config of opts.configs) this.slots.set(config.name, { config, restarts: 0, ...(config.problem ? { failed: config.problem } : {}) });
  }

  /** The client for a file's language, started if need be; a sentence when it cannot run; undefined when no server takes the file. */
  async clientFor(file: string, deadline: number): Promise<{ client: LspClient; languageId: string } | { problem: string; name: string } | undefined> {
    const found = serverFor(this.opts.configs, file);
    if (!found) return undefined;
    const slot = this.slots.get(found.config.name)!;
    if (slot.failed) return { problem: slot.failed, name: slot.config.name };
    if (slot.client && !slot.client.gone) return { client: slot.client, languageId: found.languageId };
    if (slot.client?.gone) {
      if (slot.restarts >= MAX_RESTARTS) return { problem: (slot.failed = `it stopped twice (${slot.client.gone}); it is left off for this session`), name: slot.config.name };
      slot.restarts++;
      slot.client = undefined;
      this.forgetOpenFiles();
    }
    slot.starting ??= this.start(slot, deadline);
    try {
      const client = await slot.starting;
      return { client, languageId: found.languageId };
    } catch (error) {
      slot.failed = error instanceof Error ? error.message : String(error);
      return { problem: slot.failed, name: slot.config.name };
    } finally {
      slot.starting = undefined;
    }
  }

  private async start(slot: Slot, deadline: number): Promise<LspClient> {
    const entry = slot.config.entry!;
    const sandboxed = entry.sandbox ?? this.opts.sandbox?.mode === "on";
    let argv: string[] | undefined;
    if (sandboxed) {
      const status = sandboxAvailable();
      if (!status.ok) throw new Error(`it is to run in the sandbox, which is unavailable here: ${status.reason}`);
      argv = sandboxArgv([entry.command, ...entry.args], { workspace: this.opts.root, tmp: tmpdir(), network: this.opts.sandbox?.network ?? false, masked: this.opts.sandbox?.masked() ?? [], cwd: this.opts.root });
    }
    const timeoutMs = Math.max(1, Math.min(entry.startupTimeout ?? this.opts.waitMs, deadline - Date.now()));
    const client = await LspClient.start({
      name: slot.config.name,
      entry,
      root: this.opts.root,
      env: this.opts.env,
      timeoutMs,
      logFile: join(this.opts.logDir, `${slot.config.name.replace(/[^\w.-]/g, "_")}.log`),
      ...(argv ? { argv } : {}),
    });
    slot.client = client;
    return client;
  }

  /** A restarted server knows no file: the next touch opens each again. */
  private forgetOpenFiles(): void {
    this.synced.clear();
  }

  /** Tells the server of `file` its text now; the version and when, for `diagnostics`. */
  async sync(client: LspClient, file: string, languageId: string, text?: string): Promise<{ version: number; since: number }> {
    const content = text ?? (await readFile(file, "utf8"));
    const since = Date.now();
    const version = await client.sync(file, languageId, content);
    const mtimeMs = (await stat(file).catch(() => undefined))?.mtimeMs ?? 0;
    this.synced.set(file, { mtimeMs, text: content });
    return { version, since };
  }

  /** Open files a command changed on disk since rein last told their server. */
  async changedOnDisk(): Promise<string[]> {
    const changed: string[] = [];
    for (const [file, seen] of this.synced) {
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs !== seen.mtimeMs) changed.push(file);
    }
    return changed;
  }

  /** Errors published for every open file but `except`, by file. */
  openErrors(client: LspClient, except: string): Map<string, Diagnostic[]> {
    const found = new Map<string, Diagnostic[]>();
    const skip = pathToFileURL(except).href;
    for (const uri of client.openFiles()) {
      if (uri === skip) continue;
      const errors = (client.publishedFor(uri) ?? []).filter(isError);
      if (errors.length) found.set(uri, errors);
    }
    return found;
  }

  status(): ServerState[] {
    return [...this.slots.values()].map((slot) => serverState(slot.config, { ...(slot.failed ? { failed: slot.failed } : {}), starting: !!slot.starting, running: !!slot.client && !slot.client.gone }));
  }

  /** Stops every server this session started. */
  close(): void {
    for (const slot of this.slots.values()) slot.client?.stop();
  }

  /** For process exit: every server's processes, now. */
  kill(): void {
    for (const slot of this.slots.values()) slot.client?.kill();
  }
}
