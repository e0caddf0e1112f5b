// Text rein did not write (the model's answer, a tool's output, a file, a pasted line) is drawn,
// never interpreted: no C0 control character, DEL or C1 control (U+009B alone starts a sequence on
// many terminals) reaches the terminal from it. Every front-end filter is this one; each site only
// says what a tab becomes, whether newlines stay, and whether the rest is dropped or shown as "?".

const ANY = /[\x00-\x1f\x7f-\x9f]/;
const ALL = /[\x00-\x1f\x7f-\x9f]/g;
const ALL_BUT_NEWLINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/g;

export type PrintableOptions = {
  /** what a tab becomes (default: dropped like the others) */
  tab?: string;
  /** newlines stay (the text is drawn as several lines) */
  newlines?: boolean;
  /** what any other control character becomes (default: dropped) */
  replacement?: string;
};

/** Whether the text holds a control character (C0, DEL or C1). */
export function hasControl(text: string): boolean {
  return ANY.test(text);
}

/** The text without control characters (C0, DEL, C1), but for what `options` keeps. */
export function printable(text: string, options: PrintableOptions = {}): string {
  if (!ANY.test(text)) return text;
  const { tab = "", newlines = false, replacement = "" } = options;
  return text.replaceAll("\t", tab).replace(newlines ? ALL_BUT_NEWLINE : ALL, replacement);
}
