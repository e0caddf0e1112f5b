// One long-lived read-only sandbox that runs the read-only calls of a session one after another,
// so a call costs the fork of a shell made ahead of it instead of a bubblewrap start (namespaces,
// mounts) and a bash start. Its pid 1 is a bash loop started with the calls' environment (one
// sandbox per environment and mask list): for each call it forks a subshell ahead of time, which
// reads the call (folder, command line, marker; NUL-separated) from the request pipe, lets go of
// the pipe and runs the line with `eval`, as `bash -c` would. Once that subshell has ended, pid 1
// kills whatever the line left running (its `kill -1` reaches every other process in the
// namespace, setsid or not), empties the private /dev/shm, and only then reads the call's nonce
// (sent after the call) and writes an end mark (RS, the nonce, the status, whether anything was
// left) after the output. Nothing of a call can write after its mark, as it has been killed, nor
// forge the mark, as its nonce was read only after it ended.
// A call cannot reach pid 1 either: pid 1 runs from an execute-only copy of bash (bwrap writes it
// into its own /dev; an older bwrap has the loop make it), which makes it
// non-dumpable, and holds no capabilities (bwrap --cap-drop ALL), so no call can ptrace it, write
// its memory (/proc/1/mem) or open its pipes through /proc/1/fd. It checks this before its first
// call and refuses every call where it does not hold; the calls then get a bubblewrap each.
// A call stopped on timeout or abort gets SIGTERM by its marker and its shell by its pid, and the
// whole sandbox is killed a grace later if the line is still running; the next call starts a new one.
import { closeSync, openSync, readFileSync } from "node:fs";
import { CALL_MARKER, killAtExit, processMarker, signalGroup, spawnGroup } from "../../src/sdk/process-group.ts";
import { randomHex } from "../../src/sdk/digest.ts";
import { bwrapPath, readOnlyArgv, sandboxWorked } from "./sandbox.ts";

/** How a shared call ended; `refused`: the sandbox could not be hardened here and ran nothing. */
export type ShellEnd = { status: number; leftovers: boolean } | { lost: true } | { refused: true };
/** A call: `env` is the environment without the call's marker, which `marker` carries. */
export type ShellCall = { command: string; cwd: string; env: Record<string, string>; marker: string };
/** `terminate`: SIGTERM to the call's own shell (its commands carry the marker; the shell, a fork of pid 1, does not); `kill`: the whole sandbox. */
export type ShellRun = { ended: Promise<ShellEnd>; terminate: () => void; kill: () => void };

const INIT = "/dev/shm/.rein-init";
/** Where bwrap itself writes pid 1's execute-only copy of bash (outside /dev/shm, which each call empties). */
const GIVEN = "/dev/.rein-bash";
// Run from a copy nobody can read, the shell is not dumpable: no ptrace, no /proc/1/mem. bwrap
// writes that copy (--perms 0111 --file) and starts the loop from it; BASH_ARGV0 (bash 5) makes its
// name `bash` again for the calls' messages, and an older bash is executed once more under that name.
const FROM_GIVEN = ["exec 2>/dev/null; BASH_ARGV0=bash;", '[[ $0 == bash ]] || exec -a bash "$BASH" --noprofile --norc -c "$BASH_EXECUTION_STRING";'];
// Where bwrap cannot (--perms came with bubblewrap 0.5), the loop makes the copy itself and re-executes from it.
const BY_COPY = [
  "exec 2>/dev/null;",
  'if [[ -z $__rein_init ]]; then',
  `shopt -s execfail; command install -m 0111 -- "$BASH" ${INIT} && __rein_init=1 exec -a bash ${INIT} --noprofile --norc -c "$BASH_EXECUTION_STRING";`,
  "fi;",
  `command rm -f -- ${INIT}; export -n __rein_init; unset __rein_init;`,
];
// One line, so that the command's own lines count from 1 in bash's messages (eval numbers them from its own line).
const BODY = [
  "if ( : </proc/1/environ ); then printf '\\036unsafe\\n'; exit 0; fi;",
  "printf '\\036ready\\n'; shopt -s nullglob dotglob; exec 3<&0 0</dev/null;",
  "while :; do",
  "(",
  "IFS= read -r -d '' -u 3 __rein_cwd && IFS= read -r -d '' -u 3 __rein_line && IFS= read -r -d '' -u 3 __rein_marker || exit 255;",
  `exec 3<&- 2>&1; export ${CALL_MARKER}=$__rein_marker;`,
  "unset __rein_marker __rein_nonce __rein_status __rein_left __rein_shm __rein_call; shopt -u nullglob dotglob;",
  'cd -- "$__rein_cwd" || exit; unset __rein_cwd OLDPWD;',
  'eval "unset __rein_line; $__rein_line"',
  ") & __rein_call=$!;",
  'wait "$__rein_call"; __rein_status=$?; __rein_left=0;',
  // Only what was killed is waited for: with no other process left there is nothing to reap, and a
  // bare `wait` clears bash's table of finished jobs, rewriting about 0.5 MB of pid 1's memory that
  // the fork of every call made copy-on-write (some 130 page faults a call).
  "if kill -0 -1; then __rein_left=1; command sleep 0.15; kill -KILL -1; wait; fi;",
  "__rein_shm=(/dev/shm/*);",
  '((${#__rein_shm[@]} == 0)) || command rm -rf -- "${__rein_shm[@]}";',
  "IFS= read -r -d '' -u 3 __rein_nonce || exit 0;",
  `printf '\\036%s %d %d\\n' "$__rein_nonce" "$__rein_status" "$__rein_left";`,
  "done",
];
const LOOP = { given: [...FROM_GIVEN, ...BODY].join(" "), copied: [...BY_COPY, ...BODY].join(" ") };

/** Idle sandboxes kept per environment and mask list; more calls at once than this run in a bubblewrap of their own. */
const MAX_SHELLS = 4;
/** An environment variable name bash can export (others go through a bubblewrap of their own). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * What a fresh `bash -c` reads from its environment at start and the loop's bash would read once
 * for every call (its options, a startup file), and the loop's own names: such calls get a bubblewrap of their own.
 */
const OWN_NAMES = /^(BASH_ENV|ENV|SHELLOPTS|BASHOPTS|POSIXLY_CORRECT|BASH_COMPAT|BASH_XTRACEFD|PS4|GLOBIGNORE|EXECIGNORE|__rein_.*)$/;
const RS = 0x1e;
const READY = Buffer.from("\x1eready\n");

type Shell = {
  key: string;
  proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  busy: boolean;
  dead: boolean;
  /** forgets the sandbox's group in the kill at rein's exit */
  forget: () => void;
  /** the first line, whether the loop holds pid 1 out of the calls' reach, is read */
  ready: boolean;
  /** true once the loop said it is ready; false if it is unsafe here or bwrap could not start it */
  greeted: Promise<boolean>;
  /** bwrap wrote pid 1's copy of bash (GIVEN), rather than the loop */
  given: boolean;
  greet: (ready: boolean) => void;
  /** where the output of the call in progress goes, and how its end mark is recognised */
  current?: { mark: Buffer; output: (bytes: Uint8Array) => void; end: (end: ShellEnd) => void };
};

const shells: Shell[] = [];
/** Set once a sandbox said it could not keep its pid 1 out of the calls' reach: none is started again. */
let refused = false;
/** The PATH under which bwrap could not start a sandbox at all: none is started again while it holds. */
let failedFor: string | undefined;
/** Whether bwrap writes pid 1's copy (GIVEN); off once a sandbox started that way ended before it was ready. */
let givenCopy = true;
/** How long a call waits for a sandbox to say it is ready before it goes the way of a sandbox that cannot start. */
const READY_WAIT_MS = 10_000;

/** The environment of a shared call, from the session's tool environment: the call's own marker comes with the request. */
export function sharedCallEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const { [CALL_MARKER]: _outer, ...base } = env; // a marker from outside (rein run by rein) gives way to the call's
  return { ...base, TMPDIR: "/dev/shm" };
}

/** bwrap, where a shared sandbox may be started now: not refused here, and bwrap found on PATH and not failing under it. */
function startable(): string | undefined {
  if (refused || (failedFor !== undefined && failedFor === process.env.PATH)) return undefined;
  return bwrapPath();
}

/** The idle (or starting) sandbox for this key; one is started when there is none and fewer than MAX_SHELLS are busy. */
function idleShell(key: string, masked: readonly string[], env: Record<string, string>): Shell | undefined {
  const idle = shells.find((s) => s.key === key && !s.busy && !s.dead);
  if (idle) return idle;
  if (shells.filter((s) => s.key === key && !s.dead).length >= MAX_SHELLS) return undefined;
  const bwrap = startable();
  if (!bwrap) return undefined;
  // Sandboxes of other masks are stale (the masks changed when a call could have written a secret).
  for (const other of shells.filter((s) => s.key !== key && !s.busy)) stop(other);
  return start(bwrap, key, masked, env);
}

const keyOf = (masked: readonly string[], env: Record<string, string>) => `${masked.join("\0")}\0\0${JSON.stringify(env)}`;

/**
 * Starts the sandbox the first read-only call will use, given its masks and the session's tool
 * environment (asked only then): called while the model still writes a bash call, so that the
 * sandbox's start (namespaces, mounts, its shell) overlaps the rest of the turn instead of
 * preceding the call. Once one has started, each call leaves the next one's shell forked ahead.
 */
export function prepareShell(policy: () => { masked: readonly string[]; env: Readonly<Record<string, string>> }): void {
  if (shells.length > 0 || !startable()) return;
  const given = policy();
  const { masked } = given;
  const env = sharedCallEnv(given.env);
  if (fitsShell({ command: "", cwd: "/", env, marker: "" })) idleShell(keyOf(masked, env), masked, env);
}

/**
 * Whether a sandbox for these masks and this environment is ready for a call (started now if none
 * is idle): false where bubblewrap cannot start one, the loop cannot be hardened here, all are
 * busy, or `signal` aborts first. A sandbox that said it is ready is also what the probe would have
 * found (sandbox.ts), so none is run.
 */
export async function shellReady(masked: readonly string[], env: Record<string, string>, signal: AbortSignal): Promise<boolean> {
  const shell = idleShell(keyOf(masked, env), masked, env);
  if (!shell) return false;
  if (shell.ready) return true;
  shell.proc.ref(); // awaited: see runInShell
  let timer: Timer | undefined;
  let onAbort: (() => void) | undefined;
  const given = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, READY_WAIT_MS, false);
    onAbort = () => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const ready = await Promise.race([shell.greeted, given]);
    // A bwrap too old to write pid 1's copy: once more with the loop making it.
    if (!ready && shell.given && !givenCopy && !signal.aborted) return await shellReady(masked, env, signal);
    return ready;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort!);
    if (!shell.busy) shell.proc.unref();
  }
}

/** Whether a call can run in a shared sandbox: nothing in it that the NUL-separated request or bash's export cannot carry. */
export function fitsShell(call: ShellCall): boolean {
  if (refused) return false;
  const texts = [call.command, call.cwd, call.marker, ...Object.entries(call.env).flat()];
  return texts.every((text) => !text.includes("\0")) && Object.keys(call.env).every((name) => NAME.test(name) && !OWN_NAMES.test(name));
}

/**
 * Runs `call` in an idle read-only sandbox with these masks and this environment (started if none
 * is); undefined when MAX_SHELLS are busy with them already. Output arrives through `output` in order.
 */
export function runInShell(masked: readonly string[], call: ShellCall, output: (bytes: Uint8Array) => void): ShellRun | undefined {
  const shell = idleShell(keyOf(masked, call.env), masked, call.env);
  if (!shell) return undefined;
  const nonce = randomHex(12);
  const target = shell;
  target.busy = true;
  // Referenced while a call runs: an unreferenced process whose pipe is awaited makes Bun's event loop poll without sleeping.
  target.proc.ref();
  const ended = new Promise<ShellEnd>((resolve) => {
    target.current = {
      mark: Buffer.from(`\x1e${nonce} `),
      output,
      end: (end) => {
        target.current = undefined;
        target.busy = false;
        target.proc.unref();
        resolve(end);
      },
    };
  });
  target.proc.stdin.write(`${call.cwd}\0${call.command}\0${call.marker}\0${nonce}\0`);
  target.proc.stdin.flush();
  return { ended, terminate: () => terminate(target), kill: () => stop(target) };
}

/** The read-only command line with bwrap writing pid 1's execute-only copy of bash from fd 3 (where bubblewrap's own /dev is). */
function withCopy(argv: string[]): string[] {
  const at = argv.indexOf("--chdir");
  return [...argv.slice(0, at), "--perms", "0111", "--file", "3", GIVEN, ...argv.slice(at)];
}

/** SIGTERM to pid 1's children: the call's shell and what it left to pid 1 (between calls there is only the next call's shell). */
function terminate(shell: Shell): void {
  for (const init of children(shell.proc.pid)) {
    for (const pid of children(init)) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // gone meanwhile
      }
    }
  }
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return []; // gone, or a kernel without the list: the SIGKILL a grace later still ends the call
  }
}

function start(bwrap: string, key: string, masked: readonly string[], env: Record<string, string>): Shell | undefined {
  const path = env.PATH ?? process.env.PATH ?? "/usr/bin:/bin";
  const bash = givenCopy ? Bun.which("bash", { PATH: path }) : null;
  let copy: number | undefined;
  let proc: Shell["proc"];
  try {
    if (bash) copy = openSync(bash, "r");
    const [, ...rest] = copy === undefined
      ? readOnlyArgv(["bash", "--noprofile", "--norc", "-c", LOOP.copied], { workspace: "/", masked, ownInit: true })
      : withCopy(readOnlyArgv([GIVEN, "--noprofile", "--norc", "-c", LOOP.given], { workspace: "/", masked, ownInit: true }));
    // The sandbox carries a marker of this process too: the watchdog ends it should rein die with a call running.
    proc = spawnGroup([bwrap, ...rest], {
      env: { ...env, PATH: path, [CALL_MARKER]: `${processMarker()}-sandbox` },
      stdio: ["pipe", "pipe", "ignore", ...(copy === undefined ? [] : [copy])],
    });
  } catch {
    failedFor = process.env.PATH; // bwrap (or bash) went away since it was found: as if it could not start
    return undefined;
  } finally {
    if (copy !== undefined) closeSync(copy);
  }
  proc.unref();
  let greet!: (ready: boolean) => void;
  const greeted = new Promise<boolean>((resolve) => (greet = resolve));
  const shell: Shell = { key, proc, busy: false, dead: false, ready: false, greeted, greet, given: copy !== undefined, forget: killAtExit(proc.pid) };
  void greeted.then((ready) => ready && sandboxWorked(bwrap));
  shells.push(shell);
  void read(shell);
  return shell;
}

/** Kills the sandbox (its process group: bwrap and its pid 1, whose end takes every process inside with it). */
function stop(shell: Shell): void {
  if (!shell.dead) {
    shell.dead = true;
    shell.forget();
    signalGroup(shell.proc.pid, "SIGKILL");
  }
  const at = shells.indexOf(shell);
  if (at >= 0) shells.splice(at, 1);
}

/** Forwards the sandbox's stdout to the call in progress until its end mark; at EOF, the call is lost. */
async function read(shell: Shell): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  const reader = shell.proc.stdout.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending = pending.length ? Buffer.concat([pending, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (!shell.ready) pending = greeting(shell, pending);
      if (shell.ready) pending = deliver(shell, pending);
    }
  } catch {
    // the pipe broke: as at EOF
  }
  const stopped = shell.dead; // by rein (stale masks, a stopped call), not by bwrap failing
  stop(shell);
  if (shell.ready) return shell.current?.end({ lost: true });
  // It ended before it said it was ready: bwrap cannot start it here (unless rein stopped it). The
  // call goes the way of a sandbox that cannot be hardened: a bubblewrap of its own, if any works.
  if (stopped) {
    // rein stopped it: nothing learnt about bwrap
  } else if (shell.given) givenCopy = false; // perhaps only --perms it did not know: the loop makes the copy next time
  else failedFor = process.env.PATH;
  shell.greet(false);
  shell.current?.end({ refused: true });
}

/** The loop's first line: ready, or that it cannot keep pid 1 out of the calls' reach (then no shared sandbox again). */
function greeting(shell: Shell, bytes: Buffer): Buffer {
  if (bytes.length < READY.length) return bytes;
  if (bytes.subarray(0, READY.length).equals(READY)) {
    shell.ready = true;
    shell.greet(true);
    return bytes.subarray(READY.length);
  }
  // "unsafe", or anything else: either way the loop is not one to trust with a call.
  refused = true;
  stop(shell);
  shell.greet(false);
  shell.current?.end({ refused: true });
  return Buffer.alloc(0);
}

/** Passes on what is surely output, ends the call at its mark; returns what must wait for more bytes. */
function deliver(shell: Shell, bytes: Buffer): Buffer {
  const call = shell.current;
  if (!call) return Buffer.alloc(0); // nothing is written between calls
  const at = bytes.indexOf(call.mark);
  if (at < 0) {
    // A mark may begin in the last bytes: hold back as many as it is long, less one.
    const keep = Math.min(bytes.length, call.mark.length - 1);
    const safe = bytes.indexOf(RS, bytes.length - keep);
    const cut = safe >= 0 ? safe : bytes.length;
    if (cut > 0) call.output(bytes.subarray(0, cut));
    return bytes.subarray(cut);
  }
  const newline = bytes.indexOf(0x0a, at + call.mark.length);
  if (at > 0) call.output(bytes.subarray(0, at));
  if (newline < 0) return bytes.subarray(at);
  const [status, left] = bytes.toString("latin1", at + call.mark.length, newline).split(" ");
  call.end({ status: Number(status), leftovers: left === "1" });
  return bytes.subarray(newline + 1);
}
