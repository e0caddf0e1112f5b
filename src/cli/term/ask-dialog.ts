// The terminal's permission dialog, as state: the open asks (the first is on screen), its keys, the
// message typed for a rejection (what was typed at the prompt meanwhile comes back after it), which
// asks were answered here, and the file an edit or write ask would change, for its preview.
import chalk from "chalk";
import type { Loaded } from "./app.ts";
import { answer, dialogOptions, targetFile, type AskEvent, type TargetFile } from "./dialog.ts";
import { DialogKeys } from "./dialog-keys.ts";
import type { LineEditor } from "./editor.ts";
import type { Key } from "./keys.ts";
import type { cycleMode } from "./mode-cycle.ts";
import type { Screen } from "./screen.ts";
import type { Transcript } from "./transcript.ts";

type DialogHost = {
  screen: Screen;
  transcript: Transcript;
  editor: LineEditor;
  loaded: () => Loaded | undefined;
  cycleMode: (to?: Parameters<typeof cycleMode>[1]) => void;
  changed: () => void;
};

export class AskDialog {
  readonly asks: AskEvent[] = [];
  /** the ask whose rejection message is being typed */
  messageFor: AskEvent | undefined;
  readonly keys = new DialogKeys();
  private stashed = "";
  private readonly answeredHere = new Set<string>();
  /** the file an open edit or write ask would change, read once per ask for its preview */
  private readonly targets = new Map<string, TargetFile | undefined>();

  constructor(private readonly host: DialogHost) {}

  /** A key while the dialog is open; false when it is the prompt's (typed text stays there). */
  key(key: Key, ask: AskEvent): boolean {
    const { editor } = this.host;
    const loaded = this.host.loaded();
    if (key.name === "ctrl-c" || key.name === "shift-tab") return false;
    // Ctrl-D edits a prompt typed under the dialog, and never leaves rein with an ask open.
    if (key.name === "ctrl-d") return editor.empty;
    if (!loaded) return true;
    const options = dialogOptions(ask, loaded.ctx.trusted);
    const action = this.keys.key(ask.id, key, options.length);
    if ("prompt" in action) return false;
    const picked = "confirm" in action ? options[action.confirm]!.choice : "reject" in action ? "reject" : undefined;
    if (!picked) return true;
    if (picked === "message") {
      this.messageFor = ask;
      this.stashed = editor.text; // a prompt typed meanwhile comes back after the message
      editor.clear();
      return true;
    }
    if (picked === "edits") this.host.cycleMode("accept-edits");
    const choice = picked === "edits" ? "once" : picked;
    // A rejection or an "always" settles other open asks too: none of them was answered elsewhere.
    for (const open of choice === "once" || choice === "folder" ? [ask] : this.asks) this.answeredHere.add(open.id);
    this.printAnswer(answer(loaded.ctx, loaded.host.session(), ask, choice));
    return true;
  }

  /** Enter while a rejection's message is typed: the ask is rejected with it; false when no message is being typed. */
  submitMessage(): boolean {
    const ask = this.messageFor;
    if (!ask) return false;
    const { editor } = this.host;
    const message = editor.submit().trim();
    this.messageFor = undefined;
    editor.set(this.stashed);
    this.stashed = "";
    const loaded = this.host.loaded();
    if (loaded) {
      for (const open of this.asks) this.answeredHere.add(open.id);
      this.printAnswer(answer(loaded.ctx, loaded.host.session(), ask, "reject", message || undefined));
    }
    return true;
  }

  cancelMessage(): void {
    this.messageFor = undefined;
    this.host.editor.set(this.stashed);
    this.stashed = "";
  }

  /** The turn is stopped here: its open asks close without "(answered elsewhere)". */
  settleAll(): void {
    for (const ask of this.asks) this.answeredHere.add(ask.id);
  }

  /** An ask was answered (here or elsewhere: a client of the server): the first answer wins, the dialog closes. */
  close(id: string): void {
    const at = this.asks.findIndex((a) => a.id === id);
    if (at < 0) return;
    const [closed] = this.asks.splice(at, 1);
    this.targets.delete(id);
    if (this.messageFor?.id === id) this.cancelMessage();
    // The first ask was on screen: if nobody answered it here, say so.
    if (at === 0 && closed && !this.answeredHere.delete(id)) this.host.screen.print(chalk.dim("(answered elsewhere)"));
    this.host.changed();
  }

  targetOf(ask: AskEvent, input: unknown): TargetFile | undefined {
    const loaded = this.host.loaded();
    if (!this.targets.has(ask.id)) this.targets.set(ask.id, loaded ? targetFile(ask.tool, input, loaded.ctx.cwd) : undefined);
    return this.targets.get(ask.id);
  }

  /** The answer's note comes between a subagent's lines: the next of them says again whose they are. */
  private printAnswer(note: string): void {
    this.host.screen.print(note);
    this.host.transcript.separate();
  }
}
