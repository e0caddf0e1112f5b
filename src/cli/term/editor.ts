// The prompt's line editor: a multi-line buffer with a cursor, history, and pastes kept whole.
// Pure state: the terminal feeds it keys and draws what `layout` returns.
import { hasControl, printable } from "../printable.ts";
import type { Key } from "./keys.ts";

/** A paste this long is shown as one placeholder and sent in full. */
const PASTE_LINES = 8;
const PASTE_CHARS = 2_000;
const PLACEHOLDER = /\[pasted text #(\d+): [^\]]*\]/g;

export type Layout = { rows: string[]; cursorRow: number; cursorCol: number };

export class LineEditor {
  text = "";
  cursor = 0;
  private history: string[] = [];
  /** where up/down stands in the history; history.length is the draft being typed */
  private browsing = 0;
  private draft = "";
  private pastes = new Map<number, string>();
  private pasteCount = 0;

  constructor(history: readonly string[] = []) {
    this.history = [...history];
    this.browsing = this.history.length;
  }

  /** The history read after the first paint, before any key is handled: older than anything already in it. */
  addOlderHistory(entries: readonly string[]): void {
    this.history = [...entries, ...this.history];
    this.browsing = this.history.length;
  }

  get empty(): boolean {
    return this.text === "";
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** A pasted text: inserted as typed when short, as a placeholder expanded on submit when long. */
  paste(text: string): void {
    const lines = text.replace(/\n$/, "").split("\n").length;
    if (lines < PASTE_LINES && text.length < PASTE_CHARS) return this.insert(text);
    const id = ++this.pasteCount;
    this.pastes.set(id, text);
    this.insert(`[pasted text #${id}: ${lines} lines, ${text.length} chars]`);
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const start = this.cursor - charLengthBefore(this.text, this.cursor);
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  delete(): void {
    if (this.cursor >= this.text.length) return;
    const end = this.cursor + charLengthAt(this.text, this.cursor);
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  left(): void {
    if (this.cursor > 0) this.cursor -= charLengthBefore(this.text, this.cursor);
  }

  right(): void {
    if (this.cursor < this.text.length) this.cursor += charLengthAt(this.text, this.cursor);
  }

  home(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  end(): void {
    const next = this.text.indexOf("\n", this.cursor);
    this.cursor = next < 0 ? this.text.length : next;
  }

  wordLeft(): void {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.text[i - 1]!)) i--;
    while (i > 0 && !/\s/.test(this.text[i - 1]!)) i--;
    this.cursor = i;
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && /\s/.test(this.text[i]!)) i++;
    while (i < this.text.length && !/\s/.test(this.text[i]!)) i++;
    this.cursor = i;
  }

  /** Ctrl-W: the word before the cursor. */
  deleteWordBefore(): void {
    const end = this.cursor;
    this.wordLeft();
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  /** Ctrl-U: the line before the cursor. */
  deleteToLineStart(): void {
    const end = this.cursor;
    this.home();
    if (this.cursor === end && end > 0) this.cursor--; // at a line start: join with the line above
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  /** Ctrl-K: the rest of the line. */
  deleteToLineEnd(): void {
    const start = this.cursor;
    this.end();
    const end = this.cursor === start ? Math.min(start + 1, this.text.length) : this.cursor;
    this.text = this.text.slice(0, start) + this.text.slice(end);
    this.cursor = start;
  }

  /** Up: the line above, or the previous history entry from the first line. */
  up(): void {
    const lineStart = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    if (lineStart > 0) return this.moveVertically(lineStart, -1);
    if (this.browsing === 0) return;
    if (this.browsing === this.history.length) this.draft = this.text;
    this.browsing--;
    this.set(this.history[this.browsing]!);
  }

  /** Down: the line below, or the next history entry (then the draft) from the last line. */
  down(): void {
    const lineEnd = this.text.indexOf("\n", this.cursor);
    if (lineEnd >= 0) return this.moveVertically(this.text.lastIndexOf("\n", this.cursor - 1) + 1, 1);
    if (this.browsing >= this.history.length) return;
    this.browsing++;
    this.set(this.browsing === this.history.length ? this.draft : this.history[this.browsing]!);
  }

  clear(): void {
    this.set("");
    this.pastes.clear();
  }

  /** Takes the text for sending (pastes expanded), remembers it in the history, and empties the buffer. */
  submit(): string {
    const value = this.text.replace(PLACEHOLDER, (whole, id: string) => this.pastes.get(Number(id)) ?? whole);
    // The history keeps the expanded text: the pastes behind placeholders are dropped below.
    if (value.trim() && this.history.at(-1) !== value) this.history.push(value);
    if (this.history.length > 500) this.history.splice(0, this.history.length - 500);
    this.browsing = this.history.length;
    this.draft = "";
    this.clear();
    return value;
  }

  entries(): readonly string[] {
    return this.history;
  }

  set(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  /**
   * The buffer as terminal rows of at most `width` columns: `prompt` before the first line, as many
   * spaces before the others. At most `maxRows` rows, a window around the cursor.
   */
  layout(prompt: string, promptWidth: number, width: number, maxRows: number): Layout {
    const room = Math.max(1, width - promptWidth - 1);
    const rows: string[] = [];
    let cursorRow = 0;
    let cursorCol = promptWidth;
    let offset = 0;
    const lines = this.text.split("\n");
    lines.forEach((line, index) => {
      const pieces = wrapByWidth(line, room);
      let pieceStart = offset;
      pieces.forEach((piece, p) => {
        const lead = index === 0 && p === 0 ? prompt : " ".repeat(promptWidth);
        const pieceEnd = pieceStart + piece.length;
        const last = p === pieces.length - 1;
        if (this.cursor >= pieceStart && (this.cursor < pieceEnd || (last && this.cursor === pieceEnd))) {
          cursorRow = rows.length;
          cursorCol = promptWidth + Bun.stringWidth(visible(piece.slice(0, this.cursor - pieceStart)));
        }
        rows.push(lead + visible(piece));
        pieceStart = pieceEnd;
      });
      offset += line.length + 1;
    });
    if (rows.length <= maxRows) return { rows, cursorRow, cursorCol };
    const first = Math.min(Math.max(0, cursorRow - Math.floor(maxRows / 2)), rows.length - maxRows);
    return { rows: rows.slice(first, first + maxRows), cursorRow: cursorRow - first, cursorCol };
  }

  private moveVertically(lineStart: number, direction: 1 | -1): void {
    const column = this.cursor - lineStart;
    if (direction < 0) {
      const above = this.text.lastIndexOf("\n", lineStart - 2) + 1;
      this.cursor = Math.min(above + column, lineStart - 1);
    } else {
      const below = this.text.indexOf("\n", this.cursor) + 1;
      const belowEnd = this.text.indexOf("\n", below);
      this.cursor = Math.min(below + column, belowEnd < 0 ? this.text.length : belowEnd);
    }
  }
}

/** The editing keys (typing, moving, deleting); false for a key the editor does not handle. */
export function editKey(editor: LineEditor, key: Key): boolean {
  if (key.name === "text") editor.insert(key.text);
  else if (key.name === "paste") editor.paste(key.text);
  else if (key.name === "newline") editor.insert("\n");
  else {
    const action = EDIT_KEYS[key.name];
    if (!action) return false;
    action(editor);
  }
  return true;
}

const EDIT_KEYS: Partial<Record<Key["name"], (editor: LineEditor) => void>> = {
  backspace: (e) => e.backspace(),
  delete: (e) => e.delete(),
  left: (e) => e.left(),
  right: (e) => e.right(),
  up: (e) => e.up(),
  down: (e) => e.down(),
  home: (e) => e.home(),
  "ctrl-a": (e) => e.home(),
  end: (e) => e.end(),
  "ctrl-e": (e) => e.end(),
  "word-left": (e) => e.wordLeft(),
  "word-right": (e) => e.wordRight(),
  "ctrl-w": (e) => e.deleteWordBefore(),
  "ctrl-u": (e) => e.deleteToLineStart(),
  "ctrl-k": (e) => e.deleteToLineEnd(),
};

/** Splits a line into pieces of at most `width` columns (wide characters count two). */
export function wrapByWidth(line: string, width: number): string[] {
  if (!hasControl(line) && Bun.stringWidth(line) <= width) return [line];
  const pieces: string[] = [];
  let piece = "";
  let used = 0;
  for (const ch of line) {
    const w = Bun.stringWidth(visible(ch));
    if (used + w > width && piece) {
      pieces.push(piece);
      piece = "";
      used = 0;
    }
    piece += ch;
    used += w;
  }
  pieces.push(piece);
  return pieces;
}

/**
 * The text as drawn: a tab as two spaces, any other control character but a newline (an escape
 * from a pasted text or a model's output, say) as "?", so no text can send the terminal a sequence.
 */
export function visible(text: string): string {
  return printable(text, { tab: "  ", newlines: true, replacement: "?" });
}

function charLengthBefore(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? 2 : 1;
}

function charLengthAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}
