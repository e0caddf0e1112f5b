// A Markdown table laid out for the terminal: columns as wide as their widest cell (each cell's
// inline markup rendered), aligned as the rule row says, and narrowed to the terminal's width, with
// cells wrapped inside their column when the table is too wide.
import type { ChalkInstance } from "chalk";

type Align = "left" | "right" | "center";

/** Columns never get narrower than this when the table is squeezed into the terminal. */
const MIN_COLUMN = 6;
const RULE_CELL = /^ *:?-+:? *$/;

/** Rows for the table's source lines (each starting with `|`); `inline` renders a cell's markup. */
export function tableRows(lines: readonly string[], width: number, style: ChalkInstance, inline: (text: string) => string): string[] {
  const parsed = lines.map(cells);
  const ruleAt = parsed.length > 1 && parsed[1]!.every((cell) => RULE_CELL.test(cell)) ? 1 : -1;
  const aligns = ruleAt === 1 ? parsed[1]!.map(alignOf) : [];
  const body = parsed.filter((_, i) => i !== ruleAt).map((row) => row.map((cell) => inline(cell.trim())));
  const columns = Math.max(...body.map((row) => row.length));
  const natural = Array.from({ length: columns }, (_, c) => Math.max(1, ...body.map((row) => Bun.stringWidth(row[c] ?? ""))));
  const widths = fitWidths(natural, width - (columns - 1) * 3 - 2);
  const bar = style.dim("│");
  const rows: string[] = [];
  body.forEach((row, r) => {
    const header = ruleAt === 1 && r === 0;
    const wrapped = widths.map((w, c) => Bun.wrapAnsi(row[c] ?? "", w, { hard: true, trim: true }).split("\n"));
    const height = Math.max(...wrapped.map((cell) => cell.length));
    for (let line = 0; line < height; line++) {
      const last = widths.length - 1;
      // The last column is not padded out when left-aligned: no trailing blanks on the row.
      const shown = widths.map((w, c) => (c === last && (aligns[c] ?? "left") === "left" ? (wrapped[c]![line] ?? "") : pad(wrapped[c]![line] ?? "", w, aligns[c] ?? "left")));
      rows.push(` ${shown.map((cell) => (header ? style.bold(cell) : cell)).join(` ${bar} `)}`);
    }
    if (header) rows.push(style.dim(`─${widths.map((w) => "─".repeat(w)).join("─┼─")}─`));
  });
  return rows;
}

/** The cells of `| a | b \| c |`: split on pipes that are not escaped, without the outer ones. */
function cells(line: string): string[] {
  const found: string[] = [];
  let cell = "";
  const text = line.trim().replace(/^\|/, "");
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && text[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (ch === "|") {
      found.push(cell);
      cell = "";
    } else cell += ch;
  }
  if (!/(^|[^\\])\|$/.test(text)) found.push(cell);
  return found;
}

function alignOf(rule: string): Align {
  const cell = rule.trim();
  if (cell.startsWith(":") && cell.endsWith(":")) return "center";
  return cell.endsWith(":") ? "right" : "left";
}

/** Narrows the widest columns first until the table fits in `room` columns (or every column is at its minimum). */
function fitWidths(natural: number[], room: number): number[] {
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) - room;
  while (excess > 0) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]!--;
    excess--;
  }
  return widths;
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - Bun.stringWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
  return text + " ".repeat(gap);
}
