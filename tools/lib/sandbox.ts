// The kernel sandbox for shell commands (Linux, bubblewrap): the whole file system read-only except
// the workspace and the temp folder, .git/hooks and .git/config read-only even inside the
// workspace, the network cut unless allowed, and a process namespace of its own (the command sees
// only its own processes, so it cannot read rein's environment or signal and trace other programs).
import { readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SandboxPolicy } from "rein/tool";
import { isInside } from "./path-requests.ts";

export type SandboxStatus = { ok: true; version: string } | { ok: false; reason: string; hint: string };
export type SandboxOptions = {
  /** writable, along with everything below it */
  workspace: string;
  /** the temp folder, writable */
  tmp: string;
  network: boolean;
  /** more writable folders (rein's tool output folder); those that do not exist are left out */
  writable?: string[];
  /** where the command starts; the workspace by default */
  cwd?: string;
  /** paths it cannot read (an empty folder or an empty file over each), as in the read-only sandbox */
  masked?: readonly string[];
};
/**
 * A read-only run: nothing of the host writable, `masked` hidden, no network. `ownInit`: the
 * command is the namespace's pid 1 itself (a loop that reaps and kills what it starts), not under PID1.
 */
export type ReadOnlyOptions = { workspace: string; masked: readonly string[]; cwd?: string; ownInit?: boolean };
/** What one command should run with: the sandbox (read-only or not), no sandbox (with a one-time note), or nothing at all. */
export type SandboxDecision = { use: true; readOnly: boolean; network: boolean } | { use: false; note?: string } | { error: string };

/** Inside a git folder: what runs or configures code outside the sandbox later, when the user runs git. */
const GIT_PROTECTED = ["hooks", "config"];
/** The mounts and namespaces every sandboxed command uses, so the probe fails where a command would. */
const PROBE = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--cap-drop", "ALL", "--unshare-pid", "--unshare-net", "--", "true"];
/**
 * The namespace's pid 1, a few lines of sh around the command. Neither of the obvious choices works:
 * bwrap's own init outlives the command as a zombie in the caller's process group (every call would
 * seem to leave processes behind), and the command itself as pid 1 would ignore SIGTERM, as pid 1
 * gets only the signals it has a handler for. This one runs the command as its child and exits with
 * its status, and the kernel then kills whatever is left inside (background jobs, setsid escapees).
 * After a SIGTERM (the caller stopping the command) it does not exit but waits for the caller's
 * SIGKILL, so that the command's children get their grace to clean up (git removing index.lock)
 * instead of dying with the namespace; `sleep 2` bounds that wait. Its own output goes to /dev/null
 * (a shell reports a child killed by a signal); the subshell matters, as dash applies a plain
 * command's redirections in the parent before it forks.
 */
const PID1 =
  'trap "held=1" TERM; exec 3>&1 4>&2 >/dev/null 2>&1; (exec "$@" >&3 2>&4 3>&- 4>&-); status=$?; ' +
  '[ -z "$held" ] || exec sleep 2 3>&- 4>&-; exit $status';
const INSTALL: [RegExp, string][] = [
  [/\b(debian|ubuntu)\b/, "sudo apt-get install bubblewrap"],
  [/\b(fedora|rhel|centos)\b/, "sudo dnf install bubblewrap"],
  [/\barch\b/, "sudo pacman -S bubblewrap"],
  [/\bsuse\b/, "sudo zypper install bubblewrap"],
  [/\balpine\b/, "sudo apk add bubblewrap"],
];

/**
 * The start of every bwrap line: the host read-only, a fresh /dev and /proc, and no capabilities.
 * bwrap keeps them all for a command run as root, and with CAP_SYS_ADMIN a command could remount
 * the read-only host writable (`mount -o remount,bind,rw /`); without root it holds none anyway.
 */
const HOST_READ_ONLY = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--cap-drop", "ALL"];

/** Mounts hiding each path: an empty read-only folder over a folder, an empty file over a file. */
function maskMounts(masked: readonly string[]): string[] {
  return masked.flatMap((path) => {
    const stat = statOrNone(path);
    if (stat?.isDirectory()) return ["--tmpfs", path, "--remount-ro", path];
    return stat ? ["--ro-bind", "/dev/null", path] : [];
  });
}

/** The end of every bwrap line: where it starts, and `command` under the PID1 shell. */
function startIn(cwd: string, command: string[]): string[] {
  return ["--chdir", cwd, "--", "sh", "-c", PID1, "rein-sandbox", ...command];
}

let cached: { path: string | undefined; status: SandboxStatus } | undefined;
/** Sessions already told that "auto" runs without the sandbox here. */
const unavailableNoted = new Set<string>();

/** Whether bubblewrap can sandbox a command here, found on PATH and tried once (again if PATH changes). */
export function sandboxAvailable(): SandboxStatus {
  const path = process.env.PATH;
  if (!cached || cached.path !== path) cached = { path, status: probe(path) };
  return cached.status;
}

/** bwrap as found on PATH now (what the probe tries), or undefined where there is none or no Linux. */
export function bwrapPath(): string | undefined {
  return process.platform === "linux" ? (Bun.which("bwrap", { PATH: process.env.PATH ?? "" }) ?? undefined) : undefined;
}

/**
 * A sandbox with the probe's namespaces and mounts just started (the shared read-only one said it
 * is ready): bubblewrap works here, and the probe need not start one of its own to find out.
 */
export function sandboxWorked(bwrap: string): void {
  const path = process.env.PATH;
  if (!cached || cached.path !== path) cached = { path, status: working(bwrap) };
}

/** Works, with the version read only when something shows it (rein doctor): one process less at the first call. */
function working(bwrap: string): SandboxStatus {
  let version: string | undefined;
  return {
    ok: true,
    get version() {
      version ??= Bun.spawnSync([bwrap, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" }).stdout.toString().trim().replace(/^bubblewrap\s+/, "") || "unknown";
      return version;
    },
  };
}

/**
 * The bwrap command line that runs `command` sandboxed. Mounts apply in order, a later one over an
 * earlier: the read-only root, then the writable folders (parents first), then the git protections.
 */
export function sandboxArgv(command: string[], opts: SandboxOptions): string[] {
  // A symlinked path is bound at its target: that is where the symlink leads inside the sandbox too.
  const workspace = realpathSync(opts.workspace);
  const roots = [...new Set([workspace, realpathSync(opts.tmp), ...(opts.writable ?? []).flatMap(realOrNone)])].sort();
  const argv = [...HOST_READ_ONLY];
  for (const root of roots) argv.push("--bind", root, root);
  for (const gitDir of gitDirs(workspace)) {
    if (!roots.some((root) => isInside(gitDir, root))) continue; // read-only already
    // Binding the git folder onto itself makes it a mount point, which cannot be renamed or removed:
    // otherwise `mv .git x && cp -r x .git` would leave a copy with writable hooks.
    argv.push("--bind", gitDir, gitDir);
    for (const path of GIT_PROTECTED.flatMap((name) => realOrNone(join(gitDir, name)))) argv.push("--ro-bind", path, path);
  }
  argv.push(...maskMounts(opts.masked ?? []));
  // A process namespace is not optional: without one, /proc/<pid>/root of any outside process of
  // the same user leads to the writable host file system. PID1 says who runs as its pid 1.
  // No --die-with-parent: bwrap dies at once on SIGTERM, and with that flag its death would SIGKILL
  // everything inside before git can remove its index.lock. No --new-session: it would take the
  // command out of the process group the caller signals; the command has no terminal to abuse anyway.
  argv.push("--unshare-pid", "--as-pid-1");
  if (!opts.network) argv.push("--unshare-net");
  argv.push(...startIn(opts.cwd ?? opts.workspace, command));
  return argv;
}

/**
 * The bwrap command line that runs `command` where it cannot write to the host at all (the
 * workspace included), cannot read the masked paths (an empty folder or an empty file over each)
 * and has no network. Its temp folder is a private /dev/shm, gone when it ends.
 */
export function readOnlyArgv(command: string[], opts: ReadOnlyOptions): string[] {
  const argv = [...HOST_READ_ONLY, ...maskMounts(opts.masked)];
  argv.push("--setenv", "TMPDIR", "/dev/shm", "--unshare-pid", "--as-pid-1", "--unshare-net");
  const cwd = opts.cwd ?? opts.workspace;
  argv.push(...(opts.ownInit ? ["--chdir", cwd, "--", ...command] : startIn(cwd, command)));
  return argv;
}

/**
 * What one command should run with, given the session's policy and this machine. A call allowed
 * only because the analysis found it read-only gets the read-only sandbox wherever it works, and
 * otherwise what the configured mode gives. "on" never falls back to running unsandboxed; "auto"
 * does, and says so on its first call in each session.
 */
export function sandboxDecision(policy: SandboxPolicy, sessionId = ""): SandboxDecision {
  if (policy.readOnly && sandboxAvailable().ok) return { use: true, readOnly: true, network: false };
  if (policy.mode === "off") return { use: false };
  const status = sandboxAvailable();
  if (status.ok) return { use: true, readOnly: false, network: policy.network };
  if (policy.mode === "on") {
    return { error: `[the command was not run: the sandbox is on but unavailable: ${status.reason}. Tell the user. To get it, ${status.hint}; or turn the sandbox off]` };
  }
  if (unavailableNoted.has(sessionId)) return { use: false };
  unavailableNoted.add(sessionId);
  return { use: false, note: `[sandbox unavailable: ${status.reason}; commands run without it. To get it, ${status.hint}]` };
}

/** A note for the model when a sandboxed command's output shows a write the sandbox refused. */
export function blockedWriteNote(output: string, readOnly = false): string | undefined {
  // EROFS for a write anywhere read-only; EBUSY for moving or replacing a protected git path.
  const blocked = output.includes("Read-only file system") || (output.includes("Device or resource busy") && output.includes(".git"));
  if (!blocked) return undefined;
  if (readOnly) {
    return (
      "[the sandbox blocked a write (read-only file system): this command ran without asking because rein's analysis found it " +
      "read-only, so nothing was writable. If it has to write, tell the user what the write is for; they can allow the command with a rule]"
    );
  }
  return (
    "[the sandbox blocked a write (read-only file system): only the workspace and the temp folder are writable, " +
    "and even there .git/hooks and .git/config are read-only. Do not look for a way around it: if the write is needed, " +
    "tell the user what it is for and ask them to allow it or to run rein without --sandbox]"
  );
}

function probe(path: string | undefined): SandboxStatus {
  if (process.platform === "darwin") {
    return { ok: false, reason: "not supported on macOS yet", hint: "use Linux with bubblewrap; macOS is not supported yet" };
  }
  if (process.platform !== "linux") {
    return { ok: false, reason: `not supported on ${process.platform}`, hint: "use Linux with bubblewrap" };
  }
  const bwrap = Bun.which("bwrap", { PATH: path ?? "" });
  if (!bwrap) return { ok: false, reason: "bubblewrap is not installed (no bwrap on PATH)", hint: `install bubblewrap: ${installCommand()}` };
  const tried = Bun.spawnSync([bwrap, ...PROBE], { stdin: "ignore", stdout: "ignore", stderr: "pipe", timeout: 5000 });
  if (tried.exitCode !== 0) {
    const why = tried.stderr.toString().trim().split("\n")[0] || `exit ${tried.exitCode ?? tried.signalCode}`;
    return {
      ok: false,
      reason: `bwrap is installed but cannot create a sandbox here (${why})`,
      hint:
        "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ " +
        "kernel.apparmor_restrict_unprivileged_userns=0); inside a container, run it with a seccomp profile that permits them",
    };
  }
  return working(bwrap);
}

/** How to install bubblewrap on this distribution, from /etc/os-release. */
function installCommand(): string {
  let release = "";
  try {
    release = readFileSync("/etc/os-release", "utf8").toLowerCase();
  } catch {
    // not there: the generic answer
  }
  const ids = release.match(/^id(?:_like)?=.*$/gm)?.join(" ") ?? "";
  return INSTALL.find(([pattern]) => pattern.test(ids))?.[1] ?? "use your package manager, e.g. sudo apt-get install bubblewrap, sudo dnf install bubblewrap or sudo pacman -S bubblewrap";
}

/**
 * The git folders of the workspace: `.git` itself, or for a linked worktree or submodule (`.git`
 * is a file) the folder it names, and the common folder that holds the hooks and config.
 */
function gitDirs(workspace: string): string[] {
  const dotGit = join(workspace, ".git");
  const stat = statOrNone(dotGit);
  if (stat?.isDirectory()) return [realpathSync(dotGit)];
  if (!stat?.isFile()) return [];
  const named = readOrNone(dotGit)?.match(/^gitdir:\s*(.+)$/m)?.[1]?.trim();
  if (!named) return [];
  const gitDir = resolve(workspace, named);
  const common = readOrNone(join(gitDir, "commondir"))?.trim();
  return [gitDir, ...(common ? [resolve(gitDir, common)] : [])].flatMap(realOrNone);
}

function realOrNone(path: string): string[] {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
}

function statOrNone(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readOrNone(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
