// The `---` block of YAML at the top of a Markdown file (an agent, a skill, a command, a memory),
// read leniently as the Agent Skills standard asks: strict YAML first; when that fails, a reading of
// plain `key: value` lines, which saves the common unquoted-colon description
// ("description: Use when: ..."). What neither reads is a problem the caller reports with the file's
// name; each caller validates its own fields afterwards.
export type FrontMatter = {
  data: Record<string, unknown>;
  body: string;
  /** false when the file has no block (then `data` is empty) */
  present: boolean;
  /** why strict YAML refused the block, when it was read line by line instead */
  lenient?: string;
};

const OPEN = /^---[ \t]*(?:\n|$)/;
const BLOCK = /^---[ \t]*\n(?:([\s\S]*?)\n)?---[ \t]*(?:\n|$)/;

const UNCLOSED = "the front matter is not closed (no second line ---)";

/** The block's text (undefined when there is none) and the body after it, or `unclosed` for a block never closed. */
export function splitFrontMatter(text: string): { block?: string; body: string } | { unclosed: string } {
  const clean = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const match = BLOCK.exec(clean);
  if (!match) return OPEN.test(clean) ? { unclosed: UNCLOSED } : { body: clean };
  return { block: match[1] ?? "", body: clean.slice(match[0].length).replace(/^\n+/, "") };
}

/** The fields and the body, or what is wrong with the block as a phrase (no trailing period). */
export function readFrontMatter(text: string): FrontMatter | { error: string } {
  const split = splitFrontMatter(text);
  if ("unclosed" in split) return { error: split.unclosed };
  const { block, body } = split;
  if (block === undefined) return { data: {}, body, present: false };
  const strict = strictYaml(block);
  if (typeof strict === "object") return { data: strict, body, present: true };
  const loose = looseYaml(block);
  if (loose) return { data: loose, body, present: true, lenient: strict ?? "not a mapping" };
  return { error: `the front matter is not valid YAML (${strict ?? "not a mapping of field: value lines"}); quote values that hold ": " or "#"` };
}

/** The parsed mapping, the parser's complaint, or undefined for YAML that is not a mapping. */
function strictYaml(block: string): Record<string, unknown> | string | undefined {
  try {
    const value: unknown = Bun.YAML.parse(block);
    if (value === null || value === undefined) return {};
    return typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).split("\n")[0];
  }
}

const PAIR = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const ITEM = /^[ \t]+-[ \t]+(.*)$/;

/** Top-level `key: rest of the line` pairs and `- item` lists; undefined for anything richer (flow, blocks, an open quote). */
function looseYaml(block: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let list: string | undefined;
  for (const line of block.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = ITEM.exec(line);
    if (item && list !== undefined) {
      const items = Array.isArray(data[list]) ? (data[list] as unknown[]) : [];
      data[list] = [...items, unquote(item[1]!.trim())];
      continue;
    }
    const pair = PAIR.exec(line);
    if (!pair) return undefined;
    const value = (pair[2] ?? "").trim();
    if (/^[|>&*!]/.test(value) || unterminated(value)) return undefined;
    list = value === "" ? pair[1]! : undefined;
    data[pair[1]!] = value === "" ? undefined : unquote(value);
  }
  return data;
}

/** A quoted value whose quote does not close on its line. */
function unterminated(value: string): boolean {
  const quote = value[0];
  return (quote === '"' || quote === "'") && (value.length < 2 || !value.endsWith(quote));
}

/** A value in quotes without them; a double-quoted one with its escapes read (`\"`, `\n`, `\u00e9`). */
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
