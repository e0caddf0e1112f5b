// JSON with comments (`//`, `/* */`) and trailing commas, as OpenCode's opencode.jsonc is written:
// both are dropped outside strings, then the text is read as JSON.

/** The value, or the JSON parser's complaint. */
export function parseJsonc(raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, "");
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      out += " ";
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
  } catch (error) {
    return (error as Error).message;
  }
}

/** The index just past the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
