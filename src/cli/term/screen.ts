// A scrollback screen with a live region at the bottom: finished output is printed once, above;
// the live region (the line being streamed, a spinner, the prompt or a dialog) is redrawn in place.
// Rows given to the live region are cut to the width, so the terminal never wraps them and the
// screen always knows how many rows to erase. With `fancy` off (TERM=dumb) only the row holding the
// cursor is drawn, with carriage returns and no escape sequences.

export type ScreenIO = {
  write(text: string): void;
  columns(): number;
  rows(): number;
};

export type Live = { rows: string[]; cursorRow: number; cursorCol: number };

const EMPTY: Live = { rows: [], cursorRow: 0, cursorCol: 0 };

export class Screen {
  private live: Live = EMPTY;
  /** the rows drawn last time and where the cursor was left among them */
  private drawn: { rows: string[]; cursorRow: number; cursorCol: number; width: number } = { rows: [], cursorRow: 0, cursorCol: 0, width: 80 };

  constructor(
    private readonly io: ScreenIO,
    readonly fancy: boolean,
  ) {}

  get width(): number {
    return Math.max(10, this.io.columns());
  }

  get height(): number {
    return Math.max(4, this.io.rows());
  }

  /** Prints a one-line notice (a warning, the status line) wrapped at spaces to the width, each row styled. */
  notice(text: string, style: (row: string) => string = (row) => row): void {
    // Each row alone: map's index and array would be more arguments to a chalk style, which prints them.
    this.print(wrapWords(text, this.width - 1).map((row) => style(row)).join("\n"));
  }

  /** Prints finished text above the live region. */
  print(text: string): void {
    if (!text) return;
    const body = text.endsWith("\n") ? text : `${text}\n`;
    this.io.write(this.frame(this.erase() + body + this.draw()));
  }

  setLive(live: Live): void {
    this.live = live;
    this.io.write(this.frame(this.erase() + this.draw()));
  }

  /** Redraws after a resize: what was drawn may have been reflowed to the new width. */
  resized(): void {
    this.io.write(this.frame(this.erase() + this.draw()));
  }

  /** Leaves the live region's rows on screen (a final state) and forgets them. */
  commit(): void {
    const { rows, cursorRow } = this.drawn;
    if (this.fancy && rows.length > 0) {
      const down = rows.length - 1 - cursorRow;
      this.io.write((down > 0 ? `\x1b[${down}B` : "") + "\r\n");
    } else if (rows.length > 0) this.io.write("\n");
    this.drawn = { rows: [], cursorRow: 0, cursorCol: 0, width: this.width };
    this.live = EMPTY;
  }

  /** Erases the live region and forgets it (before exiting, or handing the terminal to another prompt). */
  clear(): void {
    this.io.write(this.erase());
    this.live = EMPTY;
  }

  private frame(body: string): string {
    return this.fancy ? `\x1b[?2026h${body}\x1b[?2026l` : body;
  }

  private erase(): string {
    const { rows, cursorRow, cursorCol, width } = this.drawn;
    this.drawn = { rows: [], cursorRow: 0, cursorCol: 0, width: this.width };
    if (rows.length === 0) return "";
    if (!this.fancy) return `\r${" ".repeat(Math.min(Bun.stringWidth(rows[cursorRow] ?? ""), this.width - 1))}\r`;
    // After a resize the terminal may have reflowed the rows above the cursor into more rows, and
    // the cursor's own row too: the cursor is then on a later piece of it.
    const now = this.width;
    let up = cursorRow;
    if (now < width) {
      up = rows.slice(0, cursorRow).reduce((n, row) => n + Math.max(1, Math.ceil(Bun.stringWidth(row) / now)), 0);
      up += Math.floor(cursorCol / now);
    }
    return `\r${up > 0 ? `\x1b[${up}A` : ""}\x1b[J`;
  }

  private draw(): string {
    const width = this.width;
    const limit = width - 1;
    const all = this.live.rows.map((row) => (Bun.stringWidth(row) > limit ? cut(row, limit) : row));
    if (all.length === 0) return "";
    if (!this.fancy) {
      const row = all[this.live.cursorRow] ?? "";
      this.drawn = { rows: [row], cursorRow: 0, cursorCol: 0, width };
      return row;
    }
    // Never taller than the screen: the top rows give way (the cursor row is kept).
    const max = this.height - 1;
    const drop = Math.max(0, Math.min(all.length - max, this.live.cursorRow));
    const rows = all.slice(drop, drop + max);
    const cursorRow = Math.min(this.live.cursorRow - drop, rows.length - 1);
    const col = Math.min(this.live.cursorCol, limit);
    this.drawn = { rows, cursorRow, cursorCol: col, width };
    const up = rows.length - 1 - cursorRow;
    return rows.join("\r\n") + (up > 0 ? `\x1b[${up}A` : "") + `\r${col > 0 ? `\x1b[${col}C` : ""}`;
  }
}

/** Cuts a row (which may hold colour codes) to `width` columns, ending with "…", its styles closed. */
export function cut(row: string, width: number): string {
  if (Bun.stringWidth(row) <= width) return row;
  return `${Bun.sliceAnsi(row, 0, width - 1)}…${row.includes("\x1b") ? "\x1b[0m" : ""}`;
}

/** Plain text broken into rows of at most `width` columns at spaces (a word longer than a row is cut), never mid-word. */
export function wrapWords(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const line of text.split("\n")) {
    let row = "";
    for (const word of line.split(" ")) {
      const next = row ? `${row} ${word}` : word;
      if (Bun.stringWidth(next) <= width) {
        row = next;
        continue;
      }
      if (row) rows.push(row);
      let rest = word;
      while (Bun.stringWidth(rest) > width) {
        rows.push(Bun.sliceAnsi(rest, 0, width));
        rest = Bun.sliceAnsi(rest, width);
      }
      row = rest;
    }
    rows.push(row);
  }
  return rows;
}
