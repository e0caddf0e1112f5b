// The `command` handler: the payload as JSON on stdin, in the session's folder, in its own process
// group with no terminal. A timeout or an abort ends the whole group (SIGTERM, then SIGKILL).
import type { HookHandler } from "../config/hooks-schema.ts";
import { endGroup, killAtExit, signalGroup, spawnGroup } from "../sdk/process-group.ts";

type CommandHandler = Extract<HookHandler, { type: "command" }>;

/** What a handler's process did: read by outcome.ts. `exitCode` is null when it was ended (timeout, abort). */
export type RawRun = { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean; cut: boolean; error?: string; signal?: string };

export const OUTPUT_LIMIT = 10_000;
const ENCODER = new TextEncoder();
const KILL_GRACE_MS = 1_000;
/** how long output may still arrive once the hook's process exited (from a child that left its group) */
const DRAIN_MS = 1_000;

export type CommandRun = {
  payload: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  signal: AbortSignal;
  /** told once the process started (or could not start) */
  started?: () => void;
};

export async function runCommand(handler: CommandHandler, run: CommandRun): Promise<RawRun> {
  const argv = handler.args ? [expand(handler.command, run.env), ...handler.args.map((a) => expand(a, run.env))] : ["sh", "-c", handler.command];
  if (run.signal.aborted) return { exitCode: null, stdout: "", stderr: "", timedOut: false, cut: false };
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(argv, run);
  } catch (error) {
    run.started?.();
    return { exitCode: 127, stdout: "", stderr: "", timedOut: false, cut: false, error: `cannot start ${argv[0]}: ${(error as Error).message}` };
  }
  let timedOut = false;
  // Nothing a hook started outlives rein, a second signal's exit included.
  const forget = killAtExit(child.pid);
  void child.exited.then(() => setTimeout(forget, KILL_GRACE_MS).unref());
  const end = () => endGroup(child.pid, child.exited, KILL_GRACE_MS);
  const timer = setTimeout(() => ((timedOut = true), end()), run.timeoutMs);
  run.signal.addEventListener("abort", end, { once: true });
  // What the caller does meanwhile may throw (its store failed): the process is ended, then that is thrown.
  let failed: { error: unknown } | undefined;
  try {
    run.started?.();
  } catch (error) {
    failed = { error };
    end();
  }
  try {
    // The hook is over when its process exits: what it left running in its group (`sleep 777 &`
    // holding stdout) is killed, so the output ends; one that left the group is waited on briefly.
    const exited = child.exited.then((code) => (signalGroup(child.pid, "SIGKILL"), code));
    const drained = exited.then(() => new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref?.()));
    const [stdout, stderr, exitCode] = await Promise.all([capped(child.stdout, drained), capped(child.stderr, drained), exited]);
    if (failed) throw failed.error;
    const killed = !timedOut && !run.signal.aborted && child.signalCode !== null ? child.signalCode : undefined;
    const ended = timedOut || run.signal.aborted || child.signalCode !== null;
    return { exitCode: ended ? null : exitCode, stdout: stdout.text, stderr: stderr.text, timedOut, cut: stdout.cut, ...(killed ? { signal: String(killed) } : {}) };
  } finally {
    clearTimeout(timer);
    run.signal.removeEventListener("abort", end);
  }
}

/** In a new session: no controlling terminal, and one group to end with everything it started. */
function spawn(argv: string[], run: CommandRun) {
  return spawnGroup(argv, { cwd: run.cwd, env: run.env as Record<string, string>, stdin: ENCODER.encode(run.payload), stdout: "pipe", stderr: "pipe" });
}

/** `${VAR}` / `$VAR` of the project variables in an exec-form element (no shell does it). */
function expand(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{?(REIN_PROJECT_DIR|CLAUDE_PROJECT_DIR)\}?/g, (_, name: string) => env[name] ?? "");
}

/** A stream's text up to OUTPUT_LIMIT characters; the rest is read and dropped, so the writer never blocks. */
async function capped(stream: ReadableStream<Uint8Array>, until: Promise<void>): Promise<{ text: string; cut: boolean }> {
  const decoder = new TextDecoder();
  let text = "";
  let cut = false;
  const reader = stream.getReader();
  void until.then(() => reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done) break;
    if (cut) continue;
    text += decoder.decode(value, { stream: true });
    if (text.length > OUTPUT_LIMIT) {
      text = text.slice(0, OUTPUT_LIMIT);
      cut = true;
    }
  }
  if (!cut) text += decoder.decode();
  return { text, cut };
}
