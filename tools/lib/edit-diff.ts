// The unified diff of a string replacement. The edit knows where each replacement landed, so no
// general diff algorithm is needed: each match gives a pair of line ranges (old, new) that differ,
// pairs close together share a hunk, and unchanged lines around them are context.

type Change = { oldStart: number; oldEnd: number; newStart: number; newEnd: number };

/**
 * Hunks (`@@ -a,b +c,d @@` and their lines) for replacing `oldLength` characters at each of
 * `matches` (ascending offsets in `before`) with `replacement`, giving `after`.
 */
export function editDiff(before: string, after: string, matches: number[], oldLength: number, replacement: string, context = 3): string {
  const oldLines = before.split("\n");
  const newLines = after.split("\n");
  const oldLine = lineIndexer(before);
  const newLine = lineIndexer(after);
  const shift = replacement.length - oldLength;
  const changes: Change[] = [];
  matches.forEach((at, i) => {
    const moved = at + i * shift;
    const change = {
      oldStart: oldLine(at),
      oldEnd: oldLine(at + oldLength) + 1,
      newStart: newLine(moved),
      newEnd: newLine(moved + replacement.length) + 1,
    };
    trimUnchanged(change, oldLines, newLines);
    if (change.oldStart < change.oldEnd || change.newStart < change.newEnd) changes.push(change);
  });
  const realOldLines = before.endsWith("\n") ? oldLines.length - 1 : oldLines.length;
  return groupIntoHunks(changes, context).map((hunk) => formatHunk(hunk, oldLines, newLines, realOldLines, context)).join("\n");
}

/** Keeps only the lines that differ: lines at either end of a change that are equal in both are context. */
function trimUnchanged(change: Change, oldLines: string[], newLines: string[]): void {
  while (change.oldStart < change.oldEnd && change.newStart < change.newEnd && oldLines[change.oldStart] === newLines[change.newStart]) {
    change.oldStart++;
    change.newStart++;
  }
  while (change.oldStart < change.oldEnd && change.newStart < change.newEnd && oldLines[change.oldEnd - 1] === newLines[change.newEnd - 1]) {
    change.oldEnd--;
    change.newEnd--;
  }
}

function groupIntoHunks(changes: Change[], context: number): Change[][] {
  const hunks: Change[][] = [];
  for (const change of changes) {
    const hunk = hunks.at(-1);
    const previous = hunk?.at(-1);
    if (hunk && previous && change.oldStart - previous.oldEnd <= 2 * context) hunk.push(change);
    else hunks.push([change]);
  }
  return hunks;
}

function formatHunk(hunk: Change[], oldLines: string[], newLines: string[], realOldLines: number, context: number): string {
  const first = hunk[0]!;
  const last = hunk.at(-1)!;
  const from = Math.max(0, first.oldStart - context);
  const to = Math.min(realOldLines, last.oldEnd + context);
  const body: string[] = oldLines.slice(from, first.oldStart).map((line) => ` ${line}`);
  let previousEnd = first.oldStart;
  for (const change of hunk) {
    for (const line of oldLines.slice(previousEnd, change.oldStart)) body.push(` ${line}`);
    for (const line of oldLines.slice(change.oldStart, change.oldEnd)) body.push(`-${line}`);
    for (const line of newLines.slice(change.newStart, change.newEnd)) body.push(`+${line}`);
    previousEnd = change.oldEnd;
  }
  for (const line of oldLines.slice(last.oldEnd, to)) body.push(` ${line}`);
  const oldCount = Math.max(to, last.oldEnd) - from;
  const grown = hunk.reduce((sum, c) => sum + (c.newEnd - c.newStart) - (c.oldEnd - c.oldStart), 0);
  const newFrom = first.newStart - (first.oldStart - from);
  return [`@@ -${from + 1},${oldCount} +${newFrom + 1},${oldCount + grown} @@`, ...body].join("\n");
}

/** Line index (0-based) of a character offset; calls must come with offsets that never decrease. */
function lineIndexer(text: string): (offset: number) => number {
  let line = 0;
  let next = text.indexOf("\n");
  return (offset) => {
    while (next !== -1 && next < offset) {
      line++;
      next = text.indexOf("\n", next + 1);
    }
    return line;
  };
}
