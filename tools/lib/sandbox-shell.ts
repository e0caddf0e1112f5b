// One long-lived read-only sandbox that runs the read-only calls of a session one after another,
// so each call costs a fork of bash instead of a bubblewrap start (its namespaces and mounts). The
// sandbox is the read-only one of sandbox.ts, with the masks it started with; its pid 1 is a bash
// loop that reads a call (nonce, cwd, command line, environment; NUL-separated) from stdin, runs
// the line in a fresh subshell with exactly that environment, then kills whatever the line left
// running (pid 1's `kill -1` reaches every other process in the namespace, setsid or not), empties
// the private /dev/shm and writes an end mark (RS, the call's nonce, the status, whether anything
// was left) after the output. Nothing of a call can write after its mark: it has been killed.
// A call stopped on timeout or abort gets SIGTERM by its marker, and the whole sandbox is killed
// a grace later if the line is still running; the next call starts a new one.
import { randomBytes } from "node:crypto";
import { killAtExit, signalGroup, spawnGroup } from "../../src/sdk/process-group.ts";
import { readOnlyArgv } from "./sandbox.ts";

export type ShellEnd = { status: number; leftovers: boolean } | { lost: true };
export type ShellCall = { command: string; cwd: string; env: Record<string, string> };
export type ShellRun = { ended: Promise<ShellEnd>; kill: () => void };

const LOOP = `exec 2>/dev/null
shopt -s nullglob dotglob
# Nothing of the loop's own environment reaches a call: unexported once here, not per call (a fork).
for name in $(compgen -e) OLDPWD; do export -n -- "$name"; done
while IFS= read -r -d '' nonce && IFS= read -r -d '' cwd && IFS= read -r -d '' line && IFS= read -r -d '' count; do
  vars=()
  for ((i = 0; i < count; i++)); do IFS= read -r -d '' var; vars+=("$var"); done
  (
    export -- "\${vars[@]}"
    cd -- "$cwd" && exec bash -c "exec 2>&1; $line"
  ) </dev/null 2>&1
  status=$?
  left=0
  if kill -0 -1; then
    left=1
    IFS= read -r -t 0.15 -d '' _
    kill -KILL -1
  fi
  wait
  shm=(/dev/shm/*)
  ((\${#shm[@]} == 0)) || command rm -rf -- "\${shm[@]}"
  printf '\\036%s %d %d\\n' "$nonce" "$status" "$left"
done`;

/** Idle sandboxes kept per mask list; more calls at once than this run in a bubblewrap of their own. */
const MAX_SHELLS = 4;
/** An environment variable name bash can export (others go through a bubblewrap of their own). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RS = 0x1e;

type Shell = {
  key: string;
  proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  busy: boolean;
  dead: boolean;
  /** forgets the sandbox's group in the kill at rein's exit */
  forget: () => void;
  /** where the output of the call in progress goes, and how its end mark is recognised */
  current?: { mark: Buffer; output: (bytes: Uint8Array) => void; end: (end: ShellEnd) => void };
};

const shells: Shell[] = [];

/** Whether a call can run in a shared sandbox: nothing in it that the NUL-separated request or bash's export cannot carry. */
export function fitsShell(call: ShellCall): boolean {
  const texts = [call.command, call.cwd, ...Object.entries(call.env).flat()];
  return texts.every((text) => !text.includes("\0")) && Object.keys(call.env).every((name) => NAME.test(name));
}

/**
 * Runs `call` in an idle read-only sandbox with these masks (started if none is); undefined when
 * MAX_SHELLS are busy with these masks already. Output arrives through `output` in order.
 */
export function runInShell(masked: readonly string[], call: ShellCall, output: (bytes: Uint8Array) => void): ShellRun | undefined {
  const key = masked.join("\0");
  let shell = shells.find((s) => s.key === key && !s.busy && !s.dead);
  if (!shell) {
    if (shells.filter((s) => s.key === key && !s.dead).length >= MAX_SHELLS) return undefined;
    // Sandboxes of other masks are stale (the masks changed when a call could have written a secret).
    for (const other of shells.filter((s) => s.key !== key && !s.busy)) stop(other);
    shell = start(key, masked);
  }
  const nonce = randomBytes(12).toString("hex");
  const target = shell;
  target.busy = true;
  const ended = new Promise<ShellEnd>((resolve) => {
    target.current = {
      mark: Buffer.from(`\x1e${nonce} `),
      output,
      end: (end) => {
        target.current = undefined;
        target.busy = false;
        resolve(end);
      },
    };
  });
  const vars = Object.entries(call.env).map(([name, value]) => `${name}=${value}`);
  target.proc.stdin.write([nonce, call.cwd, call.command, String(vars.length), ...vars].map((part) => `${part}\0`).join(""));
  target.proc.stdin.flush();
  return { ended, kill: () => stop(target) };
}

function start(key: string, masked: readonly string[]): Shell {
  const argv = readOnlyArgv(["bash", "--noprofile", "--norc", "-c", LOOP], { workspace: "/", masked, ownInit: true });
  const proc = spawnGroup(argv, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  proc.unref();
  const shell: Shell = { key, proc, busy: false, dead: false, forget: killAtExit(proc.pid) };
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
      pending = Buffer.concat([pending, value]);
      pending = deliver(shell, pending);
    }
  } catch {
    // the pipe broke: as at EOF
  }
  stop(shell);
  shell.current?.end({ lost: true });
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
