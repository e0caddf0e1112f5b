// The change an edit call would make, as diff lines, before it runs (the permission dialog). With the
// file's text the lines are a hunk of the file: where the first match is, with lines around it;
// without it (unreadable, or old_string not found) they come from old_string and new_string alone.

/** Unchanged lines kept on each side of the change. */
const CONTEXT = 2;

export function editPreviewLines(input: unknown, fileText?: string): string[] {
  const oldText = stringField(input, "old_string");
  const newText = stringField(input, "new_string");
  if (oldText === undefined || newText === undefined) return [];
  const all = typeof input === "object" && input !== null && (input as Record<string, unknown>).replace_all === true;
  const hunk = fileText === undefined ? undefined : fileHunk(lf(fileText), lf(oldText), lf(newText), all);
  if (hunk) return hunk;
  const lines = replacementLines(lf(oldText), lf(newText));
  return all ? ["@@ every occurrence @@", ...lines] : lines;
}

export function stringField(input: unknown, key: string): string | undefined {
  const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : undefined;
}

/** The whole lines the first match spans, before and after the replacement, with the file's lines around them. */
function fileHunk(text: string, from: string, to: string, all: boolean): string[] | undefined {
  const at = from === "" ? -1 : text.indexOf(from);
  if (at < 0) return undefined;
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const endAt = at + from.length;
  const newline = text.indexOf("\n", endAt);
  const end = newline < 0 ? text.length : newline;
  const fileLines = text.split("\n");
  if (text.endsWith("\n")) fileLines.pop(); // the last line's newline starts no line of its own
  const first = text.slice(0, start).split("\n").length - 1;
  const last = first + text.slice(start, end).split("\n").length;
  const before = fileLines.slice(Math.max(0, first - CONTEXT), first).map((line) => ` ${line}`);
  const after = fileLines.slice(last, last + CONTEXT).map((line) => ` ${line}`);
  const body = replacementLines(text.slice(start, end), text.slice(start, at) + to + text.slice(endAt, end));
  const lines = [...before, ...body, ...after];
  const oldCount = lines.filter((line) => !line.startsWith("+")).length;
  const newCount = lines.filter((line) => !line.startsWith("-")).length;
  const from1 = first - before.length + 1;
  const more = all ? occurrences(text, from) - 1 : 0;
  const header = `@@ -${from1},${oldCount} +${from1},${newCount} @@${more > 0 ? ` and ${more} more ${more === 1 ? "occurrence" : "occurrences"}` : ""}`;
  return [header, ...lines];
}

/** old -> new as diff lines: the lines both share at the start and the end are context (at most CONTEXT each side). */
function replacementLines(oldText: string, newText: string): string[] {
  const before = oldText.split("\n");
  const after = newText.split("\n");
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before.at(-1 - tail) === after.at(-1 - tail)) tail++;
  const context = (lines: string[]) => lines.map((line) => ` ${line}`);
  return [
    ...context(before.slice(Math.max(0, head - CONTEXT), head)),
    ...before.slice(head, before.length - tail).map((line) => `-${line}`),
    ...after.slice(head, after.length - tail).map((line) => `+${line}`),
    ...context(before.slice(before.length - tail, before.length - tail + CONTEXT)),
  ];
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) count++;
  return count;
}

function lf(text: string): string {
  return text.replaceAll("\r\n", "\n");
}
