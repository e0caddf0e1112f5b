// Runs the system's git on rein's shadow store: GIT_DIR in the data folder, the workspace as work
// tree, an index of its own. The environment is rebuilt from scratch so nothing of the user's git
// setup (GIT_* variables, global and system config, hooks, fsmonitor) can run or redirect it.
import { childEnv } from "../permission/child-env.ts";

export type GitPlace = { gitDir: string; workTree: string; indexFile: string };

export class GitError extends Error {}

const CONFIG: readonly [string, string][] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.untrackedCache", "true"],
  ["core.autocrlf", "false"],
  ["core.symlinks", "true"],
  ["core.fileMode", "true"],
  ["core.bare", "false"],
  ["core.quotePath", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["advice.detachedHead", "false"],
];

/** The environment git runs in: the parent's, without any GIT_* and with rein's shadow store set. */
export function gitEnv(place: GitPlace, parent: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(childEnv(parent))) if (!/^GIT_/i.test(name)) env[name] = value;
  Object.assign(env, {
    GIT_DIR: place.gitDir,
    GIT_WORK_TREE: place.workTree,
    GIT_INDEX_FILE: place.indexFile,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
    GIT_CONFIG_COUNT: String(CONFIG.length),
  });
  CONFIG.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Runs git and returns its stdout; a failure throws a GitError with git's own message. */
export async function git(place: GitPlace, args: readonly string[], input?: string): Promise<string> {
  return new TextDecoder().decode(await gitBytes(place, args, input));
}

/** The same, for output that is not text (blobs). */
export async function gitBytes(place: GitPlace, args: readonly string[], input?: string): Promise<Uint8Array> {
  const child = Bun.spawn(["git", ...args], {
    cwd: place.workTree,
    env: gitEnv(place),
    stdin: input === undefined ? "ignore" : new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(child.stdout).bytes(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new GitError(`git ${args[0]} failed: ${err.trim() || `exit ${code}`}`);
  return out;
}

/** Splits git's NUL-separated output. */
export function nulList(out: string): string[] {
  return out.split("\0").filter((entry) => entry !== "");
}
