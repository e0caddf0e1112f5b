// The built-in search of one file: read in fixed chunks and tested line by line, so memory stays
// bounded by the limits whatever the file's size (a whole-file read fails past 2 GiB and doubles
// the file in memory as text). A line longer than `maxLineBytes` is tested in windows of that
// size, each overlapping the last by OVERLAP bytes. Files over `maxFileBytes` are not read.
import { open } from "node:fs/promises";

export type GrepLimits = {
  /** bigger files are skipped and reported */
  maxFileBytes: number;
  /** the longest piece of a line held in memory at once */
  maxLineBytes: number;
  /** bytes read at a time */
  chunkBytes: number;
};

const GiB = 1024 ** 3;
export const DEFAULT_LIMITS: GrepLimits = { maxFileBytes: 4 * GiB, maxLineBytes: 1024 * 1024, chunkBytes: 64 * 1024 };

const BINARY_PROBE = 8192;
const OVERLAP = 4096;
const MAX_TEXT = 1000;

/** `line` is 0 and `text` empty when only files are asked for. */
export type FileHit = { line: number; text: string };
export type FileSearch = { hits: FileHit[]; skippedBytes?: number };

export async function searchFile(path: string, regex: RegExp, content: boolean, limits: GrepLimits, signal: AbortSignal): Promise<FileSearch> {
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return { hits: [] };
  try {
    const { size } = await handle.stat();
    if (size > limits.maxFileBytes) return { hits: [], skippedBytes: size };
    return await scan(handle, regex, content, limits, signal);
  } catch {
    return { hits: [] }; // unreadable part way through (removed, an I/O error): as if unreadable
  } finally {
    await handle.close().catch(() => undefined);
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

async function scan(handle: Handle, regex: RegExp, content: boolean, limits: GrepLimits, signal: AbortSignal): Promise<FileSearch> {
  const buffer = Buffer.alloc(limits.chunkBytes);
  const decoder = new TextDecoder();
  const hits: FileHit[] = [];
  const line = new LineBuffer();
  let number = 1;
  let matched = false; // the current line already gave its hit
  const test = (bytes: Uint8Array) => {
    if (matched) return;
    const text = decoder.decode(bytes);
    if (!regex.test(text)) return;
    matched = true;
    // a window of a very long line is cut here already: only the start of a line is ever shown
    hits.push(content ? { line: number, text: text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text } : { line: 0, text: "" });
  };
  let probed = 0; // bytes checked for a NUL (a binary file) so far
  while (!signal.aborted) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (probed < BINARY_PROBE && chunk.subarray(0, BINARY_PROBE - probed).includes(0)) return { hits: [] };
    probed += bytesRead;
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      test(line.take(chunk.subarray(start, end)));
      if (matched && !content) return { hits };
      line.clear();
      [number, matched, start] = [number + 1, false, end + 1];
    }
    line.add(chunk.subarray(start));
    if (line.bytes > limits.maxLineBytes) {
      test(line.take());
      if (matched && !content) return { hits };
      line.keepTail(Math.min(OVERLAP, Math.floor(limits.maxLineBytes / 2)));
    }
  }
  if (line.bytes > 0) test(line.take());
  return { hits };
}

/** The bytes of the line being read, copied out of the reused chunk buffer. */
class LineBuffer {
  private parts: Uint8Array[] = [];
  bytes = 0;

  add(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.parts.push(Uint8Array.from(bytes));
    this.bytes += bytes.length;
  }

  /** The whole line so far, plus `last` (not copied). */
  take(last?: Uint8Array): Uint8Array {
    if (this.parts.length === 0) return last ?? new Uint8Array();
    const whole = Buffer.concat(last ? [...this.parts, last] : this.parts);
    this.parts = [whole];
    return whole;
  }

  clear(): void {
    this.parts = [];
    this.bytes = 0;
  }

  keepTail(bytes: number): void {
    const whole = this.take();
    const tail = Uint8Array.from(whole.subarray(Math.max(0, whole.length - bytes)));
    this.parts = [tail];
    this.bytes = tail.length;
  }
}
