// Writes to stdout and stderr with synchronous, ordered writes on the file descriptors. Bun 1.4
// spends about 15-20 ms building `process.stdout`/`process.stderr` the first time they are
// touched, which is most of a one-shot run; print mode and the subcommands never touch them.
import { fstatSync, statSync, writeSync } from "node:fs";
import { OutputError } from "./known-fault.ts";

export function out(text: string): void {
  writeAll(1, text);
}

export function err(text: string): void {
  writeAll(2, text);
}

/** `rein: message` on stderr. */
export function warn(message: string): void {
  err(`rein: ${message}\n`);
}

/**
 * Whether stdin and stdout both look like terminals: character devices other than /dev/null. Only
 * the interactive path asks, and it must not pay for node:tty or process.stdin (5-10 ms) before
 * its prompt is drawn; the terminal confirms with isTTY once the prompt is up.
 */
export async function bothTerminals(): Promise<boolean> {
  // Windows has no /dev/null to compare with: ask the streams.
  if (process.platform === "win32") return process.stdin.isTTY === true && process.stdout.isTTY === true;
  try {
    const nul = statSync("/dev/null").rdev;
    return [0, 1].every((fd) => {
      const stat = fstatSync(fd);
      return stat.isCharacterDevice() && stat.rdev !== nul;
    });
  } catch {
    return false;
  }
}

/**
 * Whether stdin can carry piped input: a pipe, a socket or a file. A character device is a terminal
 * (never read without being asked) or /dev/null (nothing to read); fstat tells without node:tty.
 */
export function stdinIsPiped(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false; // closed
  }
}

function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      const written = writeSync(fd, bytes);
      bytes = bytes.subarray(written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") continue; // a non-blocking pipe that is full: try again
      if (code === "EPIPE") return; // the reader went away (`rein ... | head`): nothing left to tell
      // stderr carries progress and warnings: where it cannot be written, the run goes on without them.
      if (fd === 2) return;
      throw new OutputError("stdout", code ?? "EIO"); // /dev/full: ENOSPC
    }
  }
}
