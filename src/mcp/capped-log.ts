// A stdio server's stderr, appended to its log file up to a cap per start: past the cap one line
// says so and the rest is read and dropped (a server must never block on a full pipe, and a chatty
// or looping server must not fill the disk).
import { createWriteStream } from "node:fs";
import type { Readable } from "node:stream";

/** The most of one start's stderr kept in the log. */
export const LOG_CAP_BYTES = 5 * 1024 * 1024;

export function logStderr(stderr: Readable | null | undefined, file: string, header: string, cap = LOG_CAP_BYTES): void {
  const log = createWriteStream(file, { flags: "a", mode: 0o600 });
  log.on("error", () => {}); // a log that cannot be written loses the log, not the server
  log.write(header);
  if (!stderr) return;
  let written = 0;
  let full = false;
  stderr.on("data", (chunk: Buffer) => {
    if (full) return;
    const room = cap - written;
    if (chunk.length <= room) {
      written += chunk.length;
      log.write(chunk);
      return;
    }
    full = true;
    if (room > 0) log.write(chunk.subarray(0, room));
    log.write(`\n--- rein: the rest of this start's stderr is not logged (${cap / 1024 / 1024} MiB per start at most)\n`);
  });
  stderr.on("end", () => log.end());
  stderr.on("error", () => log.end());
}
