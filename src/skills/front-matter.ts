// The `---` YAML block at the top of a SKILL.md or a command file, parsed leniently as the Agent
// Skills standard asks: strict YAML first; when that fails, a line-based reading of `key: value`
// pairs, which saves the common unquoted-colon description ("description: Use when: ...").
export type FrontMatter = { data: Record<string, unknown>; body: string };
export type FrontMatterResult = FrontMatter | { error: string };

const BLOCK = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;

/** The front matter and the body; `data` is empty when there is no block. */
export function parseFrontMatter(text: string): FrontMatterResult & { present?: boolean } {
  const clean = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const match = BLOCK.exec(clean);
  if (!match) return { data: {}, body: clean, present: false };
  const body = clean.slice(match[0].length).replace(/^\n+/, "");
  const strict = strictYaml(match[1]!);
  if (strict !== undefined && typeof strict !== "string") return { data: strict, body, present: true };
  const loose = looseYaml(match[1]!);
  if (loose) return { data: loose, body, present: true };
  return { error: `the front matter is not valid YAML (${strict ?? "not a mapping"}); quote values that hold ": " or "#"` };
}

/** The parsed mapping, or the parser's complaint. */
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

/** Top-level `key: rest of the line` pairs and `- item` lists; undefined for anything richer (flow, quotes, blocks). */
function looseYaml(block: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let list: string | undefined;
  for (const line of block.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = ITEM.exec(line);
    if (item && list !== undefined) {
      const items = Array.isArray(data[list]) ? (data[list] as unknown[]) : [];
      data[list] = [...items, item[1]!.trim()];
      continue;
    }
    const pair = PAIR.exec(line);
    if (!pair) return undefined;
    const value = (pair[2] ?? "").trim();
    if (/^[|>&*!]/.test(value) || unterminated(value)) return undefined;
    list = value === "" ? pair[1]! : undefined;
    data[pair[1]!] = value === "" ? undefined : value.replace(/^(["'])(.*)\1$/, "$2");
  }
  return data;
}

/** A quoted value whose quote does not close on its line. */
function unterminated(value: string): boolean {
  const quote = value[0];
  return (quote === '"' || quote === "'") && (value.length < 2 || !value.endsWith(quote));
}

/** `argument-hint: [file]` is a YAML list to a strict parser; it is shown as written. */
export function hint(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map(String).join(", ")}]`;
  return text(value);
}

/** Claude Code's booleans: true/false and yes/no/on/off/1/0; anything else is `fallback`. */
export function flag(value: unknown, fallback: boolean): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value !== "string") return fallback;
  const word = value.trim().toLowerCase();
  if (["true", "yes", "on", "1"].includes(word)) return true;
  if (["false", "no", "off", "0"].includes(word)) return false;
  return fallback;
}

/** A text field, trimmed; numbers become text; anything else is absent. */
export function text(value: unknown): string | undefined {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
