import { describe, expect, test } from "bun:test";
import { cut, Screen, type ScreenIO } from "../../../../src/cli/term/screen.ts";

/**
 * A tiny terminal: enough of one to show what a user would see after the Screen's writes. It keeps
 * the scrollback, turns \n into \r\n as the tty does, wraps long lines (and remembers which lines were wrapped, to reflow them on a
 * resize like most terminals do), and understands \r, \n, cursor up/down/right, erase below, and
 * ignores colours and synchronized-output markers. Anything else fails the test.
 */
class Terminal {
  /** every line, scrollback included; a wrapped line continues on the next */
  lines: { cells: string[]; wrapped: boolean }[] = [{ cells: [], wrapped: false }];
  row = 0;
  col = 0;
  /** the first line on screen */
  top = 0;

  constructor(
    public width: number,
    public height: number,
  ) {}

  io(writes: string[] = []): ScreenIO {
    return {
      write: (text) => {
        writes.push(text);
        this.feed(text);
      },
      columns: () => this.width,
      rows: () => this.height,
    };
  }

  feed(text: string): void {
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === "\x1b") {
        const match = /^\x1b\[(\??)(\d*)(?:;\d+)*([A-Za-z])/.exec(text.slice(i));
        if (!match) throw new Error(`unexpected escape: ${JSON.stringify(text.slice(i, i + 10))}`);
        const [whole, private_, digits, final] = match;
        const n = digits ? Number(digits) : 1;
        if (private_ === "?" && digits === "2026" && (final === "h" || final === "l")) {
          // synchronized output: nothing to show
        } else if (private_) throw new Error(`unexpected escape: ${JSON.stringify(whole)}`);
        else if (final === "A") this.row = Math.max(this.top, this.row - n);
        else if (final === "B") this.row = Math.min(this.top + this.height - 1, this.row + n);
        else if (final === "C") this.col = Math.min(this.width - 1, this.col + n);
        else if (final === "J" && !digits) this.eraseBelow();
        else if (final === "m") {
          // colours: not shown here
        } else throw new Error(`unexpected escape: ${JSON.stringify(whole)}`);
        i += whole!.length;
        continue;
      }
      if (ch === "\r") this.col = 0;
      else if (ch === "\n") {
        // the tty's ONLCR, which raw mode keeps on: \n goes to the start of the next line
        this.col = 0;
        this.lineFeed();
      }
      else {
        const code = text.codePointAt(i)!;
        const char = String.fromCodePoint(code);
        this.put(char);
        i += char.length;
        continue;
      }
      i++;
    }
  }

  private line(row: number) {
    while (this.lines.length <= row) this.lines.push({ cells: [], wrapped: false });
    return this.lines[row]!;
  }

  private lineFeed(): void {
    this.row++;
    this.line(this.row);
    if (this.row > this.top + this.height - 1) this.top++;
  }

  private put(char: string): void {
    const w = Bun.stringWidth(char);
    if (w === 0) return;
    if (this.col + w > this.width) {
      this.line(this.row).wrapped = true;
      this.lineFeed();
      this.col = 0;
    }
    const cells = this.line(this.row).cells;
    while (cells.length < this.col) cells.push(" ");
    cells[this.col] = char;
    if (w === 2) cells[this.col + 1] = "";
    this.col += w;
  }

  private eraseBelow(): void {
    const line = this.line(this.row);
    line.cells.length = Math.min(line.cells.length, this.col);
    line.wrapped = false;
    this.lines.length = this.row + 1;
  }

  /** Changes the width and reflows the wrapped lines, keeping the cursor on its character. */
  resize(width: number): void {
    const logical: { cells: string[]; cursor?: number }[] = [];
    let current: { cells: string[]; cursor?: number } | undefined;
    this.lines.forEach((line, index) => {
      if (!current) {
        current = { cells: [] };
        logical.push(current);
      }
      if (index === this.row) current.cursor = current.cells.length + this.col;
      current.cells.push(...line.cells);
      // a wrapped line holds a full row
      while (line.wrapped && current.cells.length % this.width !== 0) current.cells.push(" ");
      if (!line.wrapped) current = undefined;
    });
    this.lines = [];
    for (const { cells, cursor } of logical) {
      const first = this.lines.length;
      for (let at = 0; at === 0 || at < cells.length; at += width) {
        this.lines.push({ cells: cells.slice(at, at + width), wrapped: at + width < cells.length });
      }
      if (cursor !== undefined) {
        this.row = first + Math.floor(cursor / width);
        this.col = cursor % width;
        this.line(this.row);
      }
    }
    this.width = width;
    this.top = Math.max(0, Math.min(this.row, this.lines.length - this.height));
  }

  /** What the screen shows, trailing spaces and empty trailing lines dropped. */
  text(): string[] {
    const out = this.lines.map((line) => line.cells.join("").trimEnd());
    while (out.length > 1 && out.at(-1) === "") out.pop();
    return out;
  }
}

function setup(width = 40, height = 20, fancy = true) {
  const term = new Terminal(width, height);
  const writes: string[] = [];
  const screen = new Screen(term.io(writes), fancy);
  return { term, writes, screen };
}

const live = (rows: string[], cursorRow = rows.length - 1, cursorCol = Bun.stringWidth(rows[cursorRow] ?? "")) => ({
  rows,
  cursorRow,
  cursorCol,
});

describe("Screen: the live region", () => {
  test("setLive draws the rows and leaves the cursor where asked", () => {
    const { term, screen } = setup();
    screen.setLive(live(["> hello", "  status"], 0, 4));
    expect(term.text()).toEqual(["> hello", "  status"]);
    expect([term.row, term.col]).toEqual([0, 4]);
  });

  test("setLive again replaces the rows in place, shorter or taller", () => {
    const { term, screen } = setup();
    screen.setLive(live(["one", "two", "three"]));
    screen.setLive(live(["just one row"]));
    expect(term.text()).toEqual(["just one row"]);
    screen.setLive(live(["a", "b", "c", "d"], 1, 1));
    screen.setLive(live(["x", "y"], 1, 1));
    expect(term.text()).toEqual(["x", "y"]);
    expect([term.row, term.col]).toEqual([1, 1]);
  });

  test("print puts the text above the live region and redraws the region below it", () => {
    const { term, writes, screen } = setup();
    screen.setLive(live(["thinking…", "───", "> draft"], 2, 7));
    writes.length = 0;
    screen.print("first answer line\nsecond answer line");
    // the previous live rows are erased from the cursor's row up
    expect(writes.join("")).toContain("\r\x1b[2A\x1b[J");
    expect(term.text()).toEqual(["first answer line", "second answer line", "thinking…", "───", "> draft"]);
    expect([term.row, term.col]).toEqual([4, 7]);
    screen.print("more\n");
    expect(term.text()).toEqual(["first answer line", "second answer line", "more", "thinking…", "───", "> draft"]);
  });

  test("the cursor row in the middle of the region: erase moves up by the cursor row, not the row count", () => {
    const { term, writes, screen } = setup();
    screen.setLive(live(["a", "b", "c", "d"], 1, 1));
    writes.length = 0;
    screen.print("out");
    expect(writes.join("")).toContain("\r\x1b[1A\x1b[J");
    expect(term.text()).toEqual(["out", "a", "b", "c", "d"]);
    expect([term.row, term.col]).toEqual([2, 1]);
  });

  test("print with no live region just prints", () => {
    const { term, screen } = setup();
    screen.print("one");
    screen.print("two");
    expect(term.text()).toEqual(["one", "two"]);
  });

  test("clear erases the live region and keeps what was printed", () => {
    const { term, screen } = setup();
    screen.print("kept");
    screen.setLive(live(["gone 1", "gone 2"], 0, 0));
    screen.clear();
    expect(term.text()).toEqual(["kept"]);
    screen.print("after");
    expect(term.text()).toEqual(["kept", "after"]);
  });

  test("commit leaves the rows on screen and the next output goes below them", () => {
    const { term, screen } = setup();
    screen.setLive(live(["? bash wants to:", "  [y] yes  [n] no", "footer"], 1, 3));
    screen.commit();
    screen.print("allowed once");
    screen.setLive(live(["> "]));
    expect(term.text()).toEqual(["? bash wants to:", "  [y] yes  [n] no", "footer", "allowed once", ">"]);
  });

  test("rows longer than the width are cut with an ellipsis, never wrapped by the terminal", () => {
    const { term, screen } = setup(20);
    screen.setLive(live(["x".repeat(50), "short", "日本語".repeat(10)], 1, 0));
    const shown = term.text();
    expect(shown.length).toBe(3);
    expect(shown[0]).toBe(`${"x".repeat(18)}…`);
    expect(shown[1]).toBe("short");
    expect(shown[2]!.endsWith("…")).toBe(true);
    for (const row of shown) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(19);
  });

  test("the cursor column is kept inside the width", () => {
    const { term, screen } = setup(20);
    screen.setLive(live(["> " + "y".repeat(40)], 0, 42));
    expect(term.col).toBeLessThanOrEqual(19);
    expect(term.text()).toHaveLength(1);
  });

  test("a live region taller than the screen shows what fits, with the cursor row", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `row ${i}`);
    const atEnd = setup(40, 8);
    atEnd.screen.setLive(live(rows));
    expect(atEnd.term.text()).toEqual(rows.slice(23));
    expect(atEnd.term.row - atEnd.term.top).toBeLessThan(8);

    const atStart = setup(40, 8);
    atStart.screen.setLive(live(rows, 0, 0));
    expect(atStart.term.text()).toEqual(rows.slice(0, 7));
    expect([atStart.term.row, atStart.term.col]).toEqual([0, 0]);

    // redrawn with print above, still no copies of the region left behind
    atEnd.screen.print("printed");
    atEnd.screen.setLive(live(["> "]));
    expect(atEnd.term.text()).toEqual(["printed", ">"]);
  });

  test("after the width shrinks, resized moves up by the rows the terminal reflowed to", () => {
    const { term, writes, screen } = setup(40, 30);
    screen.print("printed before");
    const wide = "w".repeat(30);
    screen.setLive(live([wide, wide, "> typed"], 2, 7));
    term.resize(20); // each 30-column row is now 2 rows
    writes.length = 0;
    screen.resized();
    expect(writes.join("")).toContain("\r\x1b[4A\x1b[J");
    expect(term.text()).toEqual(["printed before", `${"w".repeat(18)}…`, `${"w".repeat(18)}…`, "> typed"]);
  });

  test("after the width shrinks, the prompt row holding the cursor leaves nothing behind", () => {
    const { term, screen } = setup(40, 30);
    screen.print("printed before");
    const prompt = `> ${"p".repeat(30)}`;
    screen.setLive(live(["status", prompt], 1, Bun.stringWidth(prompt)));
    term.resize(20); // the prompt row is now 2 rows, the cursor on the second
    screen.resized();
    screen.setLive(live(["status", "> short"], 1, 7));
    expect(term.text()).toEqual(["printed before", "status", "> short"]);
  });

  test("a resize to a wider screen moves up by the cursor row", () => {
    const { term, writes, screen } = setup(20, 30);
    screen.setLive(live(["a", "b", "> c"], 2, 3));
    term.resize(60);
    writes.length = 0;
    screen.resized();
    expect(writes.join("")).toContain("\r\x1b[2A\x1b[J");
    expect(term.text()).toEqual(["a", "b", "> c"]);
  });
});

describe("Screen without escape sequences (TERM=dumb)", () => {
  test("no escape byte is ever written", () => {
    const { term, writes, screen } = setup(30, 10, false);
    screen.print("hello");
    screen.setLive(live(["status row", "> typing something"], 1, 5));
    screen.setLive(live(["status row", "> typ"], 1, 5));
    screen.print("answer\nin two lines\n");
    screen.setLive(live(["x".repeat(80)], 0, 80));
    term.width = 15;
    screen.resized();
    screen.clear();
    screen.setLive(live(["> final"], 0, 7));
    screen.commit();
    screen.print("bye");
    const all = writes.join("");
    expect(all).not.toContain("\x1b");
    // the only characters besides the text: \r, \n and the spaces that erase
    expect(all.replace(/[ -~…\r\n]/g, "")).toBe("");
  });

  test("only the cursor's row is drawn, erased with \\r and spaces", () => {
    const { term, writes, screen } = setup(30, 10, false);
    screen.setLive(live(["status", "> a long line typed"], 1, 5));
    expect(term.text()).toEqual(["> a long line typed"]);
    writes.length = 0;
    screen.setLive(live(["status", "> short"], 1, 5));
    expect(writes.join("")).toBe(`\r${" ".repeat(19)}\r> short`);
    expect(term.text()).toEqual(["> short"]);
  });

  test("print puts the text on its own lines and redraws the row below", () => {
    const { term, screen } = setup(30, 10, false);
    screen.setLive(live(["> draft"]));
    screen.print("one\ntwo");
    expect(term.text()).toEqual(["one", "two", "> draft"]);
    screen.clear();
    expect(term.text()).toEqual(["one", "two"]);
  });

  test("a long row is cut to the width", () => {
    const { term, screen } = setup(20, 10, false);
    screen.setLive(live(["z".repeat(60)]));
    expect(term.text()).toEqual([`${"z".repeat(18)}…`]);
  });
});

describe("cut", () => {
  test("a row that fits is unchanged", () => {
    expect(cut("hello", 5)).toBe("hello");
  });

  test("a longer row ends with an ellipsis within the width", () => {
    expect(cut("hello world", 8)).toBe("hello w…");
    const wide = cut("日本語のテキスト", 7);
    expect(wide.endsWith("…")).toBe(true);
    expect(Bun.stringWidth(wide)).toBeLessThanOrEqual(7);
  });

  test("a coloured row keeps its colours, counts only visible columns, and closes its styles", () => {
    const row = `\x1b[31m${"r".repeat(30)}\x1b[39m`;
    const result = cut(row, 10);
    expect(Bun.stringWidth(result)).toBe(10);
    expect(result.startsWith("\x1b[31mrrrrrrrrr")).toBe(true);
    expect(result.endsWith("…\x1b[0m")).toBe(true);
  });
});

describe("Screen: notices at a narrow width", () => {
  test("a warning or the status line is wrapped at spaces, never mid-word; a word longer than a row is cut", () => {
    const { term, screen } = setup(24);
    screen.notice("rein: MCP server \"github\" failed: its command could not be started");
    screen.notice("claude-sonnet-5-5 · 12,345 tokens · $0.0123 · /home/someone/a-very-long-folder-name-indeed");
    const rows = term.text();
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThan(24);
    expect(rows.slice(0, 4)).toEqual(["rein: MCP server", "\"github\" failed: its", "command could not be", "started"]);
    expect(rows.slice(4, 7)).toEqual(["claude-sonnet-5-5 ·", "12,345 tokens · $0.0123", "·"]);
  });
});
