// The one reader for files rein opens on its own (instructions, imports, memory, skills, agents,
// commands, settings, plugins, config, its own data). A named pipe nobody writes would block a
// plain open() for ever, on the main thread, where no signal handler can run: so the path must be
// a regular file before it is opened, the open cannot block (O_NONBLOCK, O_NOCTTY: a FIFO swapped
// in between opens at once, a terminal is never made ours), and the opened descriptor is checked
// again. Reads of a regular file never wait on a writer.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from "node:fs";

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const CHUNK = 64 * 1024;

/** Thrown for a path that exists but is not a regular file (a FIFO, socket, device, folder). */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file; rein reads only regular files there`);
  }
}

export type OwnBytes = { bytes: Buffer; size: number; cut: boolean };

/**
 * The file's bytes, at most `cap` of them (`cut` says the file is longer; `size` is its length).
 * Throws what a read throws (ENOENT, EACCES...) and NotRegularFileError for what is not a regular file.
 */
export function readOwnBytes(path: string, cap = Number.POSITIVE_INFINITY): OwnBytes {
  requireRegular(path, statSync(path));
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    requireRegular(path, stat);
    return readUpTo(fd, stat.size, cap);
  } finally {
    closeSync(fd);
  }
}

/** The file's whole text (UTF-8), with readOwnBytes's checks. */
export function readOwnText(path: string): string {
  requireRegular(path, statSync(path));
  const fd = openSync(path, OPEN_FLAGS);
  try {
    requireRegular(path, fstatSync(fd));
    // One native read and decode of the checked descriptor: about half the cost of reading into a buffer and decoding it.
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Whether a read failed because the file is absent (ENOENT, or ENOTDIR: a parent is a file). */
export function missingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** One short clause saying why a read failed: "it is a named pipe (FIFO), not a regular file", "cannot read it (EACCES)". */
export function readProblem(error: unknown): string {
  if (error instanceof NotRegularFileError) return `it is ${error.kind}, not a regular file`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return `cannot read it (${code ?? String(error)})`;
}

function requireRegular(path: string, stat: Stats): void {
  if (!stat.isFile()) throw new NotRegularFileError(path, kindOf(stat));
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isDirectory()) return "a folder";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a plain file";
}

/** Reads until EOF or `cap`: a file that grew since fstat is read as far as the cap allows. */
function readUpTo(fd: number, size: number, cap: number): OwnBytes {
  // One byte past the size: the read that finds EOF needs no larger buffer (no copy, no extra read).
  let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size ? size + 1 : CHUNK, cap)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= cap) break;
      const grown = Buffer.allocUnsafe(Math.min(cap, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) break;
    length += read;
  }
  const cut = length >= cap && size > cap ? true : length >= cap && readSync(fd, Buffer.alloc(1), 0, 1, length) > 0;
  return { bytes: buffer.subarray(0, length), size: Math.max(size, length), cut };
}
