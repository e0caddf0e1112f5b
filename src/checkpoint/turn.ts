// Checkpoints of one session's turns: the workspace is recorded before the first change a turn
// makes, and again when the turn ends, so the files it changed are known. What is read is kept
// small: a call of rein's file tools records only the files it writes; before a shell command only
// the paths the watcher saw change since the last look are read (everything when it cannot say);
// after a turn that ran one, every file's stat. A failure never stops the turn: the checkpoint is
// marked incomplete and undo says so.
import { sideEffects, type Request } from "./side-effects.ts";
import { journalPath, readJournal, writeJournal, type Checkpoint, type SavedFile } from "./journal.ts";
import { saveOutside } from "./outside.ts";
import { capCheckpoints } from "./prune.ts";
import { DEFAULT_MAX_FILE_BYTES, ShadowStore, type Snapshot } from "./shadow.ts";
import { ChangeWatch } from "./watch.ts";
import { exactWrites } from "./writes.ts";

export type CheckpointSettings = {
  /** the checkpoints folder in rein's data folder */
  dir: string;
  maxFileBytes?: number;
  /** the most bytes one workspace's store may hold before the oldest sessions' checkpoints go (0: no cap) */
  capBytes?: number;
};

/** What the session says about a turn's checkpoint once the turn is over. */
export type TurnReport = Pick<Checkpoint, "n" | "uncovered" | "side_effects"> & {
  changed: NonNullable<Checkpoint["changed"]>;
  incomplete?: string;
};

export type ChangeCall = {
  /** the call changes nothing: a read-only tool, or a command the analysis found read-only */
  readOnly: boolean;
  /** the permission engine's requests for the call (shell lines expanded into commands and paths) */
  requests: readonly Request[];
  /** the tool's name: rein's file tools say exactly what they write */
  tool?: string;
};

type Turn = {
  seq: number;
  messagesBefore: number;
  checkpoint?: Checkpoint;
  /** files rein's file tools wrote in this turn: the index holds them as they were before it */
  touched: Set<string>;
  /** a call that may have written anything ran: the turn's end reads everything */
  opaque: boolean;
};

export class TurnCheckpoints {
  private readonly shadow: ShadowStore;
  private readonly journal: string;
  private readonly watch: ChangeWatch;
  private turn: Turn | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: CheckpointSettings,
    workspace: string,
    sessionId: string,
  ) {
    this.shadow = new ShadowStore({ dataDir: settings.dir, workspace, sessionId, ...(settings.maxFileBytes ? { maxFileBytes: settings.maxFileBytes } : {}) });
    this.journal = journalPath(this.shadow.dir, sessionId);
    this.watch = new ChangeWatch(this.shadow.place.workTree);
  }

  /** A turn starts: nothing is read until it first changes something. */
  begin(seq: number, messagesBefore: number): void {
    this.turn = { seq, messagesBefore, touched: new Set(), opaque: false };
  }

  /** Called before each allowed call runs: the first changing call of a turn takes the checkpoint. */
  async before(call: ChangeCall): Promise<void> {
    const turn = this.turn;
    if (call.readOnly || !turn) return;
    await this.serial(() => this.prepare(turn, call));
  }

  /** The turn is over: records what it changed. Undefined when it changed nothing through a tool. */
  async end(): Promise<TurnReport | undefined> {
    const turn = this.turn;
    this.turn = undefined;
    if (!turn?.checkpoint) return undefined;
    return this.serial(() => this.finish(turn, turn.checkpoint!));
  }

  /** Stops watching the workspace (the session is done). */
  close(): void {
    this.watch.close();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async prepare(turn: Turn, call: ChangeCall): Promise<void> {
    const checkpoint = (turn.checkpoint ??= this.open(turn));
    const known = exactWrites(call.tool, call.requests, this.shadow.place.workTree);
    const fresh = known?.inside.filter((path) => !turn.touched.has(path)) ?? [];
    const look = !checkpoint.incomplete && !turn.opaque && (!known || fresh.length > 0 || !checkpoint.before);
    if (look) {
      try {
        if (known) {
          for (const path of fresh) turn.touched.add(path);
          this.noteBefore(checkpoint, await this.shadow.record(fresh));
        } else {
          turn.opaque = true;
          this.noteBefore(checkpoint, await this.look(turn.touched));
        }
      } catch (error) {
        checkpoint.incomplete = `the workspace could not be recorded before the turn (${message(error)})`;
      }
    }
    const saved = known ? this.saveOutside(checkpoint, known.outside, "before") : 0;
    // What rein's file tools write outside the workspace is covered (or listed as not covered).
    const effects = known ? [] : sideEffects(call.requests);
    const added = effects.filter((effect) => !checkpoint.side_effects.includes(effect));
    checkpoint.side_effects.push(...added);
    if (look || saved || added.length) this.save(checkpoint);
  }

  private async finish(turn: Turn, checkpoint: Checkpoint): Promise<TurnReport> {
    if (!checkpoint.incomplete && checkpoint.before) {
      try {
        const after = turn.opaque ? await this.full() : await this.shadow.record([...turn.touched]);
        if (!turn.opaque) this.watch.notice(turn.touched);
        checkpoint.after = after.tree;
        checkpoint.after_dirs = after.emptyDirs;
        // A file recorded before the turn that grew past the size limit is covered by its old version:
        // changed as "modified", never "deleted", and put back by an undo.
        const grown = new Set(await this.shadow.holds(checkpoint.before, after.uncovered.filter((p) => !checkpoint.uncovered.includes(p))));
        checkpoint.uncovered = [...new Set([...checkpoint.uncovered, ...after.uncovered])].filter((p) => !grown.has(p));
        if (grown.size) checkpoint.grown = [...new Set([...(checkpoint.grown ?? []), ...grown])];
        const changed = await this.shadow.diff(checkpoint.before, after.tree, true);
        checkpoint.changed = changed.map((c) => (grown.has(c.path) && c.status === "deleted" ? { status: "modified" as const, path: c.path } : c));
      } catch (error) {
        checkpoint.incomplete = `the workspace could not be recorded after the turn (${message(error)})`;
      }
    }
    this.saveOutside(checkpoint, (checkpoint.outside ?? []).map((entry) => entry.path), "after");
    this.keep(checkpoint);
    this.save(checkpoint);
    // Measuring the store costs a git call: every tenth checkpoint of a session is often enough.
    if (this.settings.capBytes !== 0 && checkpoint.n % 10 === 1) capCheckpoints(this.shadow.dir, this.settings.capBytes);
    const { n, uncovered, side_effects, incomplete } = checkpoint;
    return { n, changed: checkpoint.changed ?? [], uncovered, side_effects, ...(incomplete ? { incomplete } : {}) };
  }

  /** The workspace before a shell command: the paths the watcher saw change, or all of it. */
  private async look(except: ReadonlySet<string>): Promise<Snapshot> {
    const paths = this.watch.take();
    return paths ? this.shadow.snapshot({ paths, except }) : this.full(except);
  }

  /** Every file's stat; then the watcher follows the folders this snapshot found. */
  private async full(except?: ReadonlySet<string>): Promise<Snapshot> {
    this.watch.reset();
    const snapshot = await this.shadow.snapshot(except ? { except } : {});
    if (snapshot.structural || !this.watch.isUp) void this.shadow.folders(snapshot).then((dirs) => this.watch.sync(dirs), () => this.watch.close());
    return snapshot;
  }

  /** Copies outside files into the store: before the turn first writes each, or when it is over. */
  private saveOutside(checkpoint: Checkpoint, paths: readonly string[], when: "before" | "after"): number {
    const entries = (checkpoint.outside ??= []);
    let saved = 0;
    for (const path of paths) {
      const index = entries.findIndex((entry) => entry.path === path);
      if (when === "before" ? index >= 0 || checkpoint.uncovered.includes(path) : index < 0) continue;
      const name = `${checkpoint.session_id}/${checkpoint.n}/${index < 0 ? entries.length : index}-${when}`;
      let state: ReturnType<typeof saveOutside>;
      try {
        state = saveOutside(this.shadow.dir, name, path, this.settings.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      } catch (error) {
        checkpoint.incomplete ??= `${path} could not be copied ${when} the turn (${message(error)})`;
        continue;
      }
      saved++;
      if (state === "big") {
        checkpoint.uncovered.push(path);
        if (index >= 0) entries.splice(index, 1);
      } else if (when === "before") entries.push({ path, before: state });
      else {
        const entry = entries[index]!;
        entry.after = state;
        if (!sameSaved(entry.before, state)) (checkpoint.changed ??= []).push({ status: !entry.before ? "added" : !state ? "deleted" : "modified", path });
      }
    }
    if (!entries.length) delete checkpoint.outside;
    return saved;
  }

  private open(turn: Turn): Checkpoint {
    const n = (readJournal(this.journal).at(-1)?.n ?? 0) + 1;
    return { n, session_id: sessionOf(this.journal), seq: turn.seq, messages_before: turn.messagesBefore, at: Date.now(), before: "", before_dirs: [], uncovered: [], side_effects: [] };
  }

  private noteBefore(checkpoint: Checkpoint, snapshot: Snapshot): void {
    checkpoint.before = snapshot.tree;
    checkpoint.before_dirs = [...new Set([...checkpoint.before_dirs, ...snapshot.emptyDirs])];
    checkpoint.uncovered = [...new Set([...checkpoint.uncovered, ...snapshot.uncovered])];
  }

  /** Refs on the checkpoint's trees: what git prune keeps. */
  private keep(checkpoint: Checkpoint): void {
    const at = `${checkpoint.session_id}/${checkpoint.n}`;
    try {
      this.shadow.keep([[`${at}/before`, checkpoint.before], [`${at}/after`, checkpoint.after ?? ""]]);
    } catch (error) {
      checkpoint.incomplete ??= `the checkpoint could not be kept (${message(error)})`;
    }
  }

  private save(checkpoint: Checkpoint): void {
    try {
      const all = readJournal(this.journal).filter((c) => c.n !== checkpoint.n);
      writeJournal(this.journal, [...all, checkpoint]);
    } catch (error) {
      checkpoint.incomplete ??= `the checkpoint could not be saved (${message(error)})`;
    }
  }
}

function sameSaved(a: SavedFile | null, b: SavedFile | null): boolean {
  return a === b || (a !== null && b !== null && a.sha256 === b.sha256 && a.mode === b.mode);
}

function sessionOf(journal: string): string {
  return journal.replace(/^.*\//, "").replace(/\.json$/, "");
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
