// A session's checkpoints, loaded with the turn's first call that may change files: a session whose
// turns only read (a one-shot question, a review) never loads the checkpoint modules, opens no
// shadow store and sets up no watcher. Until then the turn's start is only remembered.
import type { ChangeCall, CheckpointSettings, TurnCheckpoints, TurnReport } from "../checkpoint/turn.ts";

export type Checkpointing = Pick<TurnCheckpoints, "begin" | "before" | "end" | "close">;

export function lazyCheckpoints(settings: CheckpointSettings, workspace: string, sessionId: string): Checkpointing {
  let real: TurnCheckpoints | undefined;
  let turn: { seq: number; messagesBefore: number } | undefined;
  return {
    begin(seq, messagesBefore) {
      turn = { seq, messagesBefore };
      real?.begin(seq, messagesBefore);
    },
    async before(call: ChangeCall) {
      if (!real) {
        if (call.readOnly || !turn) return;
        // Synchronous, so the turn's start is given before anything else reaches it.
        const { TurnCheckpoints: Checkpoints } = require("../checkpoint/turn.ts") as typeof import("../checkpoint/turn.ts");
        real = new Checkpoints(settings, workspace, sessionId);
        real.begin(turn.seq, turn.messagesBefore);
      }
      await real.before(call);
    },
    async end(): Promise<TurnReport | undefined> {
      turn = undefined;
      return real?.end();
    },
    close() {
      real?.close();
    },
  };
}
