// The `---` block of YAML at the top of a Markdown file (an agent, a skill, a command, a memory), read
// as YAML parsers read it, then leniently, as the Agent Skills standard asks and Claude Code does:
// 1. strict YAML (Bun's built-in parser: YAML 1.2 core, the same readings as the `yaml` package);
// 2. Claude Code's retry: each top-level `key: value` whose plain value YAML cannot take (an unquoted
//    ": ", "#", "@", a backquote) is quoted, and the block parsed again;
// 3. a reading by lines (front-matter-lines.ts) that keeps lists, block scalars and nested maps, and
//    lets lines that start no field continue the value above them (Claude Code's agent descriptions
//    with their multi-line `<example>` blocks).
// What none of these reads is a problem the caller reports with the file's name; each caller
// validates its own fields afterwards.
import { readLines } from "./front-matter-lines.ts";

export type FrontMatter = {
  data: Record<string, unknown>;
  body: string;
  /** false when the file has no block (then `data` is empty) */
  present: boolean;
  /** why strict YAML refused the block, when it was read leniently instead */
  lenient?: string;
};

export type FrontMatterOptions = {
  /**
   * The fields the caller reads. In the reading by lines, a `word:` line naming none of them
   * continues the value above it (`Context: ...` inside a description's example) instead of
   * starting a field.
   */
  keys?: readonly string[];
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
export function readFrontMatter(text: string, options: FrontMatterOptions = {}): FrontMatter | { error: string } {
  const split = splitFrontMatter(text);
  if ("unclosed" in split) return { error: split.unclosed };
  const { block, body } = split;
  if (block === undefined) return { data: {}, body, present: false };
  // A top-level line that is no field (an `<example>` line of a description) fails every YAML
  // parser: said here without asking one, which costs as much as the rest of the reading.
  const stray = STRAY.exec(block);
  const strict = stray ? `line ${lineOf(block, stray.index)} ("${stray[0].slice(0, 30)}") is not a field: YAML wants a value's further lines indented` : strictYaml(block);
  if (typeof strict === "object") return { data: strict, body, present: true };
  const why = strict ?? "not a mapping";
  const quoted = stray ? undefined : quoteValues(block);
  const retried = quoted === undefined ? undefined : strictYaml(quoted);
  if (typeof retried === "object") return { data: retried, body, present: true, lenient: why };
  const lines = readLines(block, options.keys);
  if (lines) return { data: lines, body, present: true, lenient: why };
  return { error: `the front matter is not valid YAML (${why}); quote values that hold ": " or "#"` };
}

/** The parsed mapping, the parser's complaint, or undefined for YAML that is not a mapping. */
export function strictYaml(block: string): Record<string, unknown> | string | undefined {
  try {
    const value: unknown = Bun.YAML.parse(block);
    if (value === null || value === undefined) return {};
    return typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).split("\n")[0];
  }
}

/** A line at the top level with no colon that starts no list, comment, quote, flow or block: not YAML in a mapping. */
const STRAY = /^(?![\s#\-?[{"'|>!&*%@`]|\.\.\.)[^:\n]+$/m;

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length + 1;
}

const TOP_PAIR = /^([A-Za-z_][\w-]*):[ \t]+(\S.*)$/;
/** What a plain YAML value cannot hold (Claude Code's list): flow and anchor characters, comments, a colon and a space. */
const NEEDS_QUOTES = /[{}[\]*&#!|>%@`]|: /;

/** The block with top-level plain values YAML would refuse put in double quotes (tabs of indentation made spaces); undefined when nothing changed. */
function quoteValues(block: string): string | undefined {
  let changed = false;
  const lines = block.split("\n").map((line) => {
    const tabs = line.replace(/^\t+/, (t) => "  ".repeat(t.length));
    if (tabs !== line) changed = true;
    const pair = TOP_PAIR.exec(tabs);
    if (!pair) return tabs;
    const [, key, raw] = pair as unknown as [string, string, string];
    const value = raw.trimEnd();
    if (/^(["']).*\1$/.test(value) || /^[|>][-+0-9]*$/.test(value) || flowList(value) || !NEEDS_QUOTES.test(value)) return tabs;
    changed = true;
    return `${key}: "${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
  });
  return changed ? lines.join("\n") : undefined;
}

function flowList(value: string): boolean {
  if (!value.startsWith("[") || !value.endsWith("]")) return false;
  try {
    return Array.isArray(Bun.YAML.parse(value));
  } catch {
    return false;
  }
}
