// The interactive terminal: the prompt, the turn it runs, prompts queued while it runs, the
// permission dialog, Ctrl-C and Ctrl-D, and the way out. Keys arrive from the terminal; output goes
// through the screen; the session does the work. Nothing here runs while nobody types.
import { workerRows } from "./worker-rows.ts";
import chalk from "chalk";
import type { StampedEvent } from "../../app/events.ts";
import type { Session } from "../../session/session.ts";
import { providerListing } from "../../app/factory.ts";
import { AskDialog } from "./ask-dialog.ts";
import { dialogRows } from "./dialog.ts";
import { cycleMode, modeLine } from "./mode-cycle.ts";
import { editKey, visible, type LineEditor } from "./editor.ts";
import { IdleNotice } from "./idle-notice.ts";
import type { Key } from "./keys.ts";
import type { Screen } from "./screen.ts";
import { memoryEditLine, memoryReport, quickMemoryLine } from "./quick-memory.ts";
import { agentLabel, cycleAgent } from "./agent-cycle.ts";
import { completeCommand, runSlash, runsWhileBusy, type SlashHost } from "./slash.ts";
import { menuKey, SlashMenu } from "./slash-menu.ts";
import type { Transcript } from "./transcript.ts";
import type { Context } from "../../app/context.ts";

export type Loaded = {
  ctx: Context;
  host: Omit<SlashHost, "print" | "exit" | "prompt">;
  /** the status line after a turn */
  status(session: Session): string;
  /** a test hook: typing exactly this prompt throws inside the key handler (REIN_CRASH_TEST_PROMPT) */
  crashOn?: string;
  /** how long the prompt waits for input after a turn before Notification hooks hear idle_prompt (none: no such hook) */
  idleNotifyMs?: number;
  /** the main agent's `initialPrompt`: with the first prompt it makes the first turn (agents/claude-fields.ts initialTurn), or is the first turn */
  initialTurn?: (prompt: string | undefined) => string;
};

export class App {
  private loaded: Loaded | undefined;
  private readonly queue: string[] = [];
  private busy = false;
  /** the queued prompt or command running now */
  private current: Promise<void> | undefined;
  private interrupts = 0;
  private hint = "";
  private refreshQueued = false;
  private finished: ((code: number) => void) | undefined;
  private idle = new IdleNotice(undefined, () => {});
  private readonly menu = new SlashMenu();
  private armTimer: ReturnType<typeof setTimeout> | undefined;
  readonly done: Promise<number>;
  /** the permission dialog: the open asks, and a message being written for a rejection */
  private readonly dialog: AskDialog;

  constructor(
    private readonly screen: Screen,
    private readonly transcript: Transcript,
    readonly editor: LineEditor,
    private readonly remember: (prompt: string) => void,
  ) {
    this.done = new Promise((resolve) => (this.finished = resolve));
    this.dialog = new AskDialog({ screen, transcript, editor, loaded: () => this.loaded, cycleMode: (to) => this.cycleMode(to), changed: () => this.changed() });
  }

  /** The heavy parts arrived: the session can run prompts typed before they did. */
  ready(loaded: Loaded): void {
    this.loaded = loaded;
    // As Claude Code does: the agent's initialPrompt goes with the prompt given at start (a command runs after it), or alone.
    if (loaded.initialTurn) {
      const first = this.queue[0];
      if (first !== undefined && !first.startsWith("/")) this.queue[0] = loaded.initialTurn(first);
      else this.queue.unshift(loaded.initialTurn(undefined));
    }
    this.idle = new IdleNotice(loaded.idleNotifyMs, () => void loaded.host.session().notifyHooks("idle_prompt", "rein is waiting for your input"));
    this.refresh(); // the prompt may now name the agent
    this.drain();
  }

  /** Session events: the transcript draws them; asks open the dialog. */
  onEvent = (event: StampedEvent): void => {
    if (event.type === "permission_ask") this.dialog.asks.push(event);
    // Answered here or elsewhere (a client of the server): the first answer wins, the dialog closes.
    if (event.type === "permission_reply") this.dialog.close(event.id);
    this.transcript.handle(event);
    this.transcript.hold(this.dialog.asks.length > 0);
    // The result comes just before its run lets go of the session: drain once it has.
    if (event.type === "result") void this.loaded?.host.session().whenIdle().then(() => this.drain());
    // The dialog is drawn now: with the spinner held, no timer would draw it.
    if (event.type === "permission_ask" || event.type === "permission_reply") this.changed();
  };

  /** Redraws the live region soon (many events in one tick make one frame). */
  changed = (): void => {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    queueMicrotask(() => {
      this.refreshQueued = false;
      this.refresh();
    });
  };

  refresh(): void {
    if (!this.finished) return;
    const width = this.screen.width;
    const rows = this.transcript.liveRows(width);
    rows.push(...workerRows(this.loaded?.host.session(), width));
    for (const queued of this.queue) rows.push(chalk.dim(`queued: ${queued.split("\n")[0]}`));
    const ask = this.dialog.asks[0];
    if (ask && !this.dialog.messageFor) {
      // An edit's diff or a write's content shows before the answer, in at most about half the screen.
      const preview = Math.max(3, Math.min(16, Math.floor(this.screen.height / 2) - 4));
      const input = this.transcript.inputOf(ask.tool_use_id);
      const view = this.dialog.keys.view(ask.id);
      // Redrawn once its keys answer: the hint under it changes.
      if (!view.armed && !this.armTimer) this.armTimer = setTimeout(() => ((this.armTimer = undefined), this.refresh()), this.dialog.keys.untilArmed() + 5);
      const dialog = dialogRows(ask, input, this.loaded?.ctx.trusted ?? false, width, preview, this.dialog.targetOf(ask, input), this.transcript.askerOf(ask), view);
      rows.push(...dialog);
      if (this.editor.empty) return this.screen.setLive({ rows, cursorRow: rows.length - 1, cursorCol: Bun.stringWidth(dialog.at(-1) ?? "") });
      // What was typed meanwhile is kept, and shown under the dialog.
      const held = this.editor.layout(chalk.dim("› "), 2, width, 3);
      const top = rows.length;
      rows.push(...held.rows);
      return this.screen.setLive({ rows, cursorRow: top + held.cursorRow, cursorCol: held.cursorCol });
    }
    const label = this.dialog.messageFor ? "why? › " : `${agentLabel(this.loaded?.host)}› `;
    const prompt = this.working && !this.dialog.messageFor ? chalk.dim(label) : chalk.bold(label);
    const layout = this.editor.layout(prompt, Bun.stringWidth(label), width, Math.max(3, Math.floor(this.screen.height / 2)));
    const top = rows.length;
    rows.push(...layout.rows);
    if (!this.dialog.messageFor) rows.push(...this.menu.rows(this.editor.text, this.loaded?.host, width, Math.max(3, Math.floor(this.screen.height / 2) - 3)));
    if (this.hint) rows.push(chalk.dim(this.hint));
    const mode = modeLine(this.loaded?.host);
    if (mode) rows.push(mode);
    this.screen.setLive({ rows, cursorRow: top + layout.cursorRow, cursorCol: layout.cursorCol });
  }

  /**
   * Keys of one read from the terminal. Without bracketed paste (TERM=dumb, some terminals) a pasted
   * text arrives as typed keys, many to a read: an Enter followed by more keys in the same read, or
   * by another read within 10 ms, is a line of the paste, not a prompt sent. A person's Enter comes
   * alone and is sent at once.
   */
  onKeys = (keys: Key[]): void => {
    this.idle.poke();
    const editing = !this.dialog.asks[0] || this.dialog.messageFor !== undefined;
    if (this.heldEnter) {
      clearTimeout(this.heldEnter);
      this.heldEnter = undefined;
      const first = keys[0]?.name;
      if (editing && (first === "text" || first === "enter" || first === "newline" || first === "paste")) this.lineBreak();
      else this.key({ name: "enter" });
    }
    keys.forEach((key, i) => {
      if (key.name !== "enter" || keys.length === 1 || !editing) return this.key(key);
      if (i < keys.length - 1) return this.editor.insert("\n");
      this.heldEnter = setTimeout(() => {
        this.heldEnter = undefined;
        this.key({ name: "enter" });
        this.refresh();
      }, 10);
    });
    this.refresh();
  };

  private heldEnter: ReturnType<typeof setTimeout> | undefined;

  /** Leaves: a running turn is stopped first (what it did is already saved). */
  exit(code = 0): void {
    const finish = this.finished;
    if (!finish) return;
    this.finished = undefined;
    this.idle.stop();
    const session = this.loaded?.host.session();
    if (session?.running) session.abort();
    this.screen.clear();
    // The stopped turn still saves its end; the store closes after that.
    void (this.current ?? Promise.resolve()).then(() => {
      this.transcript.stop();
      finish(code);
    });
  }

  /** Ctrl-Z: set by the terminal's owner (the process stops until the shell resumes it). */
  suspend: (() => void) | undefined;
  /** Lends the terminal to a program (an editor) while `run` runs: set by the terminal's owner. */
  lend: ((run: () => void) => void) | undefined;

  private key(key: Key): void {
    if (this.loaded?.crashOn && key.name === "enter" && this.editor.text === this.loaded.crashOn) throw new Error("crash test");
    if (key.name !== "ctrl-c") this.interrupts = 0;
    if (key.name !== "tab" && key.name !== "shift-tab") this.hint = "";
    const ask = this.dialog.asks[0];
    if (ask && !this.dialog.messageFor && this.dialog.key(key, ask)) return;
    const menu = this.dialog.messageFor ? false : menuKey(this.menu, this.editor, key, this.loaded?.host);
    if (menu === "send") return this.submit();
    if (menu) return;
    switch (key.name) {
      case "ctrl-c":
        return this.interrupt();
      case "ctrl-d":
        if (this.editor.empty) return this.exit(0);
        return this.editor.delete();
      case "enter":
        if (this.editor.text.endsWith("\\") && this.editor.cursor === this.editor.text.length) return this.lineBreak();
        return this.submit();
      case "tab":
        // At an empty prompt Tab runs the next primary agent; after a `/` it completes the command.
        if (this.editor.empty) return this.cycleAgent(1);
        return this.complete();
      case "shift-tab":
        // As in Claude Code: the permission mode. Tab (and /agents) still switch the agent.
        return this.cycleMode();
      case "ctrl-z":
        return this.suspend?.();
      case "ctrl-l":
        if (this.screen.fancy) this.screen.print("\x1b[2J\x1b[H");
        return;
      case "escape":
        if (this.dialog.messageFor) return this.dialog.cancelMessage();
        // As in the peers' terminals, Escape stops a running turn; at an idle prompt it does nothing.
        return void this.stopTurn();
      default:
        return void editKey(this.editor, key);
    }
  }

  /** A new line in the prompt; a trailing backslash (typed to continue the line) goes. */
  private lineBreak(): void {
    if (this.editor.text.endsWith("\\") && this.editor.cursor === this.editor.text.length) this.editor.backspace();
    this.editor.insert("\n");
  }

  private cycleMode(to?: Parameters<typeof cycleMode>[1]): void {
    const line = cycleMode(this.loaded?.host, to);
    if (line) this.screen.print(line);
  }

  private interrupt(): void {
    if (this.dialog.messageFor) this.dialog.cancelMessage();
    if (this.stopTurn()) return;
    if (!this.editor.empty) return this.editor.clear();
    this.interrupts++;
    if (this.interrupts >= 2) return this.exit(0);
    this.hint = "press Ctrl-C again to exit";
  }

  /** Stops the running turn (typed here, or sent by a client of the server); false when none runs. */
  private stopTurn(): boolean {
    const session = this.loaded?.host.session();
    if (!session?.running) return false;
    this.dialog.settleAll();
    session.abort();
    // Prompts queued behind the stopped turn come back to the editor rather than running.
    if (this.queue.length > 0) {
      const back = [...this.queue.splice(0), ...(this.editor.empty ? [] : [this.editor.text])].join("\n");
      this.editor.set(back);
    }
    return true;
  }

  /** Runs the session as the next (or previous) primary agent, from the next turn on. */
  private cycleAgent(step: 1 | -1): void {
    const cycled = cycleAgent(this.loaded?.host, step, this.working);
    if ("hint" in cycled) this.hint = cycled.hint;
    else this.screen.print(cycled.print);
  }

  private complete(): void {
    const completed = completeCommand(this.editor.text, this.loaded?.host);
    if (completed?.text !== undefined) this.editor.set(completed.text);
    if (completed?.hint) this.hint = completed.hint;
  }

  private submit(): void {
    if (this.dialog.submitMessage()) return;
    this.send(this.editor.submit());
  }

  /** A prompt or command as if typed and sent: `rein "PROMPT"` sends its prompt this way at start. */
  send(text: string): void {
    if (!text.trim()) return;
    this.remember(text);
    if (this.working && runsWhileBusy(text) && this.loaded) {
      void runSlash(text, this.slashHost());
      return;
    }
    this.queue.push(text);
    this.drain();
  }

  /** Runs the queued prompts one after another, once the session is there. */
  private drain(): void {
    if (this.busy || !this.loaded || !this.finished) return;
    // A turn started by a client of the server (/serve): queued prompts wait for its result.
    if (this.loaded.host.session().running) return;
    const next = this.queue.shift();
    if (next === undefined) return;
    this.busy = true;
    this.idle.stop();
    this.refresh();
    this.current = this.run(next).finally(() => {
      this.busy = false;
      this.current = undefined;
      this.refresh();
      if (this.queue.length === 0 && this.finished) this.idle.waiting();
      this.drain();
    });
  }

  private async run(text: string): Promise<void> {
    try {
      if (await runSlash(text, this.slashHost())) return;
      const remembered = await quickMemoryLine(text, this.loaded!.ctx);
      if (remembered) return this.screen.print(remembered);
      await this.prompt(text);
    } catch (error) {
      this.screen.notice(`rein: ${visible((error as Error).message)}`, chalk.red);
    }
  }

  private async prompt(text: string): Promise<void> {
    const loaded = this.loaded!;
    const session = loaded.host.session();
    const result = await session.prompt(text);
    if (result.status === "interrupted") this.screen.print(chalk.dim("(interrupted)"));
    this.screen.notice(loaded.status(session), chalk.dim);
  }

  private slashHost(): SlashHost {
    const loaded = this.loaded!;
    return {
      ...loaded.host,
      print: (text) => this.screen.print(text),
      width: () => this.screen.width,
      exit: () => this.exit(0),
      prompt: (text) => this.prompt(text),
      memory: () => memoryReport(loaded.ctx),
      models: () => {
        const listing = providerListing(loaded.ctx.config, loaded.ctx.env);
        return typeof listing === "string" ? [] : listing.map((p) => ({ provider: p.name, ready: p.keyOk, models: p.models.map((m) => m.name) }));
      },
      editMemory: (name) => memoryEditLine(loaded.ctx, name, (run) => (this.lend ? this.lend(run) : run())),
    };
  }

  /** A turn or command runs: typed here, or a turn sent by a client of the server (/serve). */
  private get working(): boolean {
    return this.busy || this.loaded?.host.session().running === true;
  }
}
