// Runs a shell command in the workspace. stdout and stderr arrive merged in order, stdin is
// /dev/null, and the command's whole process group ends with the call: at its timeout, on abort, or
// when the shell exits (background children included). Output is held bounded: a head and a rolling
// tail in memory, the full stream in a temp file once it outgrows the head.
import { closeSync, constants, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { defineTool, type ToolResult } from "rein/tool";
import description from "../prompts/tools/bash.txt" with { type: "text" };
import { startInBackground, type BackgroundCommand } from "./lib/background.ts";
import { CALL_MARKER, killCall, newCallMarker, pidCursor, signalCall, signalMarked, spawnGroup } from "../src/sdk/process-group.ts";
import { blockedWriteNote, readOnlyArgv, sandboxArgv, sandboxDecision, type SandboxDecision } from "./lib/sandbox.ts";
import { fitsShell, runInShell, sharedCallEnv, shellReady, type ShellCall } from "./lib/sandbox-shell.ts";
import { ensureWatchdog } from "../src/sdk/watchdog.ts";

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** After SIGTERM, how long the group may clean up (git removes its index.lock) before SIGKILL. */
const KILL_AFTER_MS = 1_000;
/** After the shell exits, how long a background child still holding the pipe may go on printing. */
const GRACE_MS = 150;
/** Bytes kept from the start (also the part streamed live) and from the end of the output. */
const HEAD_BYTES = 1 << 20;
const TAIL_BYTES = 1 << 20;
export default defineTool({
  name: "bash",
  description,
  input: v.object({
    command: v.pipe(v.string(), v.minLength(1)),
    timeout: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(MAX_TIMEOUT_MS)),
    ),
    background: v.optional(v.boolean()),
  }),
  // The whole line: the permission engine finds every command in it, the files it touches and
  // what "always" would save (src/permission/engine.ts).
  permissions: ({ command }) => [{ permission: "bash", pattern: command.trim(), always: [] }],
  async run({ command, timeout = DEFAULT_TIMEOUT_MS, background }, ctx) {
    if (ctx.signal.aborted) return { output: "[killed: interrupted before it started]", isError: true };
    const marker = newCallMarker(); // finds what left the process group (setsid) when the call ends
    const call: ShellCall = { command, cwd: ctx.cwd, env: sharedCallEnv(ctx.env), marker };
    // A read-only call goes to the shared read-only sandbox (started while the model wrote the call,
    // see prepareShell). That it starts shows bubblewrap works here: the probe runs only if it does not.
    const shared = ctx.sandbox.readOnly && !background && fitsShell(call) && (await shellReady(ctx.sandbox.masked, call.env, ctx.signal));
    if (ctx.signal.aborted) return { output: "[killed: interrupted before it started]", isError: true };
    const sandbox: SandboxDecision = shared ? { use: true, readOnly: true, network: false } : sandboxDecision(ctx.sandbox, ctx.sessionId);
    if ("error" in sandbox) return { output: sandbox.error, isError: true };
    // `exec 2>&1` on the command's own first line puts stderr on the stdout pipe, so the two arrive
    // in the order written and bash's line numbers stay the command's. Only a syntax error on that
    // first line comes before the redirection: it arrives on the stderr pipe, read for that alone.
    ensureWatchdog(); // stops what the command starts should rein be killed outright (watchdog.ts)
    // Made only for a process of its own: a call in the shared sandbox needs no command line (nor the masks' stats).
    const argv = () => {
      const shell = ["bash", "-c", `exec 2>&1; ${command}`];
      if (!sandbox.use) return shell;
      if (sandbox.readOnly) return readOnlyArgv(shell, { workspace: ctx.cwd, masked: ctx.sandbox.masked });
      return sandboxArgv(shell, { workspace: ctx.cwd, tmp: tmpdir(), network: sandbox.network, writable: [ctx.outputDir], masked: ctx.sandbox.masked });
    };
    if (background) return backgroundStarted(startInBackground(argv(), { cwd: ctx.cwd, env: ctx.env, log: spillPath(ctx.outputDir, `${ctx.toolUseId}.background`), command }));
    const capture = new OutputCapture(spillPath(ctx.outputDir, ctx.toolUseId), ctx.output);
    const env = { ...ctx.env, [CALL_MARKER]: marker };
    const run = () => spawned(argv(), ctx.cwd, env, marker, capture);
    const started = (shared && inSharedSandbox(ctx.sandbox.masked, call, capture, run)) || run();

    let killed: "timeout" | "interrupt" | undefined;
    let escalation: Timer | undefined;
    const stop = (reason: "timeout" | "interrupt") => {
      if (killed) return;
      killed = reason;
      // SIGTERM first: git, package managers and test runners remove their lock and temp files on
      // it. SIGKILL follows for whatever ignores it, so the call still ends within about a second.
      started.signal("SIGTERM");
      escalation = setTimeout(() => started.signal("SIGKILL"), KILL_AFTER_MS);
    };
    const timer = setTimeout(() => stop("timeout"), timeout);
    const onAbort = () => stop("interrupt");
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    let end: Ended;
    try {
      end = await started.ended;
    } finally {
      clearTimeout(timer);
      clearTimeout(escalation);
      ctx.signal.removeEventListener("abort", onAbort);
    }

    const { text, note } = capture.finish();
    const notes = note ? [note] : [];
    const blocked = sandbox.use ? blockedWriteNote(text, sandbox.readOnly) : undefined;
    if (blocked) notes.push(blocked);
    if (!sandbox.use && sandbox.note) notes.push(sandbox.note);
    if (killed === "timeout") return { output: withNotes(text, [...notes, `[killed: timed out after ${timeout / 1000}s]`]), isError: true };
    if (killed === "interrupt") return { output: withNotes(text, [...notes, "[killed: interrupted]"]), isError: true };
    if (end.leftovers) notes.push("[background processes still running when the command ended were stopped]");
    if (end.signalCode) notes.push(`[killed by ${end.signalCode}]`);
    // A nonzero exit is a failed call, as Claude Code makes it: its result begins with the code.
    else if (end.exitCode !== 0) return { output: withNotes(text ? `Exit code ${end.exitCode}\n${text}` : `Exit code ${end.exitCode}`, notes), isError: true };
    return withNotes(text, notes);
  },
});

/** How a command ended: its exit code or signal, and whether processes it left running were stopped. */
type Ended = { exitCode: number | null; signalCode: NodeJS.Signals | number | null; leftovers: boolean };
/** A command under way: `ended` once it is over and its output is all in the capture. */
type Started = { ended: Promise<Ended>; signal: (signal: "SIGTERM" | "SIGKILL") => void };

/** `argv` as a process of its own, in a process group of its own; what it leaves is found by group and marker. */
function spawned(argv: string[], cwd: string, env: Record<string, string>, marker: string, capture: OutputCapture): Started {
  const since = pidCursor();
  // a new session: its own process group (pgid = pid) and no terminal
  const proc = spawnGroup(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const call = { pgid: proc.pid, marker, ...(since ? { since } : {}) };
  const pumps = [pump(proc.stdout, capture), pump(proc.stderr, capture)];
  const drained = Promise.all(pumps.map((p) => p.done));
  const ended = (async () => {
    await proc.exited;
    // A background child may hold the pipe open forever: do not wait for EOF past a short grace.
    await settlesWithin(drained, GRACE_MS);
    // Killed leftovers that held the pipe have exited once it reads EOF. (Polling the group until
    // it is empty would wait on init reaping the zombies, which can take seconds in a container.)
    const leftovers = await killCall(call);
    // A process that escaped both (it cleared its environment) may still hold the pipe: stop reading.
    if (!(await settlesWithin(drained, GRACE_MS))) for (const p of pumps) p.cancel();
    return { exitCode: proc.exitCode, signalCode: proc.signalCode, leftovers };
  })();
  return { ended, signal: (signal) => void signalCall(call, signal) };
}

/**
 * A read-only call in the session's long-lived read-only sandbox (sandbox-shell.ts); undefined when
 * every one of them is busy. Stopping it signals the call's processes by their marker; SIGKILL
 * kills the whole sandbox, everything inside with it. Where the sandbox refuses calls (it cannot
 * keep its pid 1 out of their reach here), the call runs as `instead` runs it.
 */
function inSharedSandbox(masked: readonly string[], call: ShellCall, capture: OutputCapture, instead: () => Started): Started | undefined {
  const since = pidCursor();
  const run = runInShell(masked, call, (bytes) => capture.write(bytes));
  if (!run) return undefined;
  let fallback: Started | undefined;
  const ended = run.ended.then((end): Ended | Promise<Ended> => {
    if ("refused" in end) return (fallback = instead()).ended;
    return "lost" in end ? { exitCode: null, signalCode: "SIGKILL", leftovers: false } : { exitCode: end.status, signalCode: null, leftovers: end.leftovers };
  });
  const signal = (name: "SIGTERM" | "SIGKILL") => {
    if (fallback) fallback.signal(name);
    else if (name === "SIGKILL") run.kill();
    else {
      run.terminate(); // first: a shell that saw its command die of the signal would say so ("Terminated") and go on
      signalMarked(call.marker, name, since);
    }
  };
  return { ended, signal };
}

/** Where a long output is kept in full: the session's output folder, beside what the loop saves. */
function spillPath(outputDir: string, toolUseId: string): string {
  return join(outputDir, `${toolUseId.replace(/[^\w-]/g, "_")}.bash.log`);
}

function backgroundStarted({ call, log }: BackgroundCommand): ToolResult {
  return {
    output: `[started in the background as process group ${call.pgid}; its output goes to ${log} (read it with the read tool, or task_output with task id bash_${call.pgid}); it runs until it ends or rein exits; to stop it sooner: task_stop bash_${call.pgid}, or kill -- -${call.pgid}]`,
    // the session's team lists it (task_output, task_stop, a notification when it ends)
    metadata: { background: { pgid: call.pgid, log } },
  };
}

function withNotes(text: string, notes: string[]): string {
  if (notes.length === 0) return text;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${separator}${notes.join("\n")}`;
}

/** Reads a stream into the capture until EOF or cancel; a broken pipe just ends it. */
function pump(stream: ReadableStream<Uint8Array>, capture: OutputCapture) {
  const reader = stream.getReader();
  const done = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      capture.write(value);
    }
  })().catch(() => undefined);
  return { done, cancel: () => void reader.cancel().catch(() => undefined) };
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: Timer | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A command's output in bounded memory: the first HEAD_BYTES (streamed live as they come), then a
 * rolling tail of TAIL_BYTES. Once the output outgrows the head, the full stream also goes to a temp
 * file, kept only if something had to be left out of the result.
 */
class OutputCapture {
  private total = 0;
  private readonly head: Uint8Array[] = [];
  private headBytes = 0;
  private tail: TailRing | undefined;
  private fd: number | undefined;
  private readonly live = new TextDecoder();
  private readonly path: string;
  private readonly emit: (chunk: string) => void;

  constructor(path: string, emit: (chunk: string) => void) {
    this.path = path;
    // Live output is best effort: a watcher that throws must not stop the pipe being read (a full
    // pipe would block the command until its timeout).
    this.emit = (chunk) => {
      try {
        emit(chunk);
      } catch {
        // dropped
      }
    };
  }

  write(bytes: Uint8Array): void {
    this.total += bytes.length;
    const head = bytes.subarray(0, Math.max(0, HEAD_BYTES - this.headBytes));
    if (head.length > 0) {
      this.head.push(head.slice());
      this.headBytes += head.length;
      const text = this.live.decode(head, { stream: true });
      if (text) this.emit(text);
    }
    const rest = bytes.subarray(head.length);
    if (rest.length === 0) return;
    this.tail ??= this.overflow();
    this.tail.write(rest);
    this.spill(rest);
  }

  finish(): { text: string; note?: string } {
    const head = Buffer.concat(this.head);
    if (!this.tail) return { text: new TextDecoder().decode(head) };
    const tail = this.tail.bytes();
    const omitted = this.total - head.length - tail.length;
    const saved = this.closeFile(omitted > 0);
    const decoder = new TextDecoder();
    // stream: true holds back a character cut in two at the end of the head instead of mangling it
    const headText = decoder.decode(head, { stream: true });
    if (omitted === 0) return { text: headText + decoder.decode(tail) };
    const where = saved ? `the full output is in ${this.path}` : "the full output could not be saved";
    return {
      text: `${headText}\n\n[... ${omitted} bytes omitted; ${where}]\n\n${new TextDecoder().decode(tail.subarray(charStart(tail)))}`,
      note: `[output: ${this.total} bytes in all, ${omitted} omitted from the middle; ${where}]`,
    };
  }

  private overflow(): TailRing {
    this.emit(`\n[rein: live output stops after the first ${HEAD_BYTES} bytes; the result keeps the head and the tail]\n`);
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
      for (const part of this.head) writeAll(this.fd, part);
    } catch {
      this.closeFile(false);
    }
    return new TailRing(TAIL_BYTES);
  }

  private spill(bytes: Uint8Array): void {
    if (this.fd === undefined) return;
    try {
      writeAll(this.fd, bytes);
    } catch {
      this.closeFile(false); // a full disk: better no file than a silently short one
    }
  }

  /** Closes the temp file, deleting it unless `keep`; true when it is kept. */
  private closeFile(keep: boolean): boolean {
    if (this.fd === undefined) return false;
    closeSync(this.fd);
    this.fd = undefined;
    if (keep) return true;
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
    return false;
  }
}

/** The last `size` bytes written, in one fixed buffer. */
class TailRing {
  private readonly buffer: Uint8Array;
  private end = 0;
  private full = false;

  constructor(size: number) {
    this.buffer = new Uint8Array(size);
  }

  write(bytes: Uint8Array): void {
    const size = this.buffer.length;
    if (bytes.length >= size) {
      this.buffer.set(bytes.subarray(bytes.length - size));
      this.end = 0;
      this.full = true;
      return;
    }
    const first = Math.min(bytes.length, size - this.end);
    this.buffer.set(bytes.subarray(0, first), this.end);
    this.buffer.set(bytes.subarray(first), 0);
    if (this.end + bytes.length >= size) this.full = true;
    this.end = (this.end + bytes.length) % size;
  }

  bytes(): Uint8Array {
    if (!this.full) return this.buffer.subarray(0, this.end);
    return Buffer.concat([this.buffer.subarray(this.end), this.buffer.subarray(0, this.end)]);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

/** Where the first whole UTF-8 character starts (a cut may leave up to 3 continuation bytes). */
function charStart(bytes: Uint8Array): number {
  let start = 0;
  while (start < 3 && start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return start;
}
