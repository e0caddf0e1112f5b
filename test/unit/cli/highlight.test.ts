// The fenced-code colouring, per language family, with a chalk whose styles are visible markers
// (so each assertion names what a span became): block comments kept open across lines, SQL's
// case-insensitive keywords and -- comments, CSS without line comments, Rust's chars and
// lifetimes, Python's prefixed strings beside an apostrophe in a word, numbers, and diffs.
import { describe, expect, test } from "bun:test";
import type { ChalkInstance } from "chalk";
import { codeHighlighter } from "../../../src/cli/highlight.ts";

/** A chalk stand-in that writes each style as a tag: gray -> <g>..</g>, and so on. */
function tagger(): ChalkInstance {
  const tag = (name: string) => (text: string) => (text ? `<${name}>${text}</${name}>` : text);
  const styles: Record<string, (text: string) => string> = { gray: tag("g"), green: tag("s"), yellow: tag("n"), magenta: tag("k"), blue: tag("k"), cyan: tag("c"), red: tag("r"), bold: tag("b"), dim: tag("d") };
  return new Proxy(styles, { get: (target, key: string) => target[key] ?? ((text: string) => text) }) as unknown as ChalkInstance;
}
const style = tagger();
const lines = (lang: string, text: string) => {
  const h = codeHighlighter(lang, style);
  return text.split("\n").map(h);
};
/** The text of every span of one kind, in order. */
const spans = (kind: string, rendered: string[]) => rendered.flatMap((line) => [...line.matchAll(new RegExp(`<${kind}>(.*?)</${kind}>`, "g"))].map((m) => m[1]));

describe("comments", () => {
  test("a block comment stays open across lines until it closes, and code after it is coloured again", () => {
    const out = lines("ts", "const a = 1; /* starts\nstill inside 42 'x'\nends */ return 7;");
    expect(spans("g", out)).toEqual(["/* starts", "still inside 42 'x'", "ends */"]);
    expect(spans("n", out)).toEqual(["1", "7"]);
    expect(spans("k", out)).toEqual(["const", "return"]);
  });

  test("each highlighter keeps its own comment state: a new block does not inherit an open comment", () => {
    lines("ts", "/* never closed");
    expect(spans("g", lines("ts", "let x = 2"))).toEqual([]);
  });

  test("SQL: -- comments, /* */ blocks, keywords in any case", () => {
    const out = lines("sql", "SELECT id FROM users -- the users\nselect 1 /* one */");
    expect(spans("g", out)).toEqual(["-- the users", "/* one */"]);
    expect(spans("k", out)).toEqual(["SELECT", "FROM", "select"]);
  });

  test("Lua: -- comments but no /* */ block comments", () => {
    const out = lines("lua", "local x = 1 -- note\nlocal y = 2 /* not a comment */");
    expect(spans("g", out)).toEqual(["-- note"]);
  });

  test("CSS: block comments only; // is not a comment and there are no keywords", () => {
    const out = lines("css", "a { color: red; } /* note */\n// not a comment");
    expect(spans("g", out)).toEqual(["/* note */"]);
    expect(spans("k", out)).toEqual([]);
  });

  test("#: a comment at a line start or after a space, not inside a word or a string", () => {
    const out = lines("python", "x = 1  # one\ncolor#fff\nprint('# not')");
    expect(spans("g", out)).toEqual(["# one"]);
    expect(spans("s", out)).toEqual(["'# not'"]);
  });
});

describe("strings and numbers", () => {
  test("an apostrophe inside a word is no string; Python's prefixed strings are", () => {
    const out = lines("python", "# don't\ns = f'value {x}' + r'raw' + b'bytes'\nit's fine");
    // the prefix letter is read as a word; the quote after it still opens a string, unlike it's
    expect(spans("s", out)).toEqual(["'value {x}'", "'raw'", "'bytes'"]);
  });

  test("escaped quotes stay inside the string; an unclosed one runs to the line's end", () => {
    expect(spans("s", lines("js", 'const s = "say \\"hi\\"" + x'))).toEqual(['"say \\"hi\\""']);
    expect(spans("s", lines("js", 'const s = "open'))).toEqual(['"open']);
  });

  test("numbers in every base, with separators and exponents; not inside identifiers", () => {
    const out = lines("rust", "let n = 0xff_ff + 0b1010 + 0o17 + 1_000 + 2.5e-3 + 10n; let v2 = x1;");
    expect(spans("n", out)).toEqual(["0xff_ff", "0b1010", "0o17", "1_000", "2.5e-3", "10n"]);
  });

  test("Rust: a char literal is a string, a lifetime is not", () => {
    const out = lines("rust", "fn f<'a>(x: &'a str) -> char { 'z' }");
    expect(spans("s", out)).toEqual(["'z'"]);
    expect(spans("k", out)).toContain("fn");
  });
});

describe("languages without colouring rules", () => {
  test("plain text and logs are left exactly as written", () => {
    expect(lines("text", "const 42 'x' // y")).toEqual(["const 42 'x' // y"]);
    expect(lines("log", "ERROR 500")).toEqual(["ERROR 500"]);
  });

  test("a diff colours hunks, additions and removals, and leaves context alone", () => {
    expect(lines("diff", "@@ -1 +1 @@\n-old\n+new\n same")).toEqual(["<c>@@ -1 +1 @@</c>", "<r>-old</r>", "<s>+new</s>", " same"]);
    expect(lines("patch", "+x")).toEqual(["<s>+x</s>"]);
  });

  test("the language name is read in any case and with braces or a leading dot", () => {
    expect(spans("k", lines("{.TS}", "const a = 1"))).toEqual(["const"]);
    expect(spans("k", lines("Python", "def f(): pass"))).toEqual(["def", "pass"]);
  });
});
