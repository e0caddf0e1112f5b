// Turns the bytes a terminal sends in raw mode into keys. Escape sequences and bracketed pastes
// may arrive split over several reads: what is unfinished waits for the next chunk.

export type Key =
  | { name: "text"; text: string }
  /** a bracketed paste, kept whole: a 10,000-line paste is one key, not 10,000 Enters */
  | { name: "paste"; text: string }
  | { name: NamedKey };

export type NamedKey =
        | "enter"
        | "newline"
        | "tab"
        | "shift-tab"
        | "backspace"
        | "delete"
        | "escape"
        | "up"
        | "down"
        | "left"
        | "right"
        | "home"
        | "end"
        | "word-left"
        | "word-right"
        | "ctrl-a"
        | "ctrl-c"
        | "ctrl-d"
        | "ctrl-e"
        | "ctrl-k"
        | "ctrl-l"
        | "ctrl-u"
        | "ctrl-w"
        | "ctrl-z";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const CONTROL: Record<string, NamedKey> = {
  "\r": "enter",
  "\n": "newline",
  "\t": "tab",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "ctrl-a",
  "\x03": "ctrl-c",
  "\x04": "ctrl-d",
  "\x05": "ctrl-e",
  "\x0b": "ctrl-k",
  "\x0c": "ctrl-l",
  "\x15": "ctrl-u",
  "\x17": "ctrl-w",
  "\x1a": "ctrl-z",
};

const SEQUENCES: Record<string, NamedKey> = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1bOA": "up",
  "\x1bOB": "down",
  "\x1bOC": "right",
  "\x1bOD": "left",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1bOH": "home",
  "\x1bOF": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\x1b[7~": "home",
  "\x1b[8~": "end",
  "\x1b[3~": "delete",
  "\x1b[Z": "shift-tab",
  "\x1b[1;5C": "word-right",
  "\x1b[1;5D": "word-left",
  "\x1b[1;3C": "word-right",
  "\x1b[1;3D": "word-left",
  "\x1bf": "word-right",
  "\x1bb": "word-left",
  "\x1b\r": "newline", // Alt-Enter
  "\x1b[13;2u": "newline", // Shift-Enter (kitty keyboard protocol)
  "\x1b\x7f": "ctrl-w",
};

export type KeyDecoder = {
  /** the keys completed by this chunk */
  push(chunk: string): Key[];
  /** a lone Escape held back to see whether a sequence follows; call after a short pause */
  flushEscape(): Key[];
  /** whether a lone Escape or a partial sequence is waiting */
  waiting(): boolean;
};

export function keyDecoder(): KeyDecoder {
  let rest = "";
  let paste: string | undefined;

  const push = (chunk: string): Key[] => {
    const keys: Key[] = [];
    let input = rest + chunk;
    rest = "";
    let text = "";
    const flushText = () => {
      if (text) keys.push({ name: "text", text });
      text = "";
    };
    let i = 0;
    while (i < input.length) {
      if (paste !== undefined) {
        const end = input.indexOf(PASTE_END, i);
        if (end < 0) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(input, PASTE_END);
          paste += input.slice(i, input.length - keep);
          rest = input.slice(input.length - keep);
          return keys;
        }
        paste += input.slice(i, end);
        keys.push({ name: "paste", text: paste.replace(/\r\n?/g, "\n") });
        paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = input[i]!;
      if (ch === "\x1b") {
        flushText();
        if (input.startsWith(PASTE_START, i)) {
          paste = "";
          i += PASTE_START.length;
          continue;
        }
        const sequence = readSequence(input, i);
        if (sequence === undefined) {
          rest = input.slice(i);
          return keys;
        }
        const name = SEQUENCES[sequence];
        if (name) keys.push({ name });
        else if (sequence === "\x1b") keys.push({ name: "escape" });
        // Unknown sequences (function keys, mouse, focus reports) are dropped, never typed.
        i += sequence.length;
        continue;
      }
      const control = CONTROL[ch];
      if (control) {
        flushText();
        // A terminal sends "\r\n" for Enter in some modes: one Enter.
        if (ch === "\r" && input[i + 1] === "\n") i++;
        keys.push({ name: control });
        i++;
        continue;
      }
      if (ch < " ") {
        i++; // other control characters are ignored
        continue;
      }
      text += ch;
      i++;
    }
    flushText();
    return keys;
  };

  return {
    push,
    flushEscape() {
      if (rest !== "\x1b") return [];
      rest = "";
      return [{ name: "escape" }];
    },
    waiting: () => rest !== "",
  };
}

/**
 * The escape sequence starting at `at`, or undefined when the input ends before it does. A lone
 * ESC at the end is undefined too (an Alt-key or arrow may follow in the next read).
 */
function readSequence(input: string, at: number): string | undefined {
  const next = input[at + 1];
  if (next === undefined) return undefined;
  if (next === "[") {
    // CSI: parameters and intermediates, then a final byte in @..~
    for (let j = at + 2; j < input.length; j++) {
      const code = input.charCodeAt(j);
      if (code >= 0x40 && code <= 0x7e) return input.slice(at, j + 1);
    }
    return undefined;
  }
  if (next === "O") return at + 2 < input.length ? input.slice(at, at + 3) : undefined;
  if (next === "\x1b") return "\x1b"; // ESC ESC: the first is a lone Escape
  return input.slice(at, at + 2); // Alt-<key>
}

/** How many characters at the end of `text` could be the start of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
