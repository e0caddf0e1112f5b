// Reads at most `cap` bytes of a file, so a 5 MB instruction file costs no more than a small one;
// through the reader that never blocks on a named pipe (sdk/own-file.ts).
import { missingFile, readOwnBytes, readProblem } from "../sdk/own-file.ts";

export type CappedText = { text: string; bytes: number; cut: boolean };
/** Why a file was not read; `missing`: it does not exist (callers stay quiet about that). */
export type CappedProblem = { problem: string; missing: boolean };

/** The file's first `cap` bytes (never more is read), cut back to a whole UTF-8 character; or why it cannot be read. */
export function readCapped(path: string, cap: number): CappedText | CappedProblem {
  try {
    const { bytes: buffer, size, cut } = readOwnBytes(path, cap);
    const kept = cut ? buffer.subarray(0, wholeCharEnd(buffer)) : buffer;
    return { text: kept.toString("utf8").trim(), bytes: size, cut };
  } catch (error) {
    return { problem: readProblem(error), missing: missingFile(error) };
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
