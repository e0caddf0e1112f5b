// Splits a byte stream into newline-terminated lines with a bound on a line's length. Each chunk is
// searched once and the pieces of an unfinished line are only joined when its newline comes, so a
// long line costs linear time (a buffer concatenated with every chunk costs quadratic time).
export class LineReader {
  private pieces: Buffer[] = [];
  private pending = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Takes a chunk and hands on every line it finishes; false when the unfinished line is past the bound (the rest is dropped). */
  push(chunk: Buffer): boolean {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline >= 0; newline = rest.indexOf(10)) {
      if (this.pending + newline > this.maxLineBytes) return this.overflow();
      const line = this.pieces.length === 0 ? rest.subarray(0, newline) : Buffer.concat([...this.pieces, rest.subarray(0, newline)]);
      this.pieces = [];
      this.pending = 0;
      rest = rest.subarray(newline + 1);
      const text = line.toString("utf8");
      this.onLine(text.endsWith("\r") ? text.slice(0, -1) : text);
    }
    if (rest.length === 0) return true;
    if (this.pending + rest.length > this.maxLineBytes) return this.overflow();
    this.pieces.push(rest);
    this.pending += rest.length;
    return true;
  }

  private overflow(): false {
    this.pieces = [];
    this.pending = 0;
    return false;
  }
}
