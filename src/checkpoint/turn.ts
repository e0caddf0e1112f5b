// Checkpoints of one session's turns: the workspace is recorded before the first change a turn
// makes, and again when the turn ends, so the files it changed are known. A failure never stops
// the turn: the checkpoint is marked incomplete and undo says so.
import { sideEffects, type Request } from "./side-effects.ts";
import { journalPath, readJournal, writeJournal, type Checkpoint } from "./journal.ts";
import { capCheckpoints } from "./prune.ts";
import { ShadowStore, type Snapshot } from "./shadow.ts";

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
};

export class TurnCheckpoints {
  private readonly shadow: ShadowStore;
  private readonly journal: string;
  private turn: { seq: number; messagesBefore: number } | undefined;
  private current: Checkpoint | undefined;
  private taking: Promise<void> | undefined;

  constructor(
    private readonly settings: CheckpointSettings,
    workspace: string,
    sessionId: string,
  ) {
    this.shadow = new ShadowStore({ dataDir: settings.dir, workspace, sessionId, ...(settings.maxFileBytes ? { maxFileBytes: settings.maxFileBytes } : {}) });
    this.journal = journalPath(this.shadow.dir, sessionId);
  }

  /** A turn starts: nothing is read until it first changes something. */
  begin(seq: number, messagesBefore: number): void {
    this.turn = { seq, messagesBefore };
    this.current = undefined;
    this.taking = undefined;
  }

  /** Called before each allowed call runs: the first changing call of a turn takes the checkpoint. */
  async before(call: ChangeCall): Promise<void> {
    if (call.readOnly || !this.turn) return;
    this.taking ??= this.take(this.turn);
    await this.taking;
    const effects = sideEffects(call.requests);
    if (this.current && effects.length) this.current.side_effects = [...new Set([...this.current.side_effects, ...effects])];
  }

  /** The turn is over: records what it changed. Undefined when it changed nothing through a tool. */
  async end(): Promise<TurnReport | undefined> {
    const checkpoint = this.current;
    this.turn = undefined;
    if (!checkpoint) return undefined;
    await this.taking;
    if (!checkpoint.incomplete) {
      try {
        const after = await this.shadow.snapshot();
        checkpoint.after = after.tree;
        checkpoint.after_dirs = after.emptyDirs;
        checkpoint.uncovered = [...new Set([...checkpoint.uncovered, ...after.uncovered])];
        checkpoint.changed = await this.shadow.diff(checkpoint.before, after.tree, true);
      } catch (error) {
        checkpoint.incomplete = `the workspace could not be recorded after the turn (${message(error)})`;
      }
    }
    await this.keep(checkpoint);
    this.save(checkpoint);
    // Measuring the store costs a git call: every tenth checkpoint of a session is often enough.
    if (this.settings.capBytes !== 0 && checkpoint.n % 10 === 1) capCheckpoints(this.shadow.dir, this.settings.capBytes);
    const { n, uncovered, side_effects, incomplete } = checkpoint;
    return { n, changed: checkpoint.changed ?? [], uncovered, side_effects, ...(incomplete ? { incomplete } : {}) };
  }

  private async take(turn: { seq: number; messagesBefore: number }): Promise<void> {
    const all = readJournal(this.journal);
    const n = (all.at(-1)?.n ?? 0) + 1;
    let snapshot: Snapshot | undefined;
    let incomplete: string | undefined;
    try {
      snapshot = await this.shadow.snapshot();
    } catch (error) {
      incomplete = `the workspace could not be recorded before the turn (${message(error)})`;
    }
    this.current = {
      n,
      session_id: sessionOf(this.journal),
      seq: turn.seq,
      messages_before: turn.messagesBefore,
      at: Date.now(),
      before: snapshot?.tree ?? "",
      before_dirs: snapshot?.emptyDirs ?? [],
      uncovered: snapshot?.uncovered ?? [],
      side_effects: [],
      ...(incomplete ? { incomplete } : {}),
    };
    this.save(this.current);
  }

  /** Refs on the checkpoint's trees: what git prune keeps. */
  private async keep(checkpoint: Checkpoint): Promise<void> {
    const at = `${checkpoint.session_id}/${checkpoint.n}`;
    try {
      await this.shadow.keep([[`${at}/before`, checkpoint.before], [`${at}/after`, checkpoint.after ?? ""]]);
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

function sessionOf(journal: string): string {
  return journal.replace(/^.*\//, "").replace(/\.json$/, "");
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
