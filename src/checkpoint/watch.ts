// Tells which paths of the workspace changed since the last full snapshot, so the checkpoint before
// a turn's first shell command reads only those instead of every file's stat. One watcher per
// folder that holds recorded files (ignored folders such as node_modules are not watched). When it
// cannot vouch for the answer (not set up yet, an error, a folder created, removed or renamed, a
// .gitignore changed) it answers "unknown" and the caller reads everything.
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname, join } from "node:path";
import { lstatOrUndefined } from "./scan.ts";

/** Past this many folders the workspace is read in full each time instead. */
const MAX_DIRS = 20_000;
/** Past this many changed paths a full read is as cheap. */
const MAX_PATHS = 2_000;
/** How far a file's change time may lag the real time (the kernel stamps files with a coarse clock). */
const CLOCK_MARGIN_MS = 20;
/** Watchers added per tick, so that setting up never holds the event loop long. */
const BATCH = 200;

type Watched = { watcher: FSWatcher; ino: number };

export class ChangeWatch {
  private readonly watched = new Map<string, Watched>();
  private dirty = new Set<string>();
  /** something happened that the dirty set cannot describe */
  private lost = false;
  /** every wanted folder has its watcher */
  private up = false;
  /** up when the last full snapshot began: the dirty set holds every change since */
  private armed = false;
  private generation = 0;
  /** when the last look began: changes since then are not in the index yet */
  private since = 0;
  private closed = false;

  /** `heard` is told of each event (tests await it) */
  constructor(
    private readonly root: string,
    private readonly heard?: (path: string | undefined) => void,
  ) {}

  /** Watches these folders ("" is the root) and no others; resolves once all are watched. */
  async sync(dirs: Iterable<string>): Promise<void> {
    const wanted = new Set(["", ...dirs]);
    const generation = ++this.generation;
    this.up = false;
    if (wanted.size > MAX_DIRS) return this.stop();
    for (const [dir, entry] of this.watched) {
      if (wanted.has(dir) && lstatOrUndefined(join(this.root, dir))?.ino === entry.ino) continue;
      entry.watcher.close();
      this.watched.delete(dir);
    }
    const missing = [...wanted].filter((dir) => !this.watched.has(dir));
    let whole = true;
    for (let i = 0; i < missing.length; i += BATCH) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (generation !== this.generation || this.closed) return;
      for (const dir of missing.slice(i, i + BATCH)) whole = this.add(dir) && whole;
    }
    if (generation === this.generation && !this.closed) this.up = whole;
  }

  /** Every wanted folder is watched (else the caller should sync again after its next full snapshot). */
  get isUp(): boolean {
    return this.up;
  }

  /** A full snapshot begins: from now on the dirty set holds every change. */
  reset(): void {
    this.since = Date.now();
    this.dirty = new Set();
    this.lost = false;
    this.armed = this.up;
  }

  /** The paths changed since the last reset or take; undefined when that is not known. */
  take(): string[] | undefined {
    const since = this.since;
    this.since = Date.now();
    const dirty = [...this.dirty];
    this.dirty = new Set();
    if (!this.armed || this.lost || dirty.length > MAX_PATHS) return undefined;
    const paths: string[] = [];
    for (const path of dirty) {
      if (basename(path) === ".gitignore" || this.watched.has(path)) return undefined;
      const stat = lstatOrUndefined(join(this.root, path));
      if (stat?.isDirectory()) return undefined;
      // An event that came late for a change the last look already read: the change time (which no
      // program can set) is older than that look. File times run on a coarse clock, hence the margin.
      if (stat && stat.ctimeMs < since - CLOCK_MARGIN_MS) continue;
      paths.push(path);
    }
    return paths;
  }

  /** Files were created by other means than a look: unless each one's folder is watched, the next look reads everything. */
  notice(paths: Iterable<string>): void {
    for (const path of paths) {
      const dir = dirname(path);
      if (!this.watched.has(dir === "." ? "" : dir)) this.armed = false;
    }
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    for (const entry of this.watched.values()) entry.watcher.close();
    this.watched.clear();
    this.up = this.armed = false;
  }

  /** Watches one folder; false when it could not (a folder that went is no loss). */
  private add(dir: string): boolean {
    const full = join(this.root, dir);
    const stat = lstatOrUndefined(full);
    if (!stat?.isDirectory()) return true;
    try {
      const watcher = watch(full, { persistent: false }, (_event, name) => {
        const path = typeof name === "string" && name !== "" ? (dir ? `${dir}/${name}` : name) : undefined;
        if (path === undefined) this.lost = true;
        else this.dirty.add(path);
        this.heard?.(path);
      });
      watcher.on("error", () => {
        this.lost = true;
        this.up = this.armed = false;
        watcher.close();
        if (this.watched.get(dir)?.watcher === watcher) this.watched.delete(dir);
      });
      watcher.unref();
      this.watched.set(dir, { watcher, ino: stat.ino });
      return true;
    } catch {
      // Out of inotify watches, or the folder went meanwhile.
      return false;
    }
  }
}
