// Why an edit's old_string did not match, said so the model can fix it: read's line numbers copied
// along, a match that differs only in whitespace, or else the lines most like its first line.
import { similarity } from "./text-file.ts";

const MAX_SHOWN_LINES = 10;
const MAX_SHOWN_CHARS = 200;
const MAX_SUGGESTIONS = 3;
const MIN_SIMILARITY = 0.5;
// Scoring looks at this much of each line, so a file of huge lines stays cheap.
const SCORED_CHARS = 300;

export function notFoundText(path: string, text: string, oldString: string): string {
  const notFound = `old_string was not found in ${path}.`;
  const wanted = oldString.split("\n");
  if (wanted.filter((line) => line.trim() !== "").every((line) => /^\s*\d+\t/.test(line))) {
    return `${notFound} Its lines start with line numbers copied from read's output; copy only the text after the number and tab.`;
  }
  const lines = text.split("\n");
  const loose = looseMatch(lines, wanted);
  if (loose) {
    const [from, to] = loose;
    return `${notFound} It matches lines ${from}-${to} if whitespace is ignored, so its indentation or spacing differs. The file has:\n${numbered(lines, from, Math.min(to, from + MAX_SHOWN_LINES - 1))}\nCopy that text exactly into old_string and edit again.`;
  }
  const first = wanted.find((line) => line.trim() !== "")?.trim() ?? "";
  const near = closestLines(lines, first);
  if (near.length === 0) {
    return `${notFound} No line resembles its first line; the file may have changed. Read it again and copy the exact text to replace.`;
  }
  const shown = near.map((n) => numbered(lines, n, n)).join("\n");
  return `${notFound} The lines most like its first line are:\n${shown}\nRead the file around them and copy the exact text into old_string.`;
}

/** 1-based first and last line where the wanted lines match with all whitespace runs made equal. */
function looseMatch(lines: string[], wanted: string[]): [number, number] | undefined {
  const squash = (line: string) => line.trim().replace(/\s+/g, " ");
  const target = trimBlank(wanted.map(squash));
  if (target.length === 0) return undefined;
  const squashed = lines.map(squash);
  for (let i = 0; i + target.length <= squashed.length; i++) {
    if (target.every((line, j) => squashed[i + j] === line)) return [i + 1, i + target.length];
  }
  return undefined;
}

function closestLines(lines: string[], first: string): number[] {
  if (first === "") return [];
  const wanted = first.slice(0, SCORED_CHARS);
  return lines
    .map((line, i) => ({ n: i + 1, score: similarity(line.trim().slice(0, SCORED_CHARS), wanted) }))
    .filter(({ score }) => score >= MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score || a.n - b.n)
    .slice(0, MAX_SUGGESTIONS)
    .map(({ n }) => n)
    .sort((a, b) => a - b);
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === "") start++;
  while (end > start && lines[end - 1] === "") end--;
  return lines.slice(start, end);
}

function numbered(lines: string[], from: number, to: number): string {
  const shown: string[] = [];
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1] ?? "";
    shown.push(`${String(n).padStart(6)}\t${line.length > MAX_SHOWN_CHARS ? `${line.slice(0, MAX_SHOWN_CHARS)}…` : line}`);
  }
  return shown.join("\n");
}
