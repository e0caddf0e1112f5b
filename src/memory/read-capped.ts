// Reads at most `cap` bytes of a file, so a 5 MB instruction file costs no more than a small one.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export type CappedText = { text: string; bytes: number; cut: boolean };

/** The file's first `cap` bytes (never more is read), cut back to a whole UTF-8 character; undefined when it cannot be read. */
export function readCapped(path: string, cap: number): CappedText | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const bytes = stat.size;
    const buffer = Buffer.alloc(Math.min(bytes, cap));
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const cut = bytes > cap;
    const kept = cut ? buffer.subarray(0, wholeCharEnd(buffer.subarray(0, length))) : buffer.subarray(0, length);
    return { text: kept.toString("utf8").trim(), bytes, cut };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Where the last whole UTF-8 character ends in bytes cut at an arbitrary point. */
function wholeCharEnd(bytes: Uint8Array): number {
  let end = bytes.length;
  let back = 0;
  while (end > 0 && back < 4 && (bytes[end - 1]! & 0xc0) === 0x80) {
    end--;
    back++;
  }
  if (end === 0) return bytes.length;
  const lead = bytes[end - 1]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return size === back + 1 ? bytes.length : end - 1;
}

export function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
