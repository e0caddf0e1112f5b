// The terminal in raw mode: keys in, text out, and the terminal put back as it was on every way out
// (normal exit, a signal, a crash). No timer runs while nothing happens: the only one waits 30 ms to
// tell a lone Escape from the start of a sequence. Output works at once; keys start with `listen`,
// after the first paint, because building process.stdin and process.stdout costs Bun 5-10 ms.
import { keyDecoder, type Key } from "./keys.ts";
import type { ScreenIO } from "./screen.ts";
import { out } from "../../app/output.ts";

export type Terminal = {
  io: ScreenIO;
  /** Raw mode on and keys flowing; false when stdin is not a terminal after all. */
  listen(): boolean;
  /** Where keys go; until the first call they wait. */
  onKeys(handler: (keys: Key[]) => void): void;
  /** Keys wait again until the next onKeys. */
  holdKeys(): void;
  onResize(handler: () => void): void;
  /** Back to cooked mode, cursor shown, bracketed paste off. Safe to call more than once. */
  restore(): void;
  /** The terminal is gone (SIGHUP): write nothing more. */
  detach(): void;
  /** Ctrl-Z: the terminal as it was, the process stopped; raw mode again when the shell resumes it. */
  suspend(resumed: () => void): void;
  /** The terminal as it was while `run` has it (an editor), then raw mode again. */
  lend<T>(run: () => T): T;
};

const ENTER = "\x1b[?2004h"; // bracketed paste on
const LEAVE = "\x1b[?2004l\x1b[?25h\x1b[0m"; // paste off, cursor visible, styles reset

export function openTerminal(fancy: boolean): Terminal {
  let stdin: NodeJS.ReadStream | undefined;
  const decoder = keyDecoder();
  // A character may be split between two reads: decode as a stream.
  const utf8 = new TextDecoder("utf-8");
  // Keys typed before the terminal's app is loaded wait for it.
  const early: Key[] = [];
  let keysHandler: (keys: Key[]) => void = (keys) => void early.push(...keys);
  let escapeTimer: ReturnType<typeof setTimeout> | undefined;
  let restored = false;
  let detached = false;
  // The size needs process.stdout (several ms to build): the first paint, a prompt two columns
  // wide, does without it.
  let size: NodeJS.WriteStream | undefined;

  const write = (text: string) => {
    if (detached) return;
    try {
      out(text);
    } catch {
      detached = true; // EIO: the terminal closed before its SIGHUP arrived
    }
  };
  const deliver = (keys: Key[]) => {
    if (keys.length > 0) keysHandler(keys);
  };
  const onData = (chunk: Buffer | string) => {
    if (escapeTimer) clearTimeout(escapeTimer);
    escapeTimer = undefined;
    deliver(decoder.push(typeof chunk === "string" ? chunk : utf8.decode(chunk, { stream: true })));
    if (decoder.waiting()) escapeTimer = setTimeout(() => ((escapeTimer = undefined), deliver(decoder.flushEscape())), 30);
  };
  const restore = () => {
    if (restored || detached) return;
    restored = true;
    if (escapeTimer) clearTimeout(escapeTimer);
    try {
      if (fancy) out(LEAVE);
      if (stdin?.isTTY) stdin.setRawMode(false);
    } catch {
      // the terminal is gone (SIGHUP): nothing to restore
    }
    stdin?.pause();
  };

  const reenter = () => {
    if (detached) return;
    restored = false;
    if (stdin?.isTTY) stdin.setRawMode(true);
    stdin?.resume();
    if (fancy) write(ENTER);
  };

  process.on("exit", restore);
  if (fancy) write(ENTER);
  return {
    io: { write, columns: () => size?.columns || 80, rows: () => size?.rows || 24 },
    listen() {
      size = process.stdout;
      stdin = process.stdin;
      if (!stdin.isTTY) return false;
      // Keys typed while the prompt was being drawn wait in the tty's buffer and arrive now.
      stdin.setRawMode(true);
      stdin.on("data", onData);
      stdin.resume();
      return true;
    },
    onKeys: (handler) => {
      keysHandler = handler;
      if (early.length > 0) handler(early.splice(0));
    },
    holdKeys: () => void (keysHandler = (keys) => void early.push(...keys)),
    onResize: (handler) => void process.stdout.on("resize", handler),
    restore,
    detach: () => {
      detached = true;
      stdin?.pause();
    },
    suspend(resumed) {
      restore();
      process.once("SIGCONT", () => {
        reenter();
        resumed();
      });
      process.kill(process.pid, "SIGSTOP");
    },
    lend(run) {
      restore();
      try {
        return run();
      } finally {
        reenter();
      }
    },
  };
}
