// Drives the compiled binary against the fake Anthropic server. Each test gets a `World`: its own
// fake server, HOME, data and config folders and working directory, and an environment built from
// nothing (no inherited ANTHROPIC_* or REIN_* variables).
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BunFile } from "bun";
import { startFakeAnthropic, type FakeServer, type FakeServerOptions, type RecordedRequest } from "../fake/server.ts";

export const ROOT = resolve(import.meta.dir, "../..");
/** REIN_E2E_BINARY runs the suite against another build (a release binary, say). */
export const BINARY = process.env.REIN_E2E_BINARY || join(ROOT, "dist/rein");

/** "pipe-open": a pipe that is never written to nor closed while rein runs. */
export type Stdin = "ignore" | "pipe-open" | string | BunFile;
export type RunOptions = {
  stdin?: Stdin;
  /** Added to the base environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** rein is killed (SIGKILL) after this long, so a hang fails the test instead of leaking a process. */
  timeoutMs?: number;
};
export type RunResult = { stdout: string; stderr: string; code: number };

let building: Promise<void> | undefined;

/** Builds dist/rein once per test process when it is missing (never builds REIN_E2E_BINARY). */
export function ensureBinary(): Promise<void> {
  building ??= (async () => {
    if (await Bun.file(BINARY).exists()) return;
    if (process.env.REIN_E2E_BINARY) throw new Error(`REIN_E2E_BINARY=${BINARY} does not exist`);
    const build = Bun.spawn([process.execPath, "build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if ((await build.exited) !== 0) throw new Error("bun build.ts failed: cannot run the e2e tests without dist/rein");
  })();
  return building;
}

export class World implements AsyncDisposable {
  private readonly running = new Set<Running>();

  private constructor(
    readonly fake: FakeServer,
    readonly root: string,
    readonly home: string,
    readonly dataDir: string,
    readonly configDir: string,
    /** The workspace rein runs in; it holds an empty `.git` so the project root is pinned here. */
    readonly cwd: string,
  ) {}

  static async create(fake: FakeServerOptions = {}): Promise<World> {
    await ensureBinary();
    // The real path: rein reports process.cwd(), which resolves symlinks such as a linked /tmp.
    const root = await realpath(await mkdtemp(join(tmpdir(), "rein-e2e-")));
    const [home, dataDir, configDir, cwd] = ["home", "data", "config", "work"].map((d) => join(root, d)) as [string, string, string, string];
    await Promise.all([home, dataDir, configDir, join(cwd, ".git")].map((d) => mkdir(d, { recursive: true })));
    return new World(await startFakeAnthropic(fake), root, home, dataDir, configDir, cwd);
  }

  env(extra: Record<string, string | undefined> = {}): Record<string, string> {
    const all: Record<string, string | undefined> = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: this.home,
      TMPDIR: this.root,
      NO_COLOR: "1",
      REIN_DATA_DIR: this.dataDir,
      REIN_CONFIG_DIR: this.configDir,
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: this.fake.url,
      REIN_RETRY_BASE_MS: "5",
      ...extra,
    };
    return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  }

  /** Starts rein and lets the test watch its output while it runs. */
  start(args: string[], options: RunOptions = {}): Running {
    const running = new Running(args, { cwd: this.cwd, ...options, env: this.env(options.env) });
    this.running.add(running);
    void running.exited.finally(() => this.running.delete(running));
    return running;
  }

  /** Runs rein to completion. */
  run(args: string[], options: RunOptions = {}): Promise<RunResult> {
    return this.start(args, options).exited;
  }

  /** Runs rein in print mode with stream-json and returns the parsed events too. */
  async runStream(args: string[], options: RunOptions = {}): Promise<RunResult & { events: ReinEvent[] }> {
    const result = await this.run([...args, "--output-format", "stream-json"], options);
    return { ...result, events: parseEvents(result.stdout) };
  }

  path(...parts: string[]): string {
    return join(this.cwd, ...parts);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const r of this.running) r.kill("SIGKILL");
    await Promise.all([...this.running].map((r) => r.exited));
    await this.fake.close();
    await rm(this.root, { recursive: true, force: true });
  }
}

/** `fake` options: `{ strict: true }` makes the fake refuse what the Messages API refuses. */
export async function world(fake: FakeServerOptions = {}): Promise<World> {
  return World.create(fake);
}

type Waiter = { check: () => boolean; resolve: () => void; reject: (error: Error) => void };

/** A rein process whose stdout and stderr are collected as they arrive. */
export class Running {
  stdout = "";
  stderr = "";
  readonly exited: Promise<RunResult>;
  private readonly proc: { pid: number; kill: (signal: NodeJS.Signals) => void };
  private readonly waiters = new Set<Waiter>();
  private done = false;

  constructor(args: string[], options: RunOptions & { env: Record<string, string>; cwd: string }) {
    const stdin = options.stdin ?? "ignore";
    const proc = Bun.spawn([BINARY, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdin: stdin === "pipe-open" ? "pipe" : stdin === "ignore" ? "ignore" : typeof stdin === "string" ? Buffer.from(stdin) : stdin,
      stdout: "pipe",
      stderr: "pipe",
    });
    this.proc = proc;
    const killer = setTimeout(() => this.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    this.exited = Promise.all([proc.exited, this.collect(proc.stdout, "stdout"), this.collect(proc.stderr, "stderr")]).then(([code]) => {
      clearTimeout(killer);
      if (stdin === "pipe-open") closeQuietly(proc.stdin);
      return this.settle(code);
    });
  }

  get pid(): number {
    return this.proc.pid;
  }

  kill(signal: NodeJS.Signals): void {
    if (!this.done) this.proc.kill(signal);
  }

  /** Resolves once the collected stdout satisfies `check`; fails if rein exits first or the deadline passes. */
  waitForStdout(check: (stdout: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    return this.waitFor(() => check(this.stdout), what, timeoutMs);
  }

  waitForStderr(check: (stderr: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    return this.waitFor(() => check(this.stderr), what, timeoutMs);
  }

  /** Resolves once a stream-json event of `type` has been printed. */
  waitForEvent(type: string, timeoutMs = 10_000): Promise<void> {
    return this.waitForStdout((out) => parseEvents(out, { partial: true }).some((e) => e.type === type), `a "${type}" event`, timeoutMs);
  }

  private waitFor(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
    if (check()) return Promise.resolve();
    if (this.done) return Promise.reject(this.failure(what, "rein exited first"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(() => reject(this.failure(what, `not seen within ${timeoutMs} ms`))), timeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        fn();
      };
      const waiter: Waiter = {
        check,
        resolve: () => settle(resolve),
        reject: (error) => settle(() => reject(this.failure(what, error.message))),
      };
      this.waiters.add(waiter);
    });
  }

  private settle(code: number): RunResult {
    this.done = true;
    for (const w of [...this.waiters]) w.check() ? w.resolve() : w.reject(new Error("rein exited first"));
    return { stdout: this.stdout, stderr: this.stderr, code };
  }

  private failure(what: string, why: string): Error {
    return new Error(`waiting for ${what}: ${why}\n--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`);
  }

  private async collect(stream: ReadableStream<Uint8Array>, into: "stdout" | "stderr"): Promise<void> {
    const decoder = new TextDecoder();
    for await (const bytes of stream) {
      this[into] += decoder.decode(bytes, { stream: true });
      for (const w of [...this.waiters]) if (w.check()) w.resolve();
    }
    this[into] += decoder.decode();
  }
}

function closeQuietly(sink: unknown): void {
  try {
    (sink as { end?: () => void }).end?.();
  } catch {
    // rein is gone; the pipe may already be broken
  }
}

/** A stream-json event; tests read the fields they need. */
export type ReinEvent = { type: string; seq: number; session_id: string; [key: string]: any };

/** One JSON object per line; with `partial`, a last line still being written is skipped. */
export function parseEvents(stdout: string, opts: { partial?: boolean } = {}): ReinEvent[] {
  const lines = stdout.split("\n");
  const last = lines.pop();
  if (!opts.partial && last) lines.push(last);
  return lines.filter((l) => l.length > 0).map((l) => JSON.parse(l) as ReinEvent);
}

/** Polls `condition` until it holds; only for state that announces itself through no event. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waiting for ${what}: not true within ${timeoutMs} ms`);
    await Bun.sleep(everyMs);
  }
}

// What the fake server received, in the shapes the tests look at.

export type SentBlock = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; [key: string]: unknown };
export type SentMessage = { role: "user" | "assistant"; content: string | SentBlock[] };

export function messagesOf(request: RecordedRequest | undefined): SentMessage[] {
  if (!request) throw new Error("no such request was made to the fake server");
  return request.body.messages as SentMessage[];
}

export function blocksOf(message: SentMessage | undefined): SentBlock[] {
  if (!message) return [];
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** Every tool_result block the request carries, in order. */
export function toolResultsOf(request: RecordedRequest | undefined): SentBlock[] {
  return messagesOf(request).flatMap((m) => blocksOf(m).filter((b) => b.type === "tool_result"));
}

export function resultText(block: SentBlock | undefined): string {
  const content = block?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c.text ?? "").join("");
  return "";
}

/** The text of the user's prompt in a request (the first text block of its last plain-text user message). */
export function lastUserText(request: RecordedRequest | undefined): string {
  const users = messagesOf(request).filter((m) => m.role === "user" && blocksOf(m).some((b) => b.type === "text"));
  return blocksOf(users.at(-1)).find((b) => b.type === "text")?.text ?? "";
}

/** Roles alternate, starting with the user. */
export function alternates(messages: SentMessage[]): boolean {
  return messages.every((m, i) => m.role === (i % 2 === 0 ? "user" : "assistant"));
}

/** Pids of processes whose command line contains `pattern` (pgrep -f), without this test's pgrep itself. */
export async function pidsMatching(pattern: string): Promise<number[]> {
  const proc = Bun.spawn(["pgrep", "-f", pattern], { stdout: "pipe", stderr: "ignore" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return out.split("\n").filter(Boolean).map(Number).filter((pid) => pid !== proc.pid);
}

/** Kills, by id, what a test left running on purpose (a tool child orphaned by kill -9). */
export async function killLeftovers(pattern: string): Promise<void> {
  for (const pid of await pidsMatching(pattern)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

export const text = (t: string) => ({ type: "text" as const, text: t });
export const bash = (command: string, id?: string) => ({ type: "tool_use" as const, name: "bash", input: { command }, ...(id ? { id } : {}) });
