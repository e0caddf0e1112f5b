// The transcript hooks read (`transcript_path`): the session's events as JSONL, appended as they
// happen. The file stays open while events come (a run writes several per tool call) and is closed
// when the session rests; each line is written whole at once, so a hook reading it mid-run sees
// every event up to the call it was fired for.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export class TranscriptFile {
  private fd: number | undefined;
  private broken = false;

  constructor(readonly path: string) {}

  append(event: unknown): void {
    if (this.broken) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(dirname(this.path), { recursive: true });
        this.fd = openSync(this.path, "a");
      }
      writeSync(this.fd, `${JSON.stringify(event)}\n`);
    } catch {
      // the transcript is a convenience for hooks; the store keeps the session
      this.broken = true;
    }
  }

  /** Closes the file until the next event (a run ended, the session is let go). */
  rest(): void {
    this.broken = false; // a folder removed meanwhile is made again at the next event
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already gone
    }
    this.fd = undefined;
  }
}
