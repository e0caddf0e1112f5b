// A stdio server's process and its newline-delimited JSON-RPC, in place of the SDK's transport for
// two reasons. Lines: the SDK concatenates its whole buffer with every chunk, so a 200 MB line with
// no newline costs quadratic copying that blocks the event loop for a minute, timers (the first
// turn's wait) included; here each chunk is looked at once, and a line past its bound fails the
// server at once. Processes: the server leads its own process group and carries rein's call marker
// (src/sdk/process-group.ts), so closing it, rein's exit and the watchdog after a SIGKILL of rein
// end what it started too: an `npx`/`uvx`/`sh -c` wrapper's child, a forked `sleep`, a server still
// starting.
import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { CALL_MARKER, killCall, newCallMarker, pidCursor, signalCall, type CallProcesses } from "../sdk/process-group.ts";
import { ensureWatchdog } from "../sdk/watchdog.ts";
import { LineReader } from "./line-reader.ts";

export type StdioParams = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** the longest line (one message) read; a longer one fails the server */
  maxLineBytes: number;
};

/** How long a closed server gets to exit on stdin's EOF, then on SIGTERM, before it is killed. */
const GRACE_MS = 2_000;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** the server's stderr, there before it starts so nothing it writes early is lost */
  readonly stderr = new PassThrough();
  /** why rein ended the connection, when it did (a line over the bound) */
  failure: string | undefined;
  private proc: ChildProcess | undefined;
  private processes: CallProcesses | undefined;
  private exited: Promise<void> = Promise.resolve();
  private closed = false;
  /** the server's process is gone and onclose was told */
  private over = false;

  constructor(private readonly params: StdioParams) {}

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  start(): Promise<void> {
    ensureWatchdog();
    const marker = newCallMarker();
    const since = pidCursor();
    const { command, args, env, cwd } = this.params;
    const proc = spawn(command, args, { env: { ...env, [CALL_MARKER]: marker }, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    this.proc = proc;
    if (proc.pid) this.processes = { pgid: proc.pid, marker, ...(since ? { since } : {}) };
    this.exited = new Promise((resolve) => proc.once("exit", () => resolve()));
    // A forked child may hold stdout open after the server exited: 'close' would never come.
    proc.once("exit", () => setTimeout(() => this.ended(), 200).unref());
    proc.once("close", () => this.ended());
    const lines = new LineReader(this.params.maxLineBytes, (line) => this.take(line));
    proc.stdout!.on("data", (chunk: Buffer) => {
      if (this.closed) return;
      if (lines.push(chunk)) return;
      this.failure = `it sent a message larger than ${mib(this.params.maxLineBytes)} (the most rein reads as one line), so it was stopped`;
      this.onerror?.(new Error(this.failure));
      void this.close();
    });
    proc.stderr!.pipe(this.stderr);
    proc.stdin!.on("error", (error) => this.onerror?.(error));
    proc.stdout!.on("error", (error) => this.onerror?.(error));
    return new Promise((resolve, reject) => {
      proc.once("spawn", () => resolve());
      proc.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  private take(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error as Error); // a malformed line is reported, and the next is read
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.proc?.stdin;
    if (!stdin || this.closed || this.over) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the server: EOF on stdin, then SIGTERM to its group, then SIGKILL to whatever of it is left (its forks too). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const proc = this.proc;
    if (!proc) return;
    try {
      proc.stdin?.end();
    } catch {
      // already closed
    }
    if (proc.exitCode === null && proc.signalCode === null && !(await within(this.exited, GRACE_MS))) {
      if (this.processes) signalCall(this.processes, "SIGTERM");
      await within(this.exited, GRACE_MS);
    }
    // What the server left behind (a forked child, a wrapper's server) goes with it.
    if (this.processes) await killCall(this.processes);
  }

  /** Kills the server and everything it started now, for process exit where nothing can be awaited. */
  kill(): void {
    this.closed = true;
    if (this.processes) signalCall(this.processes, "SIGKILL");
    else this.proc?.kill("SIGKILL");
  }

  private ended(): void {
    if (this.over) return;
    this.over = true;
    this.onclose?.();
  }
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`);
