// Decodes the body of an ANSI-C quoted word ($'...'), as bash does. Returns undefined for what is
// not decoded with certainty (a NUL ends the word in bash; \c controls): the word is then dynamic.
const SIMPLE: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

const NUMERIC: Record<string, { re: RegExp; base: number }> = {
  x: { re: /^[0-9a-fA-F]{1,2}/, base: 16 },
  u: { re: /^[0-9a-fA-F]{1,4}/, base: 16 },
  U: { re: /^[0-9a-fA-F]{1,8}/, base: 16 },
};

export function decodeAnsiC(body: string): string | undefined {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) return out + "\\";
    const simple = SIMPLE[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1));
    const numeric = NUMERIC[next];
    const digits = octal ? octal[0] : numeric?.re.exec(body.slice(i + 2))?.[0];
    if (digits === undefined) {
      if (next === "c" || numeric) return undefined;
      out += "\\" + next; // bash keeps an unknown escape as written
      i++;
      continue;
    }
    const code = octal ? parseInt(digits, 8) : parseInt(digits, numeric!.base);
    if (code === 0 || code > 0x10ffff) return undefined;
    out += String.fromCodePoint(code);
    i += octal ? digits.length : digits.length + 1;
  }
  return out;
}
