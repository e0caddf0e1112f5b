// Reads a GNU sed script far enough to know what it touches besides its input: `r`/`R` read a
// file, `w`/`W` and the `w` flag of `s` write one, `e` and the `e` flag of `s` run a command.
// A script it cannot read is reported as such (and the command is then opaque).

export type SedEffects = { reads: string[]; writes: string[]; runs: boolean; error?: string };

const SIMPLE = new Set([..."=dDgGhHlnNpPxzF"]);

export function sedEffects(script: string): SedEffects {
  const out: SedEffects = { reads: [], writes: [], runs: false };
  const s = { text: script, i: 0 };
  try {
    while (s.i < s.text.length) command(s, out);
  } catch (error) {
    out.error = error instanceof Error ? error.message : String(error);
  }
  return out;
}

type Cursor = { text: string; i: number };

function command(s: Cursor, out: SedEffects): void {
  skip(s, " \t\n;");
  if (s.i >= s.text.length) return;
  if (s.text[s.i] === "#") return void toLineEnd(s);
  address(s);
  skip(s, " \t");
  if (s.text[s.i] === ",") {
    s.i++;
    skip(s, " \t");
    if (s.text[s.i] === "+" || s.text[s.i] === "~") s.i++;
    address(s);
  }
  skip(s, " \t");
  while (s.text[s.i] === "!") s.i++, skip(s, " \t");
  const c = s.text[s.i++];
  if (c === undefined) throw new Error("an address without a command");
  if (c === "{" || c === "}") return;
  if (SIMPLE.has(c)) return;
  switch (c) {
    case ":":
    case "b":
    case "t":
    case "T":
      return void toCommandEnd(s);
    case "q":
    case "Q":
    case "L":
    case "v":
      return void toCommandEnd(s);
    case "a":
    case "i":
    case "c":
      return text(s);
    case "r":
    case "R":
      return void out.reads.push(fileName(s));
    case "w":
    case "W":
      return void out.writes.push(fileName(s));
    case "e":
      out.runs = true;
      return void toLineEnd(s);
    case "s":
      return substitute(s, out);
    case "y":
      delimited(s, s.text[s.i++]);
      delimited(s, s.text[s.i - 1]);
      return;
  }
  throw new Error(`sed command ${JSON.stringify(c)} is not known`);
}

function address(s: Cursor): void {
  const c = s.text[s.i];
  if (c === undefined) return;
  if (/[0-9]/.test(c)) {
    while (/[0-9~]/.test(s.text[s.i] ?? "")) s.i++;
  } else if (c === "$") s.i++;
  else if (c === "/" || c === "\\") {
    if (c === "\\") s.i++;
    const delimiter = s.text[s.i++];
    delimited(s, delimiter);
    while (/[IM]/.test(s.text[s.i] ?? "")) s.i++;
  }
}

/** Up to the next unescaped delimiter (the opening one already read). */
function delimited(s: Cursor, delimiter: string | undefined): void {
  if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") throw new Error("a bad delimiter");
  while (s.i < s.text.length) {
    const c = s.text[s.i++];
    if (c === "\\") s.i++;
    else if (c === delimiter) return;
  }
  throw new Error("an unterminated regular expression");
}

function substitute(s: Cursor, out: SedEffects): void {
  const delimiter = s.text[s.i++];
  delimited(s, delimiter);
  delimited(s, delimiter);
  for (;;) {
    const c = s.text[s.i];
    if (c === undefined || /[;\n}#]/.test(c)) return;
    s.i++;
    if (c === "e") out.runs = true;
    else if (c === "w") return void out.writes.push(fileName(s));
    else if (!/[gpiImM0-9 \t]/.test(c)) throw new Error(`unknown s flag ${JSON.stringify(c)}`);
  }
}

// a/i/c: GNU's one-line `a text` or `a\` and lines ending in `\`.
function text(s: Cursor): void {
  while (s.i < s.text.length) {
    const c = s.text[s.i++];
    if (c === "\\") s.i++;
    else if (c === "\n") return;
  }
}

/** A file name runs to the end of the line (`;` and `}` are part of it). */
function fileName(s: Cursor): string {
  skip(s, " \t");
  const start = s.i;
  toLineEnd(s);
  const name = s.text.slice(start, s.i);
  if (name === "") throw new Error("a file command without a file");
  return name;
}

function toLineEnd(s: Cursor): void {
  while (s.i < s.text.length && s.text[s.i] !== "\n") s.i++;
}

function toCommandEnd(s: Cursor): void {
  while (s.i < s.text.length && !/[;\n}]/.test(s.text[s.i]!)) s.i++;
}

function skip(s: Cursor, chars: string): void {
  while (s.i < s.text.length && chars.includes(s.text[s.i]!)) s.i++;
}
