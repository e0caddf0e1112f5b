// Which keys answer the permission dialog. Keys that arrive within ANSWER_GRACE_MS of the dialog
// appearing, or of a key typed into the prompt while it is open, are no answers: a prompt being
// typed while a turn runs keeps its letters (and its Enter queues it) instead of choosing "always"
// with the `a` of "and". Once armed, the arrows or an answer's number move the mark, Enter confirms
// it and Esc says no, as in Claude Code; any other key goes to the prompt and disarms it again.
import type { Key } from "./keys.ts";
import type { DialogView } from "./dialog.ts";

export const ANSWER_GRACE_MS = 400;

/** What a key does while the dialog is open. */
export type DialogAction = { confirm: number } | { reject: true } | { moved: true } | { prompt: true } | { ignored: true };

export class DialogKeys {
  private askId: string | undefined;
  private selected = 0;
  private armAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** How the dialog for `askId` is drawn now (a new ask starts unarmed, its first answer marked). */
  view(askId: string): DialogView {
    this.follow(askId);
    return { selected: this.selected, armed: this.now() >= this.armAt };
  }

  /** How long until the open dialog's keys answer (0: they do). */
  untilArmed(): number {
    return Math.max(0, this.armAt - this.now());
  }

  key(askId: string, key: Key, answers: number): DialogAction {
    this.follow(askId);
    const armed = this.now() >= this.armAt;
    if (!armed) {
      if (key.name === "escape" || key.name === "up" || key.name === "down") return { ignored: true };
      return this.typed();
    }
    if (key.name === "up" || key.name === "down") {
      this.selected = (this.selected + (key.name === "up" ? answers - 1 : 1)) % answers;
      return { moved: true };
    }
    if (key.name === "text" && /^[1-9]$/.test(key.text) && Number(key.text) <= answers) {
      this.selected = Number(key.text) - 1;
      return { moved: true };
    }
    if (key.name === "enter") return { confirm: this.selected };
    if (key.name === "escape") return { reject: true };
    return this.typed();
  }

  private typed(): DialogAction {
    this.armAt = Math.max(this.armAt, this.now() + ANSWER_GRACE_MS);
    return { prompt: true };
  }

  private follow(askId: string): void {
    if (askId === this.askId) return;
    this.askId = askId;
    this.selected = 0;
    this.armAt = this.now() + ANSWER_GRACE_MS;
  }
}
