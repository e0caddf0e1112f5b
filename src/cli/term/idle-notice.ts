// The terminal's idle notice: once the prompt has waited `delayMs` for input after a turn, the
// session's Notification hooks hear of it (idle_prompt), once per wait; a key starts the wait again.
// Without a delay (no Notification hook) no timer is ever set.
export class IdleNotice {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly delayMs: number | undefined,
    private readonly fire: () => void,
  ) {}

  /** The prompt waits for input from now. */
  waiting(): void {
    if (this.delayMs === undefined) return;
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.delayMs);
    this.timer.unref?.();
  }

  /** A key while the prompt waits: the wait starts again. */
  poke(): void {
    if (this.timer) this.waiting();
  }

  /** A turn runs, or rein leaves. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** REIN_IDLE_NOTIFY_MS: the wait before idle_prompt, whole milliseconds (60 s when unset or unreadable). */
export function idleDelay(text: string | undefined, warn: (message: string) => void): number {
  if (text === undefined || text === "") return 60_000;
  if (/^\s*\d+\s*$/.test(text)) return Number(text);
  warn(`REIN_IDLE_NOTIFY_MS: expected whole milliseconds, got ${JSON.stringify(text)}; waiting the default 60 s`);
  return 60_000;
}
