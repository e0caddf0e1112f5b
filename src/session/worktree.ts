// A worker's git worktree (task `isolation: "worktree"`): a checkout of the repository's HEAD on a
// branch of its own, under rein's data folder, so that workers writing at once do not collide. Large
// dependency folders (node_modules, .venv) are linked, not copied. When the worker is done, an
// unchanged worktree is removed with its branch; a changed one is kept and described (path,
// branch, diffstat) for the notification.
import { existsSync, mkdirSync, statSync, symlinkSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import type { TeamHookAnswer } from "../agents/host.ts";

/** Folders linked into the worktree from the repository's root when they are there and the checkout has none. */
export const LINKED = ["node_modules", ".venv"];

/** `hooked`: a WorktreeCreate hook made it (no branch of rein's; its base is its HEAD when it is a git checkout) */
export type Worktree = { path: string; branch: string; base: string; root: string; linked: string[]; cwd: string; hooked?: true };

/** Fires WorktreeCreate or WorktreeRemove in the session that wants the worktree; undefined when no such hook is configured. */
export type WorktreeHook = (event: "WorktreeCreate" | "WorktreeRemove", fields: Record<string, unknown>, signal: AbortSignal) => Promise<TeamHookAnswer | undefined>;

/** A worktree's name: used as its folder and in its branch, so letters, digits, "_", "-", "." only. */
export function worktreeNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name) || name.includes("..") || name.endsWith(".lock")) {
    return `the worktree name "${name}" is not usable: use 1-64 letters, digits, "_", "-" or "." (no "..", no "/", not an absolute path)`;
  }
  return undefined;
}

async function git(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(["git", ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

/**
 * Makes the worktree `name` for `cwd`'s repository under `dataDir`/worktrees; throws with one line
 * saying why not. With WorktreeCreate hooks configured, they make it instead (Claude Code's rule).
 */
export async function createWorktree(cwd: string, dataDir: string, name: string, hook?: WorktreeHook): Promise<Worktree> {
  const problem = worktreeNameProblem(name);
  if (problem) throw new Error(problem);
  const heard = hook ? await hook("WorktreeCreate", { name }, new AbortController().signal) : undefined;
  if (heard) return hookedWorktree(cwd, heard);
  const top = await git(cwd, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) throw new Error(`isolation "worktree" needs a git repository, and ${cwd} is not in one`);
  const root = top.out.trim();
  const head = await git(root, ["rev-parse", "HEAD"]);
  if (head.code !== 0) throw new Error(`isolation "worktree" needs a commit to check out, and the repository at ${root} has none yet`);
  const base = head.out.trim();
  const path = join(dataDir, "worktrees", `${basename(root)}-${hash(root)}`, name);
  if (existsSync(path)) throw new Error(`a worktree named "${name}" is already there (${path}); choose another name`);
  mkdirSync(join(path, ".."), { recursive: true });
  const branch = `rein/${name}`;
  const added = await git(root, ["worktree", "add", "--quiet", "-b", branch, path, base]);
  if (added.code !== 0) throw new Error(`git worktree add failed: ${added.err.trim().split("\n")[0]}`);
  const linked: string[] = [];
  for (const folder of LINKED) {
    if (existsSync(join(root, folder)) && !existsSync(join(path, folder))) {
      symlinkSync(join(root, folder), join(path, folder));
      linked.push(folder);
    }
  }
  const inside = relative(root, cwd);
  return { path, branch, base, root, linked, cwd: inside && !inside.startsWith("..") ? join(path, inside) : path };
}

async function hookedWorktree(cwd: string, heard: TeamHookAnswer): Promise<Worktree> {
  if (!heard.worktreePath) throw new Error(`the WorktreeCreate hook failed: ${heard.errors[0] ?? heard.block ?? "it printed no path (print the worktree's path on stdout)"}`);
  const path = isAbsolute(heard.worktreePath) ? heard.worktreePath : resolve(cwd, heard.worktreePath);
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new Error(`the WorktreeCreate hook printed ${path}, which is not a folder`);
  const head = await git(path, ["rev-parse", "HEAD"]);
  return { path, branch: "", base: head.code === 0 ? head.out.trim() : "", root: path, linked: [], cwd: path, hooked: true };
}

/**
 * The worker is done: an unchanged worktree (no commit, nothing changed or added besides the links)
 * is removed with its branch (undefined); a changed one stays, described in one line.
 */
export async function finishWorktree(wt: Worktree, hook?: WorktreeHook): Promise<string | undefined> {
  const status = await git(wt.path, ["status", "--porcelain", "--untracked-files=all"]);
  if (wt.hooked && (status.code !== 0 || !wt.base)) return `path: ${wt.path}\nmade by a WorktreeCreate hook and not a git checkout: rein cannot tell whether it changed, so it is kept`;
  const changes = status.out.split("\n").filter((line) => line.trim() && !wt.linked.some((l) => line.slice(3) === l || line.slice(3) === `${l}/`));
  const head = (await git(wt.path, ["rev-parse", "HEAD"])).out.trim();
  if (status.code === 0 && changes.length === 0 && head === wt.base) {
    const failed = await removeWorktree(wt, hook);
    return failed && `path: ${wt.path}${wt.branch ? `\nbranch: ${wt.branch}` : ""}\nunchanged, but ${failed}`;
  }
  const stat = (await git(wt.path, ["diff", "--shortstat", wt.base])).out.trim();
  const untracked = changes.filter((line) => line.startsWith("??")).length;
  const what = [stat, untracked ? `${untracked} new file${untracked === 1 ? "" : "s"} not yet added` : ""].filter(Boolean).join("; ") || "changed";
  return `path: ${wt.path}${wt.branch ? `\nbranch: ${wt.branch}` : ""}\ndiffstat: ${what}`;
}

/**
 * Removes the worktree and its branch. With WorktreeRemove hooks configured, they remove the folder
 * instead (rein then drops its branch); returns what went wrong when the folder is still there.
 */
export async function removeWorktree(wt: Worktree, hook?: WorktreeHook): Promise<string | undefined> {
  const heard = hook ? await hook("WorktreeRemove", { worktree_path: wt.path }, new AbortController().signal) : undefined;
  if (heard) {
    if (!wt.hooked) {
      await git(wt.root, ["worktree", "prune"]);
      await git(wt.root, ["branch", "-D", wt.branch]);
    }
    return existsSync(wt.path) ? `the WorktreeRemove hook left it in place${heard.errors.length ? ` (${heard.errors[0]})` : ""}` : undefined;
  }
  if (wt.hooked) return "a WorktreeCreate hook made it and no WorktreeRemove hook is configured, so it is kept";
  await git(wt.root, ["worktree", "remove", "--force", wt.path]);
  await git(wt.root, ["branch", "-D", wt.branch]);
  return undefined;
}

function hash(text: string): string {
  return Bun.hash(text).toString(36).slice(0, 8);
}
