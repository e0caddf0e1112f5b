// Opens a client to one server through the official SDK: stdio (the tool environment plus the
// entry's env, stderr to a log file), streamable HTTP with the legacy HTTP+SSE transport as a
// fallback, or SSE alone. Every failure is thrown as an Error whose message says why.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { tmpdir } from "node:os";
import { sandboxArgv, sandboxAvailable } from "../registry/sandbox.ts";
import { ACCEPT_ANY } from "./accept-any-schema.ts";
import { logStderr } from "./capped-log.ts";
import type { McpSandbox, RemoteEntry, ServerEntry, StdioEntry } from "./config.ts";
import { messageOf } from "./message.ts";
import { boundedFetch } from "./bounded-fetch.ts";
import { StdioTransport } from "./stdio-transport.ts";

export type ConnectOptions = {
  /** the environment tools' processes get (no provider keys, no credential-looking variables) */
  toolEnv: Readonly<Record<string, string>>;
  cwd: string;
  logFile: string;
  timeoutMs: number;
  /** gives up connecting (the session closed meanwhile): the server's process ends */
  signal?: AbortSignal;
  version: string;
  /** a remote server's requests go through it (the saved OAuth login, oauth-fetch.ts) */
  fetch?: FetchLike;
  /** the largest message read from a server: a stdio server's line, an HTTP answer, one event of an event stream (128 MiB by default) */
  maxMessageBytes?: number;
  /** the session's sandbox (a stdio server runs under it when it is on, or when its entry says "sandbox": true) */
  sandbox?: McpSandbox;
  /** told when the server said its tool or prompt list changed */
  onListChanged: () => void;
  /** told when the connection ended on its own (the server exited, the stream broke); `known`: why is more than that */
  onClose: (why: string, known?: boolean) => void;
  /** told as a stdio server's process starts, with what kills it and all it started (for rein's exit, also mid-handshake) */
  onSpawn?: (kill: () => void) => void;
};

export async function connect(entry: ServerEntry, opts: ConnectOptions): Promise<Client> {
  if (!("url" in entry)) {
    const transport = stdioTransport(entry, opts);
    return open(transport, opts, () => transport.failure);
  }
  const headers = entry.headers ?? {};
  // A remote server's answers are bounded as a stdio server's lines are: past the bound, the
  // connection is closed with that reason (its pending calls fail saying so), as a stdio server is stopped.
  const bound: { failure?: string; transport?: SdkTransport } = {};
  const fetchFn = boundedFetch(opts.fetch ?? fetch, maxMessage(opts), (failure) => {
    bound.failure = failure;
    bound.transport?.onerror?.(new Error(failure));
    void bound.transport?.close();
  });
  const remote = (transport: SdkTransport) => open((bound.transport = transport), opts, () => bound.failure);
  if (entry.type === "sse") return remote(sseTransport(entry, headers, fetchFn));
  try {
    return await remote(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers }, fetch: fetchFn }));
  } catch (error) {
    // A server that only speaks the 2024-11-05 transport answers the POST with a 4xx.
    const status = (error as { status?: unknown }).status;
    if (!(typeof status === "number" && status >= 400 && status < 500)) throw error;
    return remote(sseTransport(entry, headers, fetchFn));
  }
}

function sseTransport(entry: RemoteEntry, headers: Record<string, string>, fetchFn: FetchLike = fetch): SSEClientTransport {
  return new SSEClientTransport(new URL(entry.url), { requestInit: { headers }, fetch: fetchFn, eventSourceInit: { fetch: (url, init) => fetchFn(url, { ...init, headers: { ...headers, ...Object.fromEntries(new Headers(init?.headers).entries()) } }) } });
}

function stdioTransport(entry: StdioEntry, opts: ConnectOptions): StdioTransport {
  const [command, ...args] = launchLine(entry, opts);
  const env = { ...inheritedEnv(), ...opts.toolEnv, ...entry.env };
  const transport = new StdioTransport({ command: command!, args, env, cwd: entry.cwd ?? opts.cwd, maxLineBytes: maxMessage(opts) });
  opts.onSpawn?.(() => transport.kill());
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const header = `--- ${new Date().toISOString()} ${entry.command} ${(entry.args ?? []).join(" ")}${command === "bwrap" ? " (in the sandbox)" : ""}\n`;
  logStderr(transport.stderr, opts.logFile, header);
  return transport;
}

/** What the SDK's stdio transport gives every server from rein's own environment (sudo's list), under the tool environment. */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

/** The longest message rein reads from a server: a stdio server's line (the SDK's default is 10 MiB), an HTTP answer or event; a longer one fails the server. */
const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;
const maxMessage = (opts: ConnectOptions) => opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;

/**
 * The server's command line, under bubblewrap as the bash tool's commands run with the sandbox on:
 * the workspace and the temp folder writable, the rest read-only, credentials masked, the network
 * as the session's sandbox allows. A server that must be sandboxed where bubblewrap cannot run does not start.
 */
function launchLine(entry: StdioEntry, opts: ConnectOptions): string[] {
  const command = [entry.command, ...(entry.args ?? [])];
  if (!(entry.sandbox ?? opts.sandbox?.mode === "on")) return command;
  const status = sandboxAvailable();
  if (!status.ok) throw new Error(`it is to run in the sandbox, which is unavailable here: ${status.reason}; to get it, ${status.hint}`);
  const cwd = entry.cwd ?? opts.cwd;
  return sandboxArgv(command, { workspace: opts.cwd, tmp: tmpdir(), network: opts.sandbox?.network ?? false, masked: opts.sandbox?.masked() ?? [], cwd });
}

/** `failure`: why rein ended the connection, when it did (a message over the bound). */
async function open(transport: SdkTransport, opts: ConnectOptions, failure: () => string | undefined): Promise<Client> {
  const client = new Client(
    { name: "rein", version: opts.version },
    {
      capabilities: {},
      jsonSchemaValidator: ACCEPT_ANY,
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onListChanged() },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => opts.onListChanged() },
      },
    },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not answer the handshake within ${opts.timeoutMs / 1000} s`)), opts.timeoutMs);
    opts.signal?.addEventListener("abort", () => reject(new Error("it was closed before it connected")), { once: true });
  });
  try {
    await Promise.race([client.connect(transport, { timeout: opts.timeoutMs }), timeout]);
  } catch (error) {
    await client.close().catch(() => {});
    throw Object.assign(new Error(failure() ?? startError(error)), { status: (error as { code?: unknown }).code });
  } finally {
    clearTimeout(timer);
  }
  client.onclose = () => opts.onClose("the connection closed (the server exited or the stream broke)");
  // The SDK reports a message it could not read here, then closes the connection: say why it closed.
  client.onerror = () => {
    const why = failure();
    if (why) opts.onClose(why, true);
  };
  return client;
}

function startError(error: unknown): string {
  // An HTTP error's message may carry the whole page the server answered with.
  const message = messageOf(error).replace(/\s+/g, " ").replace(/<!DOCTYPE.*$|<html.*$/is, "(an HTML page)").slice(0, 300);
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT" || /ENOENT|not found/.test(message)) return `its command could not be started (${message})`;
  if (/Connection closed/i.test(message)) return "it exited before answering the handshake (see its log)";
  if (typeof code === "number" && code >= 400 && code < 600) return `it answered HTTP ${code} (${message.replace(/^Streamable HTTP error: /, "")})`;
  return message;
}
