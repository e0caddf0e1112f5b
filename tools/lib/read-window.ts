// Reads a window of a text's lines from its pieces (a file streamed in bounded chunks, or an
// editor's buffer whole): lines before the window are only scanned, a line keeps at most
// `maxLineChars` characters, and reading stops once the window is full. Memory stays bounded
// whatever the file's size or line lengths.

export type WindowOptions = {
  /** first line, 1-based */
  offset: number;
  limit: number;
  maxLineChars: number;
  /** total characters of line text the window may hold; at least one line is always kept */
  maxChars: number;
  signal?: AbortSignal;
};

export type LineWindow = {
  lines: { text: string; cut: boolean }[];
  /** a line follows the window (or may: see `unsure`) */
  more: boolean;
  /** the file's line count, known when the end of the file was reached */
  total?: number;
  /** the window's last line was cut and scanning for its end gave up before the end of the file */
  unsure: boolean;
};

// How far to look for the end of the window's last line when it was cut, to tell whether more follow.
const TAIL_SCAN_CHARS = 1024 * 1024;

export async function readWindow(pieces: AsyncIterable<string>, options: WindowOptions): Promise<LineWindow> {
  const { offset, maxLineChars, maxChars } = options;
  const last = offset + options.limit - 1;
  const lines: LineWindow["lines"] = [];
  let lineNo = 1;
  let started = false; // a character of line `lineNo` has been seen
  let current = ""; // the line so far, kept to one character more than shown (a \r, or proof of a cut)
  let overflow = false; // the line had more characters than `current` keeps
  let chars = 0;
  let tailScanned = -1; // bytes scanned since the window's last line turned out too long, or -1
  const more = (unsure = false): LineWindow => ({ lines, more: true, unsure });
  const finish = () => {
    const text = current.endsWith("\r") ? current.slice(0, -1) : current;
    return { text: text.slice(0, maxLineChars), cut: overflow || text.length > maxLineChars };
  };
  let first = true;
  for await (const text of pieces) {
    options.signal?.throwIfAborted();
    // A byte-order mark is not part of the first line.
    let start = first && text.startsWith("\uFEFF") ? 1 : 0;
    first = false;
    while (start < text.length) {
      if (lineNo > last) return more();
      started = true;
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      if (lineNo >= offset && !overflow) {
        const room = maxLineChars + 1 - current.length;
        current += text.slice(start, start + Math.min(room, end - start));
        overflow = end - start > room;
      }
      if (newline === -1) break;
      if (lineNo >= offset) {
        const line = finish();
        if (lines.length > 0 && chars + line.text.length > maxChars) return more();
        lines.push(line);
        chars += line.text.length;
      }
      current = "";
      overflow = false;
      started = false;
      tailScanned = -1;
      lineNo++;
      start = newline + 1;
    }
    if (lineNo === last && current.length > maxLineChars) {
      tailScanned = tailScanned < 0 ? 0 : tailScanned + text.length;
      if (tailScanned > TAIL_SCAN_CHARS) {
        lines.push(finish());
        return more(true);
      }
    }
  }
  if (started && lineNo >= offset && lineNo <= last) {
    const line = finish();
    if (lines.length > 0 && chars + line.text.length > maxChars) return more();
    lines.push(line);
  }
  return { lines, more: false, unsure: false, total: started ? lineNo : lineNo - 1 };
}
