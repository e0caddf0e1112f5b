// The last reading of a front matter block YAML refuses even with its values quoted: by lines. A
// top-level `key:` starts a field; its value is the rest of the line read as YAML when it can be
// (`[Read, Grep]` is a list, `"a\nb"` a string, `5` a number) and as text when not; a block scalar
// (`|`, `>`) and an indented list or map below a bare `key:` are read as YAML would. Every other
// line continues the value above it, so a description may run on over lines YAML would refuse
// (Claude Code's `<example>` blocks, with their `user: "..."` lines when `keys` is given).

type Field = { key: string; first: unknown; style?: string; lines: string[] };

const PAIR = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const BLOCK_SCALAR = /^([|>])([-+]?)[0-9]?[-+]?$/;

/** The fields, or undefined when the block cannot be read this way (nothing before the first field, a quote or bracket never closed). */
export function readLines(block: string, keys?: readonly string[]): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let field: Field | undefined;
  for (const line of block.split("\n")) {
    const pair = PAIR.exec(line);
    const starts = pair && (!field || keys === undefined || keys.includes(pair[1]!));
    if (!starts) {
      if (line.startsWith("#") && !field?.style) continue;
      // A list, a map or a block scalar holds only indented lines; a stray line at the left edge is not theirs.
      if (field && (field.style || field.first === undefined) && /^\S/.test(line)) continue;
      if (field) field.lines.push(line);
      else if (line.trim() !== "" && !line.startsWith("#")) return undefined;
      continue;
    }
    if (field) data[field.key] = valueOf(field);
    const value = (pair[2] ?? "").trim();
    const scalar = BLOCK_SCALAR.exec(value);
    if (scalar) {
      field = { key: pair[1]!, first: undefined, style: value, lines: [] };
      continue;
    }
    const first = value === "" ? undefined : inline(value);
    if (first === OPEN_QUOTE) return undefined;
    field = { key: pair[1]!, first, lines: [] };
  }
  if (field) data[field.key] = valueOf(field);
  return data;
}

const OPEN_QUOTE = Symbol("open quote");
const KEYWORD = /^(?:true|false|yes|no|on|off|null|y|n)$/i;

/** A one-line value as YAML reads it, or as the text it is when YAML cannot. */
function inline(value: string): unknown {
  // A value starting with a letter is text to YAML, or an error (an unquoted ": "), read as the same
  // text here: no parse for it (an agent's long description is one).
  if (/^[A-Za-z]/.test(value) && !KEYWORD.test(value)) return value.replace(/[ \t]+#.*$/, "");
  try {
    const parsed = Bun.YAML.parse(`v: ${value}`) as { v?: unknown } | null;
    if (parsed && typeof parsed === "object" && "v" in parsed) return parsed.v;
  } catch {
    // below: the value as text
  }
  const quote = value[0];
  if ((quote === '"' || quote === "'") && (value.length < 2 || !value.endsWith(quote))) return OPEN_QUOTE;
  if ((quote === "[" || quote === "{") && !balanced(value)) return OPEN_QUOTE;
  return value.replace(/[ \t]+#.*$/, "");
}

function valueOf(field: Field): unknown {
  const lines = trimEnd(field.lines);
  if (field.style) return blockScalar(field.style, lines);
  if (field.first === undefined) return lines.length ? nested(field.key, lines) : undefined;
  if (!lines.length) return field.first;
  return [String(field.first), ...lines.map((l) => l.trimEnd())].join("\n").trim();
}

/** An indented list or map below a bare `key:`, as YAML reads it; lines YAML refuses become the text they are. */
function nested(key: string, lines: string[]): unknown {
  try {
    const parsed = Bun.YAML.parse(`${key}:\n${lines.join("\n")}`) as Record<string, unknown> | null;
    if (parsed && typeof parsed === "object") return parsed[key];
  } catch {
    // below
  }
  const items = lines.filter((l) => l.trim() !== "");
  if (items.every((l) => /^[ \t]*-[ \t]+/.test(l))) return items.map((l) => unquote(l.replace(/^[ \t]*-[ \t]+/, "").trim()));
  return dedent(lines).join("\n");
}

/** `|` keeps the lines, `>` folds them into one; `-` strips the last newline, `+` keeps every one. */
function blockScalar(style: string, lines: string[]): string {
  const [, kind, chomp] = BLOCK_SCALAR.exec(style)!;
  const body = dedent(lines);
  const text = kind === "|" ? body.join("\n") : fold(body);
  if (chomp === "-") return text;
  return text === "" ? "" : `${text}\n`;
}

/**
 * YAML's folding: the break between two lines of text is a space; k blank lines between them are k
 * breaks (the break before them goes); beside a more indented line every break is kept.
 */
function fold(lines: string[]): string {
  let out = "";
  let last: string | undefined;
  let blanks = 0;
  for (const line of lines) {
    if (line === "") {
      blanks++;
      continue;
    }
    if (last === undefined) out += "\n".repeat(blanks);
    else if (/^\s/.test(last) || /^\s/.test(line)) out += "\n".repeat(blanks + 1);
    else out += blanks ? "\n".repeat(blanks) : " ";
    out += line;
    last = line;
    blanks = 0;
  }
  return out;
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut).trimEnd());
}

function trimEnd(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  return lines.slice(0, end);
}

/** A value in quotes without them; a double-quoted one with its escapes read. */
function unquote(value: string): string {
  if (value.length < 2) return value;
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replaceAll("''", "'");
  if (!value.startsWith('"') || !value.endsWith('"')) return value;
  try {
    return String(JSON.parse(value));
  } catch {
    return value.slice(1, -1);
  }
}

/** Every `[` and `{` closed (a flow collection left open is not text to guess at). */
function balanced(value: string): boolean {
  let depth = 0;
  for (const char of value) {
    if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") depth--;
  }
  return depth <= 0;
}
