// Decodes HTML character references: numeric (decimal and hex) and the named ones that appear in
// ordinary prose. An unknown name is left as written, which is what a reader would want anyway.

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", shy: "",
  copy: "©", reg: "®", trade: "™", deg: "°", plusmn: "±", times: "×", divide: "÷", micro: "µ",
  middot: "·", bull: "•", hellip: "…", prime: "′", Prime: "″", sect: "§", para: "¶",
  ndash: "–", mdash: "—", lsquo: "‘", rsquo: "’", sbquo: "‚", ldquo: "“", rdquo: "”", bdquo: "„",
  laquo: "«", raquo: "»", lsaquo: "‹", rsaquo: "›", dagger: "†", Dagger: "‡", permil: "‰",
  cent: "¢", pound: "£", yen: "¥", euro: "€", curren: "¤", iexcl: "¡", iquest: "¿",
  larr: "←", rarr: "→", uarr: "↑", darr: "↓", harr: "↔", lArr: "⇐", rArr: "⇒", hArr: "⇔",
  le: "≤", ge: "≥", ne: "≠", asymp: "≈", equiv: "≡", infin: "∞", minus: "−", radic: "√", sum: "∑",
  frac12: "½", frac14: "¼", frac34: "¾", sup2: "²", sup3: "³", alpha: "α", beta: "β", lambda: "λ",
  mu: "μ", pi: "π", sigma: "σ", check: "✓", ensp: " ", emsp: " ", thinsp: " ", zwj: "\u200d",
  zwnj: "\u200c", lrm: "\u200e", rlm: "\u200f",
};

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    return codePoint(dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? "", 16));
  });
}

function codePoint(code: number): string {
  // NUL, surrogates and out-of-range numbers are replaced, as the HTML spec does.
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(code);
}
