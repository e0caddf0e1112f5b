import { describe, expect, test } from "bun:test";
import { type Key, keyDecoder } from "../../../../src/cli/term/keys.ts";

/** Every key one decoder gives for these chunks, pushed in order. */
function decode(...chunks: string[]): Key[] {
  const decoder = keyDecoder();
  return chunks.flatMap((chunk) => decoder.push(chunk));
}

/** Joins adjacent text keys: how text is chunked into keys does not matter to the editor. */
function merged(keys: Key[]): Key[] {
  const out: Key[] = [];
  for (const key of keys) {
    const last = out.at(-1);
    if (key.name === "text" && last?.name === "text") out[out.length - 1] = { name: "text", text: last.text + key.text };
    else out.push(key);
  }
  return out;
}

describe("keyDecoder: plain keys", () => {
  test("plain text is one text key", () => {
    expect(decode("hello world")).toEqual([{ name: "text", text: "hello world" }]);
  });

  test("Enter as \\r, and \\r\\n as one Enter", () => {
    expect(decode("\r")).toEqual([{ name: "enter" }]);
    expect(decode("ab\r\ncd")).toEqual([{ name: "text", text: "ab" }, { name: "enter" }, { name: "text", text: "cd" }]);
    expect(decode("\r\r")).toEqual([{ name: "enter" }, { name: "enter" }]);
  });

  test("Ctrl-J is a newline, not an Enter", () => {
    expect(decode("\n")).toEqual([{ name: "newline" }]);
  });

  test("Alt-Enter is a newline", () => {
    expect(decode("a\x1b\rb")).toEqual([{ name: "text", text: "a" }, { name: "newline" }, { name: "text", text: "b" }]);
  });

  test("arrows in CSI and SS3 forms", () => {
    expect(decode("\x1b[A\x1b[B\x1b[C\x1b[D")).toEqual([{ name: "up" }, { name: "down" }, { name: "right" }, { name: "left" }]);
    expect(decode("\x1bOA\x1bOB\x1bOC\x1bOD")).toEqual([{ name: "up" }, { name: "down" }, { name: "right" }, { name: "left" }]);
  });

  test("Ctrl-arrows and Alt-b/f move by words", () => {
    expect(decode("\x1b[1;5C\x1b[1;5D")).toEqual([{ name: "word-right" }, { name: "word-left" }]);
    expect(decode("\x1b[1;3C\x1b[1;3D")).toEqual([{ name: "word-right" }, { name: "word-left" }]);
    expect(decode("\x1bf\x1bb")).toEqual([{ name: "word-right" }, { name: "word-left" }]);
  });

  test("Delete, Home and End in their common forms", () => {
    expect(decode("\x1b[3~")).toEqual([{ name: "delete" }]);
    for (const home of ["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"]) expect(decode(home)).toEqual([{ name: "home" }]);
    for (const end of ["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"]) expect(decode(end)).toEqual([{ name: "end" }]);
  });

  test("control keys by name", () => {
    expect(decode("\x7f\b\t\x01\x03\x04\x05\x0b\x0c\x15\x17\x1a")).toEqual(
      ["backspace", "backspace", "tab", "ctrl-a", "ctrl-c", "ctrl-d", "ctrl-e", "ctrl-k", "ctrl-l", "ctrl-u", "ctrl-w", "ctrl-z"].map(
        (name) => ({ name }) as Key,
      ),
    );
  });

  test("other control characters are ignored, the text around them kept", () => {
    expect(merged(decode("a\x00b\x02c\x1fd"))).toEqual([{ name: "text", text: "abcd" }]);
  });

  test("multi-byte text and emoji pass through whole", () => {
    expect(merged(decode("héllo 日本語 👍🏽 🇫🇷"))).toEqual([{ name: "text", text: "héllo 日本語 👍🏽 🇫🇷" }]);
  });

  test("an emoji's surrogate pair split across two pushes is still the emoji", () => {
    const emoji = "😀";
    expect(merged(decode(emoji[0]!, emoji[1]!))).toEqual([{ name: "text", text: emoji }]);
  });
});

describe("keyDecoder: split sequences and Escape", () => {
  test("a sequence split at every byte gives the same keys", () => {
    const input = "x\x1b[1;5Cy\x1bOA\x1b[3~\x1b\rz";
    const whole = decode(input);
    expect(merged(whole)).toEqual([
      { name: "text", text: "x" },
      { name: "word-right" },
      { name: "text", text: "y" },
      { name: "up" },
      { name: "delete" },
      { name: "newline" },
      { name: "text", text: "z" },
    ]);
    for (let at = 1; at < input.length; at++) {
      expect(merged(decode(input.slice(0, at), input.slice(at)))).toEqual(merged(whole));
    }
  });

  test("a sequence fed one byte at a time", () => {
    expect(decode(..."\x1b[1;5D".split(""))).toEqual([{ name: "word-left" }]);
  });

  test("a partial sequence waits for the rest", () => {
    const decoder = keyDecoder();
    expect(decoder.push("\x1b[1;")).toEqual([]);
    expect(decoder.waiting()).toBe(true);
    expect(decoder.push("5C")).toEqual([{ name: "word-right" }]);
    expect(decoder.waiting()).toBe(false);
  });

  test("a lone Escape is held until flushEscape", () => {
    const decoder = keyDecoder();
    expect(decoder.push("\x1b")).toEqual([]);
    expect(decoder.waiting()).toBe(true);
    expect(decoder.flushEscape()).toEqual([{ name: "escape" }]);
    expect(decoder.waiting()).toBe(false);
    expect(decoder.flushEscape()).toEqual([]);
    // what comes next is read fresh, not as an Alt-key
    expect(decoder.push("b")).toEqual([{ name: "text", text: "b" }]);
  });

  test("a held Escape followed by the rest of an arrow is the arrow", () => {
    const decoder = keyDecoder();
    expect(decoder.push("\x1b")).toEqual([]);
    expect(decoder.push("[A")).toEqual([{ name: "up" }]);
    expect(decoder.flushEscape()).toEqual([]);
  });

  test("flushEscape does not give up a partial sequence", () => {
    const decoder = keyDecoder();
    decoder.push("\x1b[");
    expect(decoder.flushEscape()).toEqual([]);
    expect(decoder.waiting()).toBe(true);
  });

  test("ESC ESC: the first is a lone Escape", () => {
    const decoder = keyDecoder();
    expect(decoder.push("\x1b\x1b")).toEqual([{ name: "escape" }]);
    expect(decoder.flushEscape()).toEqual([{ name: "escape" }]);
  });

  test("unknown sequences are dropped, never typed", () => {
    expect(decode("a\x1b[15~b")).toEqual([{ name: "text", text: "a" }, { name: "text", text: "b" }]);
    // an SGR mouse report and a focus-in report
    expect(merged(decode("a\x1b[<0;12;5Mb\x1b[Ic"))).toEqual([{ name: "text", text: "abc" }]);
    // F1 in SS3 form
    expect(decode("\x1bOP")).toEqual([]);
  });
});

describe("keyDecoder: bracketed paste", () => {
  test("a paste is one key with its newlines, CRLF and CR normalised", () => {
    expect(decode("a\x1b[200~one\r\ntwo\rthree\nfour\x1b[201~b")).toEqual([
      { name: "text", text: "a" },
      { name: "paste", text: "one\ntwo\nthree\nfour" },
      { name: "text", text: "b" },
    ]);
  });

  test("escape sequences and control keys inside a paste are its text, not keys", () => {
    expect(decode("\x1b[200~x\x1b[Ay\x03\x1b[201~")).toEqual([{ name: "paste", text: "x\x1b[Ay\x03" }]);
  });

  test("a paste split across many pushes, including inside both markers", () => {
    const input = "\x1b[200~line 1\r\nline 2\x1b[201~after";
    for (let at = 1; at < input.length; at++) {
      for (let at2 = at + 1; at2 < input.length; at2++) {
        const keys = merged(decode(input.slice(0, at), input.slice(at, at2), input.slice(at2)));
        expect(keys).toEqual([
          { name: "paste", text: "line 1\nline 2" },
          { name: "text", text: "after" },
        ]);
      }
    }
  });

  test("a paste fed one byte at a time", () => {
    const input = "\x1b[200~a\x1b[20b\x1b[201~";
    expect(decode(...input.split(""))).toEqual([{ name: "paste", text: "a\x1b[20b" }]);
  });

  test("a paste waits for its end marker", () => {
    const decoder = keyDecoder();
    expect(decoder.push("\x1b[200~abc\x1b[20")).toEqual([]);
    expect(decoder.waiting()).toBe(true);
    expect(decoder.push("1~")).toEqual([{ name: "paste", text: "abc" }]);
  });

  test("a 10,000-line paste in 4 KiB chunks is exactly one paste key with every line", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i} of the paste`);
    const input = `\x1b[200~${lines.join("\r\n")}\x1b[201~`;
    const decoder = keyDecoder();
    const keys: Key[] = [];
    for (let at = 0; at < input.length; at += 4096) keys.push(...decoder.push(input.slice(at, at + 4096)));
    expect(keys.length).toBe(1);
    const key = keys[0]!;
    expect(key.name).toBe("paste");
    const text = key.name === "paste" ? key.text : "";
    expect(text.split("\n")).toEqual(lines);
    expect(decoder.waiting()).toBe(false);
  });
});
