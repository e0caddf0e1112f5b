// The terminal in raw mode: keys in, text out, and the terminal put back as it was on every way out
// (normal exit, a signal, a crash). No timer runs while nothing happens: the only one waits 30 ms to
// tell a lone Escape from the start of a sequence.
import { keyDecoder, type Key } from "./keys.ts";
import type { ScreenIO } from "./screen.ts";
import { out } from "../output.ts";

export type Terminal = {
  io: ScreenIO;
  onKeys(handler: (keys: Key[]) => void): void;
  onResize(handler: () => void): void;
  /** Back to cooked mode, cursor shown, bracketed paste off. Safe to call more than once. */
  restore(): void;
  /** The terminal is gone (SIGHUP): write nothing more. */
  detach(): void;
};

const ENTER = "\x1b[?2004h"; // bracketed paste on
const LEAVE = "\x1b[?2004l\x1b[?25h\x1b[0m"; // paste off, cursor visible, styles reset

export function openTerminal(fancy: boolean): Terminal {
  const stdin = process.stdin;
  const decoder = keyDecoder();
  // A character may be split between two reads: decode as a stream.
  const utf8 = new TextDecoder("utf-8");
  // Keys typed before the terminal's app is loaded wait for it.
  const early: Key[] = [];
  let keysHandler: (keys: Key[]) => void = (keys) => void early.push(...keys);
  let escapeTimer: ReturnType<typeof setTimeout> | undefined;
  let restored = false;
  let detached = false;

  const deliver = (keys: Key[]) => {
    if (keys.length > 0) keysHandler(keys);
  };
  const onData = (chunk: Buffer | string) => {
    if (escapeTimer) clearTimeout(escapeTimer);
    escapeTimer = undefined;
    deliver(decoder.push(typeof chunk === "string" ? chunk : utf8.decode(chunk, { stream: true })));
    if (decoder.waiting()) escapeTimer = setTimeout(() => ((escapeTimer = undefined), deliver(decoder.flushEscape())), 30);
  };

  const enter = () => {
    restored = false;
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.resume();
    if (fancy) out(ENTER);
  };
  const restore = () => {
    if (restored || detached) return;
    restored = true;
    if (escapeTimer) clearTimeout(escapeTimer);
    try {
      if (fancy) out(LEAVE);
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      // the terminal is gone (SIGHUP): nothing to restore
    }
    stdin.pause();
  };

  stdin.on("data", onData);
  process.on("exit", restore);
  enter();
  return {
    io: {
      write: (text) => {
        if (detached) return;
        try {
          out(text);
        } catch {
          detached = true; // EIO: the terminal closed before its SIGHUP arrived
        }
      },
      columns: () => process.stdout.columns || 80,
      rows: () => process.stdout.rows || 24,
    },
    onKeys: (handler) => {
      keysHandler = handler;
      if (early.length > 0) handler(early.splice(0));
    },
    onResize: (handler) => void process.stdout.on("resize", handler),
    restore,
    detach: () => {
      detached = true;
      stdin.pause();
    },
  };
}
