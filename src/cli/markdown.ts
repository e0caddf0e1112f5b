// Streaming Markdown to ANSI for the interactive terminal: each completed line is rendered on arrival,
// the unfinished one waits raw. Only the pending line and the open code block are kept, never the whole answer.
import { Chalk, type ChalkInstance } from "chalk";
import { codeHighlighter, type Highlight } from "./highlight.ts";
import { tableRows } from "./markdown-table.ts";
import { printable } from "./printable.ts";

export type MarkdownOptions = { width: number; color: boolean };
export type MarkdownRenderer = {
  /** feed a text delta; returns the rendered terminal lines (no trailing "\n") completed by it */
  push(text: string): string[];
  /** the text after the last newline, as typed so far (raw, unrendered, never containing "\n") */
  pending(): string;
  /** end of the message: renders and returns what is pending (and closes an open code block) */
  flush(): string[];
  /** change the width for lines rendered from now on (terminal resize) */
  resize(width: number): void;
};

type Fence = { char: string; size: number; indent: number; highlight: Highlight };

const MIN_WIDTH = 20;
const MAX_RULE = 80;
/** Nested quotes and lists never squeeze prose below this many columns (a deep enough nest overflows instead). */
const MIN_ROOM = 10;
const MAX_TABLE_ROWS = 100;

const FENCE_OPEN = /^( *)(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;
const FENCE_CLOSE = /^ *(`{3,}|~{3,})[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^( *)> ?(.*)$/;
const LIST = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TASK = /^\[([ xX])\](?:[ \t]+(.*))?$/;
const TABLE_ROW = /^ *\|/;
const PIPE = /(^|[^\\])\|/;
/** a table's rule row without outer pipes: `--- | :---:` (two columns at least) */
const BARE_RULE = /^ *\|? *:?-+:? *(\| *:?-+:? *)+\|? *$/;
const INDENT = /^( *)(.*)$/;

export function markdownRenderer(options: MarkdownOptions): MarkdownRenderer {
  const style = new Chalk({ level: options.color ? 1 : 0 });
  let width = Math.max(MIN_WIDTH, options.width);
  let pending = "";
  let fence: Fence | undefined;
  /** the rows of the table being read: it is laid out once it ends (its column widths need every row) */
  let table: string[] = [];
  /** a line with a pipe, held until the next line says whether it heads a table */
  let candidate: string | undefined;

  const endTable = (): string[] => {
    if (table.length === 0) return [];
    const rows = tableRows(table, width, style, (cell) => inline(cell, style));
    table = [];
    return rows;
  };

  const renderLine = (raw: string): string[] => {
    // tabs as four spaces, other control characters dropped: a stray escape from the model must not reach the terminal
    const line = printable(raw, { tab: "    " });
    if (fence) return codeLine(line, fence);
    if (candidate !== undefined) {
      const header = candidate;
      candidate = undefined;
      if (BARE_RULE.test(line)) return addRow(header, line);
      return [...outsideTable(header), ...renderLine(line)];
    }
    if (TABLE_ROW.test(line) || (table.length > 0 && line.includes("|") && line.trim() !== "")) return addRow(line);
    // `a | b` may be the header of a table written without outer pipes: the next line tells.
    if (PIPE.test(line) && !FENCE_OPEN.test(line)) {
      const before = endTable();
      candidate = line;
      return before;
    }
    return outsideTable(line);
  };

  const addRow = (...rows: string[]): string[] => {
    table.push(...rows);
    // A very long table is laid out in parts rather than held back to its end.
    return table.length >= MAX_TABLE_ROWS ? endTable() : [];
  };

  const outsideTable = (line: string): string[] => {
    const before = endTable();
    const open = FENCE_OPEN.exec(line);
    if (open) {
      const [, indent = "", marker = "", lang = ""] = open;
      fence = { char: marker[0] ?? "`", size: marker.length, indent: indent.length, highlight: codeHighlighter(lang, style) };
      return [...before, style.dim(`${indent}╭─ ${lang}`.trimEnd())];
    }
    return [...before, ...block(line, width, style)];
  };

  const codeLine = (line: string, open: Fence): string[] => {
    const close = FENCE_CLOSE.exec(line);
    if (close?.[1]?.[0] === open.char && close[1].length >= open.size) return closeFence(open);
    const indent = Math.min(open.indent, line.length - line.trimStart().length);
    return [`${" ".repeat(open.indent + 2)}${open.highlight(line.slice(indent))}`];
  };

  const closeFence = (open: Fence): string[] => {
    fence = undefined;
    return [style.dim(`${" ".repeat(open.indent)}╰─`)];
  };

  return {
    push(text) {
      if (!text.includes("\n")) {
        pending += text;
        return [];
      }
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      return lines.flatMap((line) => renderLine(line.endsWith("\r") ? line.slice(0, -1) : line));
    },
    pending: () => pending,
    flush() {
      const rows = [...(pending === "" ? [] : renderLine(pending)), ...(candidate === undefined ? [] : outsideTable(candidate)), ...endTable()];
      candidate = undefined;
      pending = "";
      return fence ? [...rows, ...closeFence(fence)] : rows;
    },
    resize(next) {
      width = Math.max(MIN_WIDTH, next);
    },
  };
}

/** One line outside a code block: a heading, rule, quote, list item or paragraph, wrapped to `width`. */
function block(line: string, width: number, style: ChalkInstance): string[] {
  if (line.trim() === "") return [""];
  const heading = HEADING.exec(line);
  if (heading) {
    const text = inline(heading[2] ?? "", style);
    return wrap(heading[1] === "#" ? style.bold.underline(text) : style.bold(text), width, "", "");
  }
  if (RULE.test(line)) return [style.dim("─".repeat(Math.min(width, MAX_RULE)))];
  const quote = QUOTE.exec(line);
  if (quote) {
    const [, indent = "", inner = ""] = quote;
    const bar = `${indent}${style.dim("│ ")}`;
    return block(inner, width - indent.length - 2, style).map((row) => bar + row);
  }
  const item = LIST.exec(line);
  if (item) {
    const [, indent = "", marker = "", rest = ""] = item;
    const task = TASK.exec(rest);
    const bullet = task ? (task[1] === " " ? "☐" : "☑") : /\d/.test(marker) ? marker : "•";
    const lead = `${indent}${bullet} `;
    return wrap(inline(task ? (task[2] ?? "") : rest, style), width, lead, " ".repeat(Bun.stringWidth(lead)));
  }
  const [, indent = "", text = ""] = INDENT.exec(line) ?? [];
  return wrap(inline(text, style), width, indent, indent);
}

/**
 * Wraps styled text under a first-row prefix and a continuation prefix of the same width.
 * Bun.wrapAnsi (1.4) re-opens only the innermost style on a continuation row, so the plain text is
 * wrapped and each row is cut from the styled text with Bun.sliceAnsi, which re-opens every style.
 */
function wrap(styled: string, width: number, first: string, rest: string): string[] {
  const room = Math.max(MIN_ROOM, width - Bun.stringWidth(rest));
  const plain = Bun.stripANSI(styled);
  if (Bun.stringWidth(plain) <= room) return [first + styled];
  const rows: string[] = [];
  let index = 0;
  let column = 0;
  for (const row of Bun.wrapAnsi(plain, room, { hard: true }).split("\n")) {
    let start = index;
    while (start < plain.length && !plain.startsWith(row, start) && /\s/.test(plain[start] ?? "")) start++;
    if (!plain.startsWith(row, start)) return Bun.wrapAnsi(styled, room, { hard: true }).split("\n").map((r, i) => (i ? rest : first) + r);
    column += Bun.stringWidth(plain.slice(index, start));
    const end = column + Bun.stringWidth(row);
    rows.push((rows.length ? rest : first) + Bun.sliceAnsi(styled, column, end));
    index = start + row.length;
    column = end;
  }
  return rows;
}

// Private-use characters stand in for finished pieces (code spans, links, escapes, emphasis) while the rest is scanned.
const SLOT = 0xe000;
const SLOTS = 0x1900;
const SLOT_CHAR = /[\ue000-\uf8ff]/g;
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const LINK = /!?\[([^\]\n]*)\]\([ \t]*<?([^)\s>]*)>?(?:[ \t]+(?:"[^"]*"|'[^']*'))?[ \t]*\)/y;
const AUTOLINK = /<((?:https?|mailto):[^>\s]+)>/y;
const BOLD = /\*\*(?=\S)([^]*?\S)\*\*|(?<![\p{L}\p{N}_\\])__(?=\S)([^]*?\S)__(?![\p{L}\p{N}_])/gu;
const STRIKE = /~~(?=\S)([^]*?\S)~~/g;
const ITALIC = /(?<![\p{L}\p{N}*\\])\*(?=[^\s*])([^]*?[^\s*])\*(?![\p{L}\p{N}*])|(?<![\p{L}\p{N}_\\])_(?=[^\s_])([^]*?[^\s_])_(?![\p{L}\p{N}_])/gu;

/** Inline markup of one line: `code`, **bold**, *italic*, ~~strike~~, [links](url), \escapes. */
function inline(text: string, style: ChalkInstance): string {
  const saved: string[] = [];
  const keep = (piece: string): string => {
    if (saved.length >= SLOTS) return piece;
    return String.fromCharCode(SLOT + saved.push(piece) - 1);
  };
  const emphasis = (s: string): string =>
    s
      .replace(BOLD, (_, a?: string, b?: string) => keep(style.bold(emphasis(a ?? b ?? ""))))
      .replace(STRIKE, (_, a: string) => keep(style.strikethrough(emphasis(a))))
      .replace(ITALIC, (_, a?: string, b?: string) => keep(style.italic(emphasis(a ?? b ?? ""))));
  const restore = (s: string): string => s.replace(SLOT_CHAR, (c) => restore(saved[c.charCodeAt(0) - SLOT] ?? c));

  let out = "";
  for (let i = 0; i < text.length; ) {
    const ch = text[i] ?? "";
    const next = text[i + 1] ?? "";
    if (ch === "\\" && ESCAPABLE.test(next)) {
      out += keep(next);
      i += 2;
    } else if (ch === "`") {
      const [piece, end] = codeSpan(text, i);
      out += end > i ? keep(style.cyan(piece)) : piece;
      i = Math.max(end, i + piece.length);
    } else if (ch === "[" || (ch === "!" && next === "[")) {
      const link = matchAt(LINK, text, i);
      out += link ? keep(linkText(link[1] ?? "", link[2] ?? "", style)) : ch;
      i += link ? (link[0]?.length ?? 1) : 1;
    } else if (ch === "<") {
      const link = matchAt(AUTOLINK, text, i);
      out += link ? keep(style.dim.underline(link[1] ?? "")) : ch;
      i += link ? (link[0]?.length ?? 1) : 1;
    } else {
      // a private-use character already in the text is kept as itself, not read as a slot
      out += ch >= "\ue000" && ch <= "\uf8ff" ? keep(ch) : ch;
      i++;
    }
  }
  return restore(emphasis(out));
}

/** A code span opening at `start`: its content and the index after it, or the bare backtick run and `start` when unclosed. */
function codeSpan(text: string, start: number): [string, number] {
  let open = start;
  while (text[open] === "`") open++;
  const ticks = text.slice(start, open);
  for (let close = text.indexOf(ticks, open); close >= 0; close = text.indexOf(ticks, close + 1)) {
    let after = close + ticks.length;
    if (text[after] === "`") {
      while (text[after] === "`") after++;
      close = after - 1;
      continue;
    }
    const content = text.slice(open, close);
    const padded = content.length > 2 && content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "";
    return [padded ? content.slice(1, -1) : content, after];
  }
  return [ticks, start];
}

function linkText(label: string, url: string, style: ChalkInstance): string {
  const shown = style.dim.underline(url);
  if (label === "" || label === url) return shown;
  return url === "" ? inline(label, style) : `${inline(label, style)} (${shown})`;
}

function matchAt(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index;
  return pattern.exec(text);
}
