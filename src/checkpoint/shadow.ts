// The shadow store of one workspace: a git object store in rein's data folder whose work tree is the
// workspace. A snapshot reads only the files git's stat cache says changed since the last one.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { git, nulList, type GitPlace } from "./git.ts";

/** Files bigger than this are not copied into a checkpoint (listed as not covered). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export type Snapshot = {
  tree: string;
  /** paths left out: bigger than the limit, or a nested repository */
  uncovered: string[];
  /** folders with nothing in them (git keeps no folders) */
  emptyDirs: string[];
};

export type Change = { status: "added" | "modified" | "deleted" | "renamed" | "mode"; path: string; from?: string };

export type ShadowOptions = { dataDir: string; workspace: string; sessionId: string; maxFileBytes?: number };

/** The folder of a workspace's shadow store under the checkpoints folder. */
export function workspaceDir(checkpointsDir: string, workspace: string): string {
  const real = safeRealpath(workspace);
  return join(checkpointsDir, createHash("sha256").update(real).digest("hex").slice(0, 16));
}

export class ShadowStore {
  readonly place: GitPlace;
  readonly dir: string;
  private readonly maxFileBytes: number;
  private ready = false;

  constructor(options: ShadowOptions) {
    this.dir = workspaceDir(options.dataDir, options.workspace);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.place = { gitDir: join(this.dir, "git"), workTree: safeRealpath(options.workspace), indexFile: join(this.dir, "index", options.sessionId) };
  }

  private async init(): Promise<void> {
    if (this.ready) return;
    mkdirSync(dirname(this.place.indexFile), { recursive: true });
    if (!existsSync(join(this.place.gitDir, "HEAD"))) {
      await git(this.place, ["init", "-q"]);
      writeFileSync(join(this.dir, "workspace"), `${this.place.workTree}\n`);
      // A data folder inside the workspace must not record itself.
      const own = relative(this.place.workTree, safeRealpath(dirname(this.dir)));
      if (own && !own.startsWith("..") && !isAbsolute(own)) {
        mkdirSync(join(this.place.gitDir, "info"), { recursive: true });
        writeFileSync(join(this.place.gitDir, "info", "exclude"), `/${own}/\n`);
      }
    }
    if (!existsSync(this.place.indexFile)) seedIndex(this.place.indexFile);
    // A process killed while git wrote this session's index leaves its lock; one process drives a session.
    rmSync(`${this.place.indexFile}.lock`, { force: true });
    this.ready = true;
  }

  /** Records the workspace as it is now. */
  async snapshot(): Promise<Snapshot> {
    await this.init();
    // Read-only and independent: changed tracked files, untracked files, and untracked folders
    // (whose empty ones are the empty folders, once the files are added), side by side.
    const [modified, untracked, folders] = await Promise.all([
      git(this.place, ["diff-files", "--name-only", "-z", "--no-renames"]),
      git(this.place, ["ls-files", "-z", "-o", "--exclude-standard"]),
      git(this.place, ["ls-files", "-z", "-o", "--directory", "--exclude-standard"]),
    ]);
    const changed = [...new Set([...nulList(modified), ...nulList(untracked)])];
    const update: string[] = [];
    const drop: string[] = [];
    const uncovered: string[] = [];
    for (const path of changed) {
      if (path.endsWith("/")) {
        uncovered.push(path); // a nested repository: its own git keeps it
        continue;
      }
      const stat = lstatOrUndefined(join(this.place.workTree, path));
      if (stat && !stat.isSymbolicLink() && stat.size > this.maxFileBytes) {
        uncovered.push(path);
        drop.push(path);
      } else update.push(path);
    }
    if (update.length) await git(this.place, ["update-index", "-z", "--add", "--remove", "--stdin"], update.map((p) => `${p}\0`).join(""));
    if (drop.length) await git(this.place, ["update-index", "-z", "--force-remove", "--stdin"], drop.map((p) => `${p}\0`).join(""));
    const tree = (await git(this.place, ["write-tree"])).trim();
    return { tree, uncovered, emptyDirs: emptyDirs(this.place.workTree, nulList(folders)) };
  }

  /** What changed from tree `a` to tree `b`; `renames` pairs deletions with additions for showing. */
  async diff(a: string, b: string, renames = false): Promise<Change[]> {
    if (a === b) return [];
    const out = nulList(await git(this.place, ["diff-tree", "-r", "-z", renames ? "-M" : "--no-renames", "--raw", a, b]));
    const changes: Change[] = [];
    for (let i = 0; i < out.length; i++) {
      const meta = out[i]!.split(" ");
      const letter = meta[4]![0];
      const [oldMode, newMode] = [meta[0]!.slice(1), meta[1]];
      if (letter === "R") {
        changes.push({ status: "renamed", from: out[i + 1]!, path: out[i + 2]! });
        i += 2;
        continue;
      }
      const path = out[++i]!;
      const status = letter === "A" ? "added" : letter === "D" ? "deleted" : oldMode !== newMode && meta[2] === meta[3] ? "mode" : "modified";
      changes.push({ status, path });
    }
    return changes;
  }

  /** Points refs (under refs/rein/) at trees, so that git prune keeps them. */
  async keep(refs: readonly (readonly [string, string])[]): Promise<void> {
    const lines = refs.filter(([, tree]) => tree).map(([name, tree]) => `update refs/rein/${name} ${tree}\n`);
    if (lines.length) await git(this.place, ["update-ref", "--stdin"], lines.join(""));
  }

  /** A unified diff between two trees (for `rein checkpoints diff`). */
  async patch(a: string, b: string): Promise<string> {
    return git(this.place, ["diff-tree", "-r", "-p", "--no-color", "-M", a, b]);
  }

  /** Writes `paths` into the workspace as tree `source` has them (removing those it lacks). */
  async restore(source: string, paths: readonly string[]): Promise<void> {
    if (!paths.length) return;
    const inSource = new Set(nulList(await git(this.place, ["ls-tree", "-r", "-z", "--name-only", source, "--", ...paths])));
    const write = paths.filter((p) => inSource.has(p));
    for (const path of paths) if (!inSource.has(path)) rmSync(join(this.place.workTree, path), { force: true, recursive: false });
    if (write.length) {
      // Into a scratch index, then out to the work tree: the session's index keeps its stat cache.
      const scratch = { ...this.place, indexFile: `${this.place.indexFile}.restore` };
      rmSync(scratch.indexFile, { force: true });
      await git(scratch, ["read-tree", source]);
      for (const path of write) removeInTheWay(this.place.workTree, path);
      await git(scratch, ["checkout-index", "-f", "-z", "--stdin"], write.map((p) => `${p}\0`).join(""));
      rmSync(scratch.indexFile, { force: true });
    }
  }

  /** Removes folders that `keep` (the target's folders) does not hold and that are empty now, deepest first. */
  pruneDirs(candidates: Iterable<string>, keep: ReadonlySet<string>): void {
    const dirs = new Set<string>();
    for (const path of candidates) for (let d = dirname(path); d !== "." && d !== "/" && d !== ""; d = dirname(d)) dirs.add(d);
    for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
      if (keep.has(dir)) continue;
      const full = join(this.place.workTree, dir);
      if (isEmptyDir(full)) rmdirSync(full);
    }
  }

  /** The folders tree `tree` holds (with `extra` empty ones). */
  async dirsOf(tree: string, extra: readonly string[] = []): Promise<Set<string>> {
    const listed = nulList(await git(this.place, ["ls-tree", "-r", "-d", "-z", "--name-only", tree]));
    return new Set([...listed, ...extra]);
  }
}

/**
 * The empty folders among the untracked entries: a folder is listed whole when nothing in it is
 * tracked yet, so the empty ones, and empty folders inside a new folder, are found by looking.
 */
function emptyDirs(root: string, listed: readonly string[]): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number): boolean => {
    let names: string[];
    try {
      if (!lstatSync(join(root, dir)).isDirectory()) return false;
      names = readdirSync(join(root, dir));
    } catch {
      return false;
    }
    if (names.length === 0) return found.push(dir), true;
    if (depth < 8 && names.length < 1000) for (const name of names) visit(`${dir}/${name}`, depth + 1);
    return false;
  };
  for (const entry of listed) if (entry.endsWith("/")) visit(entry.slice(0, -1), 0);
  return found;
}

/** A new session's index starts as a copy of the newest one of its workspace: its stat cache spares reading every file. */
function seedIndex(indexFile: string): void {
  const dir = dirname(indexFile);
  const newest = readdirSync(dir)
    .filter((name) => !name.includes("."))
    .map((name) => ({ name, mtime: lstatSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)[0];
  if (newest) copyFileSync(join(dir, newest.name), indexFile);
}

function removeInTheWay(root: string, path: string): void {
  // A folder (or a link) where the file goes back would make checkout-index refuse.
  const stat = lstatOrUndefined(join(root, path));
  if (stat?.isDirectory()) rmSync(join(root, path), { recursive: true, force: true });
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function isEmptyDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
