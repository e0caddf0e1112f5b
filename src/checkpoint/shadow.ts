// The shadow store of one workspace: a git object store in rein's data folder whose work tree is the
// workspace. A snapshot reads only the files git's stat cache says changed since the last one, and
// a narrower one only the paths it is given.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { git, nulList, type GitPlace } from "./git.ts";
import { putBack, type Entry } from "./put-back.ts";
import { dropTemporaryObjects, emptyDirsUnder, isEmptyDir, lstatOrUndefined, nulInput, sortChanged, type Sorted } from "./scan.ts";
import { digestHex } from "../sdk/digest.ts";

/** Files bigger than this are not copied into a checkpoint (listed as not covered). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The store keeps the workspace's bytes as they are: a repository's .gitattributes may ask git to
 * convert line endings (`text=auto`, `eol`), an encoding (`working-tree-encoding`) or keywords
 * (`ident`) on the way in, and an undo writes blobs back as stored. The store's own
 * info/attributes outranks every .gitattributes of the work tree.
 */
const STORE_ATTRIBUTES = "* -text -eol -ident -filter -working-tree-encoding\n";

export type Snapshot = {
  tree: string;
  /** the paths this snapshot read (or took out) */
  changed: string[];
  /** files or folders appeared or went (the folders to watch may have changed) */
  structural: boolean;
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
  return join(checkpointsDir, digestHex("sha256", real).slice(0, 16));
}

export class ShadowStore {
  readonly place: GitPlace;
  readonly dir: string;
  private readonly maxFileBytes: number;
  /** the store made ready once, however many snapshots ask at once */
  private initializing: Promise<void> | undefined;
  /** the index has held the whole workspace once (a narrower snapshot of a new one would record only part) */
  private populated = false;
  /** the last snapshot this process took: the index holds it */
  private last: Snapshot | undefined;
  /** the index file as this store last left it */
  private stamp = "";

  constructor(options: ShadowOptions) {
    this.dir = workspaceDir(options.dataDir, options.workspace);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.place = { gitDir: join(this.dir, "git"), workTree: safeRealpath(options.workspace), indexFile: join(this.dir, "index", options.sessionId) };
  }

  private init(): Promise<void> {
    this.initializing ??= this.prepare().catch((error: unknown) => {
      this.initializing = undefined; // the next snapshot tries again
      throw error;
    });
    return this.initializing;
  }

  private async prepare(): Promise<void> {
    mkdirSync(dirname(this.place.indexFile), { recursive: true });
    if (!existsSync(join(this.place.gitDir, "HEAD"))) await createStore(this.place, this.dir);
    else keepBytes(this.place.gitDir); // a store made before rein wrote its attributes
    if (!existsSync(this.place.indexFile)) seedIndex(this.place.indexFile);
    this.populated = existsSync(this.place.indexFile);
    // A process killed while git wrote this session's index leaves its lock (one process drives a
    // session), and maybe temporary objects.
    rmSync(`${this.place.indexFile}.lock`, { force: true });
    dropTemporaryObjects(join(this.place.gitDir, "objects"), Infinity);
  }

  /**
   * Records the workspace as it is now: all of it, or only `paths` (files known to have changed,
   * for instance from the watcher). Only the files whose stat differs from the index are read;
   * `except` are left as the index has them (files the turn changed, whose state before it the
   * index already holds).
   */
  async snapshot(options: { paths?: readonly string[]; except?: ReadonlySet<string> } = {}): Promise<Snapshot> {
    await this.init();
    const { paths, except } = options;
    const spec = paths ? ["--", ...paths] : [];
    if (paths?.length === 0 && this.populated) return this.unchanged();
    const [modified, untracked] = await Promise.all([
      git(this.place, ["diff-files", "--name-only", "-z", "--no-renames", ...spec]),
      git(this.place, ["ls-files", "-z", "-o", "--directory", "--exclude-standard", ...spec]),
    ]);
    const [tracked, others] = [nulList(modified), nulList(untracked)];
    const sorted = sortChanged(this.place.workTree, [...tracked, ...others], this.maxFileBytes, except);
    const structural = others.length > 0 || tracked.some((p) => basename(p) === ".gitignore" || !lstatOrUndefined(join(this.place.workTree, p)));
    // A new folder is listed whole; its files (honouring .gitignore) need a narrower look.
    if (sorted.folders.length) {
      const inside = nulList(await git(this.place, ["ls-files", "-z", "-o", "--exclude-standard", "--", ...sorted.folders]));
      const more = sortChanged(this.place.workTree, inside, this.maxFileBytes, except);
      sorted.update.push(...more.update);
      sorted.drop.push(...more.drop);
      sorted.uncovered.push(...more.uncovered);
    }
    const emptyDirs = paths ? this.keptEmptyDirs(sorted.folders) : emptyDirsUnder(this.place.workTree, sorted.folders);
    const snapshot = await this.write(sorted, emptyDirs, !paths, structural);
    if (!paths) this.populated = true;
    return snapshot;
  }

  /** Records exactly these paths as they are now (files rein's own tools are about to write or wrote), ignored or not. */
  async record(paths: readonly string[]): Promise<Snapshot> {
    await this.init();
    if (!this.populated) await this.snapshot();
    const sorted = sortChanged(this.place.workTree, paths, this.maxFileBytes);
    return this.write(sorted, this.keptEmptyDirs([]), false, false);
  }

  /** The last tree this store wrote, when nothing changed since (as far as the caller knows). */
  private async unchanged(): Promise<Snapshot> {
    if (this.last && this.indexStamp() === this.stamp) return { ...this.last, changed: [], structural: false, uncovered: [...this.last.uncovered] };
    return this.write({ update: [], drop: [], uncovered: [], folders: [] }, [], false, false);
  }

  private async write(sorted: Sorted, emptyDirs: string[], full: boolean, structural: boolean): Promise<Snapshot> {
    const { update, drop } = sorted;
    // The index may have been written by another store of this session (an undo) since.
    const same = this.last && !update.length && !drop.length && this.indexStamp() === this.stamp;
    const tree = same ? this.last!.tree : await this.writeTree(update, drop);
    this.stamp = this.indexStamp();
    // A full snapshot lists every uncovered path again; a narrower one keeps the last list.
    const kept = full ? [] : (this.last?.uncovered ?? []).filter((p) => !update.includes(p) && lstatOrUndefined(join(this.place.workTree, p)));
    const uncovered = [...new Set([...kept, ...sorted.uncovered])];
    this.last = { tree, uncovered, emptyDirs, changed: [...update, ...drop], structural };
    return { ...this.last, uncovered: [...uncovered] };
  }

  private async writeTree(update: readonly string[], drop: readonly string[]): Promise<string> {
    const started = Date.now() - 1000;
    try {
      if (update.length) await git(this.place, ["update-index", "-z", "--add", "--remove", "--stdin"], nulInput(update));
      if (drop.length) await git(this.place, ["update-index", "-z", "--force-remove", "--stdin"], nulInput(drop));
      return (await git(this.place, ["write-tree"])).trim();
    } catch (error) {
      dropTemporaryObjects(join(this.place.gitDir, "objects"), started);
      throw error;
    }
  }

  private indexStamp(): string {
    const stat = lstatOrUndefined(this.place.indexFile);
    return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : "";
  }

  /** The empty folders the last full snapshot found that are still empty, and those under `folders`. */
  private keptEmptyDirs(folders: readonly string[]): string[] {
    const kept = (this.last?.emptyDirs ?? []).filter((dir) => isEmptyDir(join(this.place.workTree, dir)));
    return [...new Set([...kept, ...emptyDirsUnder(this.place.workTree, folders)])];
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

  /** Points refs (under refs/rein/) at trees, so that git prune keeps them: loose ref files, written as git does. */
  keep(refs: readonly (readonly [string, string])[]): void {
    for (const [name, tree] of refs) {
      if (!/^[0-9a-f]{40,64}$/.test(tree)) continue;
      const path = join(this.place.gitDir, "refs", "rein", name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(`${path}.lock`, `${tree}\n`);
      renameSync(`${path}.lock`, path);
    }
  }

  /** The folders that hold what a snapshot recorded or left out: the ones to watch. */
  async folders(snapshot: Snapshot): Promise<string[]> {
    const dirs = new Set(nulList(await git(this.place, ["ls-tree", "-r", "-d", "-z", "--name-only", snapshot.tree])));
    for (const path of [...snapshot.uncovered, ...snapshot.emptyDirs.map((d) => `${d}/.`)]) {
      for (let d = dirname(path.replace(/\/$/, "")); d !== "." && d !== "/" && !dirs.has(d); d = dirname(d)) dirs.add(d);
    }
    return [...dirs];
  }

  /** Which of `paths` tree `tree` holds. */
  async holds(tree: string, paths: readonly string[]): Promise<string[]> {
    if (!tree || !paths.length) return [];
    return nulList(await git(this.place, ["ls-tree", "-r", "-z", "--name-only", tree, "--", ...paths]));
  }

  /** A unified diff between two trees (for `rein checkpoints diff`). */
  async patch(a: string, b: string): Promise<string> {
    return git(this.place, ["diff-tree", "-r", "-p", "--no-color", "-M", a, b]);
  }

  /** Brings `paths` in the workspace from tree `from` (as they are now) to tree `to`: written back, or removed. */
  async restore(to: string, from: string, paths: readonly string[]): Promise<void> {
    if (!paths.length) return;
    const wanted = new Set(paths);
    const raw = nulList(await git(this.place, ["diff-tree", "-r", "-z", "--no-renames", "--raw", to, from]));
    const entries: Entry[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const [mode, , sha] = raw[i]!.slice(1).split(" ");
      const path = raw[i + 1]!;
      if (!wanted.has(path)) continue;
      if (mode === "000000") rmSync(join(this.place.workTree, path), { force: true });
      else entries.push({ path, mode: mode!, sha: sha! });
    }
    await putBack(this.place, entries);
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
}

/**
 * Makes the git store of a workspace. Several processes (and several sessions of one: children running
 * at once) may do it together: each builds its own in a folder beside it and renames that into
 * place; git never sees a half-made store, and the first rename wins (a later one finds the folder
 * there and drops its own).
 */
async function createStore(place: GitPlace, dir: string): Promise<void> {
  const making = join(dir, `git.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await git({ ...place, gitDir: making }, ["init", "-q", "--template="]);
    keepBytes(making);
    // A data folder inside the workspace must not record itself.
    const own = relative(place.workTree, safeRealpath(dirname(dir)));
    if (own && !own.startsWith("..") && !isAbsolute(own)) writeFileSync(join(making, "info", "exclude"), `/${own}/\n`);
    writeFileSync(join(dir, "workspace"), `${place.workTree}\n`);
    renameSync(making, place.gitDir);
  } catch (error) {
    if (!existsSync(join(place.gitDir, "HEAD"))) throw error;
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
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

function keepBytes(gitDir: string): void {
  const path = join(gitDir, "info", "attributes");
  if (readOrEmpty(path) === STORE_ATTRIBUTES) return;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, STORE_ATTRIBUTES);
  renameSync(temporary, path);
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
