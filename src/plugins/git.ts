// git sources, fetched with the system's git: never asking for a password (no terminal), bounded in
// time, failing with git's own last line.
import { spawnSync } from "node:child_process";

const TIMEOUT_MS = 120_000;

/** Whether a plugin or marketplace source names a git repository rather than a folder. */
export function isGitUrl(spec: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(spec) || /^[\w.-]+@[\w.-]+:/.test(spec) || spec.endsWith(".git");
}

/** Clones `url` (at `ref` when given) into `dest`; the commit checked out, or why not in one line. */
export function gitClone(url: string, dest: string, ref?: string): { commit: string } | { error: string } {
  const clone = git(["clone", "--quiet", ...(ref ? [] : ["--depth", "1"]), "--", url, dest]);
  if ("error" in clone) return { error: `cannot clone ${url}: ${clone.error}` };
  if (ref) {
    const checkout = git(["-C", dest, "checkout", "--quiet", ref]);
    if ("error" in checkout) return { error: `cannot check out ${ref} in ${url}: ${checkout.error}` };
  }
  const head = git(["-C", dest, "rev-parse", "HEAD"]);
  return "error" in head ? { error: `cannot read the commit of ${url}: ${head.error}` } : { commit: head.out.trim() };
}

function git(args: string[]): { out: string } | { error: string } {
  const run = spawnSync("git", args, {
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true", SSH_ASKPASS: "true" },
  });
  if (run.error) return { error: (run.error as NodeJS.ErrnoException).code === "ENOENT" ? "git is not installed (install git, or give a folder)" : run.error.message };
  if (run.status === 0) return { out: run.stdout };
  return { error: failureLine(run.stderr) ?? `git exited with ${run.status ?? run.signal}` };
}

/**
 * git's reason in one line: its first `fatal:` or `error:` line (the lines after it are advice, and
 * the last, "and the repository exists.", reads as the opposite of what happened); a repository the
 * server will not show (missing, or private without a login) is said so.
 */
export function failureLine(stderr: string): string | undefined {
  const lines = stderr.trim().split("\n").map((l) => l.trim()).filter(Boolean);
  const reason = (lines.find((l) => /^(fatal|error):/.test(l)) ?? lines.at(-1))?.replace(/^(fatal|error): /, "");
  if (!reason) return undefined;
  if (/could not read from remote repository|repository .* not found|Repository not found|Authentication failed|could not read Username|terminal prompts disabled/i.test(reason)) {
    return `the repository does not exist, or it is private and git has no login for it (git: ${reason})`;
  }
  return reason;
}
