// What read, write and edit share about files: the stamp that tells whether a file changed since
// the model read it, file-system errors as instructions, and small text measures.
import type { Stats } from "node:fs";
import { readAllText, type FileAccess, type FileMemory, type FileStamp } from "rein/tool";
import { digestHex, hasher } from "../../src/sdk/digest.ts";

/** Files up to this size are remembered by their content too: a change that keeps size and mtime is seen. */
const HASHED_BYTES = 4 * 1024 * 1024;

/** The stamp of a file as it is now: its disk's time and size, and the text `access` gives hashed when it is small enough. */
export async function fileStamp(path: string, stat: Stats, access: FileAccess): Promise<FileStamp> {
  const stamp = { mtimeMs: stat.mtimeMs, size: stat.size };
  return stat.size > HASHED_BYTES ? stamp : { ...stamp, hash: hashOf(await readAllText(access, path)) };
}

/**
 * Passes a file's text through while hashing it, so a read that went to the end of the file has its
 * stamp without reading it again (`stamp` is undefined when the reader stopped early).
 */
export function stampingPieces(pieces: AsyncIterable<string>): { pieces: AsyncIterable<string>; stamp: (stat: Stats) => FileStamp | undefined } {
  const hash = hasher("sha256");
  let done = false;
  async function* through() {
    for await (const piece of pieces) {
      hash.update(piece);
      yield piece;
    }
    done = true;
  }
  return { pieces: through(), stamp: (stat) => (done ? { mtimeMs: stat.mtimeMs, size: stat.size, ...(stat.size > HASHED_BYTES ? {} : { hash: hash.digest("hex") }) } : undefined) };
}

/** The stamp of a file just written with `content`. */
export function writtenStamp(stat: Stats, content: string): FileStamp {
  return { mtimeMs: stat.mtimeMs, size: stat.size, ...(stat.size > HASHED_BYTES ? {} : { hash: hashOf(content) }) };
}

/** What was written to a file only an editor's buffer holds: its content, and no disk time (a later save differs). */
export function bufferedStamp(content: string): FileStamp {
  return { mtimeMs: -1, size: Buffer.byteLength(content), hash: hashOf(content) };
}

/** Why the model's view of an existing file cannot be trusted, if it cannot. */
export async function staleness(path: string, stat: Stats, files: FileMemory, access: FileAccess): Promise<"unread" | "changed" | undefined> {
  const seen = files.lastRead(path);
  if (!seen) return "unread";
  if (seen.mtimeMs !== stat.mtimeMs || seen.size !== stat.size) return "changed";
  if (seen.hash === undefined || stat.size > HASHED_BYTES) return undefined;
  return hashOf(await readAllText(access, path)) === seen.hash ? undefined : "changed";
}

function hashOf(content: string): string {
  return digestHex("sha256", content);
}

/** A failed file-system call, said as what went wrong and what to do about it. */
export function fsErrorText(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return `${path} does not exist. Check the path (glob can find files by name).`;
    case "EACCES":
    case "EPERM":
      return `Permission denied for ${path}. Choose a path you can access, or check its permissions with bash (ls -l).`;
    case "EISDIR":
      return `${path} is a directory: give a file path (use list or glob to see what the directory holds).`;
    case "ENOTDIR":
    case "EEXIST": // from mkdir: a file stands where a folder is needed
      return `A part of ${path} is a file, not a directory. Check the path.`;
    case "ENOSPC":
      return `No space left on the device holding ${path}.`;
    case "EROFS":
      return `${path} is on a read-only file system.`;
    default:
      return `Could not access ${path}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** Lines as an editor counts them: a final newline ends the last line, it does not start one. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return text.endsWith("\n") ? count - 1 : count;
}

/** Dice coefficient over character pairs: 1 for equal strings, near 0 for unrelated ones. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const pair = a.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const left = pairs.get(pair) ?? 0;
    if (left > 0) {
      pairs.set(pair, left - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}
