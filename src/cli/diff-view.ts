// What an edit changed, as coloured diff rows under its tool line. edit's unified diff comes in
// tool_end.metadata.diff; write has no diff, so the start of the new content is shown as added.
import { printable } from "./printable.ts";
import { fitColumns, paint, type Styles } from "./tool-line.ts";

/** Rows to print under an edit or write line: at most `maxRows` diff rows, then "… N more lines"; [] when there is nothing to show. */
export function diffRows(
  name: string,
  input: unknown,
  metadata: Record<string, unknown> | undefined,
  width: number,
  maxRows: number,
  s: Styles,
): string[] {
  const lines = diffLines(name, input, metadata);
  if (lines.length === 0) return [];
  const c = paint(s);
  const shown = lines.slice(0, Math.max(0, maxRows)).map((line) => {
    const row = fitColumns(printable(line, { tab: "  " }), width);
    if (line.startsWith("@@")) return c.cyan(row);
    if (line.startsWith("+")) return c.green(row);
    if (line.startsWith("-")) return c.red(row);
    return c.dim(row);
  });
  const rest = lines.length - shown.length;
  if (rest > 0) shown.push(c.dim(fitColumns(`… ${rest} more ${rest === 1 ? "line" : "lines"}`, width)));
  return shown;
}

function diffLines(name: string, input: unknown, metadata: Record<string, unknown> | undefined): string[] {
  if (name === "edit") {
    const diff = metadata?.diff;
    return typeof diff === "string" ? withoutHeader(diff.split("\n")) : [];
  }
  if (name === "write") {
    const content = typeof input === "object" && input !== null ? (input as Record<string, unknown>).content : undefined;
    if (typeof content !== "string" || content === "") return [];
    const lines = content.replaceAll("\r\n", "\n").split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.map((line) => `+${line}`);
  }
  return [];
}

/** Drops the `---`/`+++` lines before the first hunk (a removed line "-- x" later reads "--- x" and stays). */
function withoutHeader(lines: string[]): string[] {
  const firstHunk = lines.findIndex((line) => line.startsWith("@@"));
  const body = firstHunk === -1 ? lines.filter((line) => !/^(---|\+\+\+) /.test(line)) : lines.slice(firstHunk);
  return body.at(-1) === "" ? body.slice(0, -1) : body;
}

