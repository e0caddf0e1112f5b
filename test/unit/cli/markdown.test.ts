import { describe, expect, test } from "bun:test";
import { markdownRenderer } from "../../../src/cli/markdown.ts";

const SAMPLE = [
  "# Title with `code`",
  "## Second *level*",
  "",
  "Some **bold** text, *italic*, _also_, snake_case_words and 2*3*4, ~~gone~~, a [link](https://example.com) 😀.",
  "A paragraph long enough to wrap at forty columns, with **bold text crossing the wrap boundary** and more.",
  "",
  "- item one",
  "  - nested item with a long text that wraps across several rows",
  "- [ ] todo",
  "- [x] done",
  "1. first",
  "",
  "> quoted **text** long enough to wrap under the quote bar at forty",
  "",
  "---",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  "```ts",
  'const answer = "yes"; // note',
  "# not a heading, and `not code`",
  "```",
  "~~~",
  "plain 'str' 42 # comment",
  "~~~",
  "end",
].join("\n");

const render = (chunks: string[], width = 40, color = false): string[] => {
  const md = markdownRenderer({ width, color });
  return [...chunks.flatMap((chunk) => md.push(chunk)), ...md.flush()];
};
const oneRow = (text: string, color = true): string => {
  const rows = render([text], 80, color);
  expect(rows).toHaveLength(1);
  return rows[0] ?? "";
};

describe("streaming", () => {
  test("a split at every position of the sample renders the same rows as one push", () => {
    for (const color of [false, true]) {
      const whole = render([SAMPLE], 40, color);
      for (let at = 0; at <= SAMPLE.length; at++) {
        expect(render([SAMPLE.slice(0, at), SAMPLE.slice(at)], 40, color)).toEqual(whole);
      }
      expect(render([...SAMPLE], 40, color)).toEqual(whole);
    }
  });

  test("pending() is the unfinished line, raw, until its newline arrives", () => {
    const md = markdownRenderer({ width: 80, color: false });
    expect(md.push("# Head")).toEqual([]);
    expect(md.pending()).toBe("# Head");
    expect(md.push("ing\n**bo")).toEqual(["Heading"]);
    expect(md.pending()).toBe("**bo");
    expect(md.push("ld**\r\n")).toEqual(["bold"]);
    expect(md.pending()).toBe("");
    expect(md.push("tail")).toEqual([]);
    expect(md.flush()).toEqual(["tail"]);
    expect(md.pending()).toBe("");
  });

  test("flush closes an open code block, and the next message is prose again", () => {
    const md = markdownRenderer({ width: 80, color: false });
    expect(md.push("```ts\nconst x = 1\n# inside")).toEqual(["╭─ ts", "  const x = 1"]);
    expect(md.flush()).toEqual(["  # inside", "╰─"]);
    expect(md.push("# outside\n")).toEqual(["outside"]);
    expect(md.flush()).toEqual([]);
  });

  test("a 10,000-line answer pushed in 3-byte chunks renders every line", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) =>
      i % 100 === 50 ? "```ts" : i % 100 === 60 ? "```" : `- line ${i} with **bold** and \`code\` and snake_case text`,
    );
    const text = lines.join("\n");
    const md = markdownRenderer({ width: 120, color: true });
    let rows = 0;
    for (let i = 0; i < text.length; i += 3) rows += md.push(text.slice(i, i + 3)).length;
    rows += md.flush().length;
    expect(rows).toBe(10_000);
  });
});

describe("blocks", () => {
  test("without colour: markers become plain symbols and no escape code is written", () => {
    const rows = render([SAMPLE], 200);
    expect(rows.join("\n")).not.toContain("\x1b");
    expect(rows).toContain("Title with code");
    expect(rows).toContain("Second level");
    expect(rows).toContain("• item one");
    expect(rows).toContain("  • nested item with a long text that wraps across several rows");
    expect(rows).toContain("☐ todo");
    expect(rows).toContain("☑ done");
    expect(rows).toContain("1. first");
    expect(rows).toContain("│ quoted text long enough to wrap under the quote bar at forty");
    expect(rows).toContain("─".repeat(80));
    expect(rows).toContain(" a │ b");
    expect(rows[3]).toBe("Some bold text, italic, also, snake_case_words and 2*3*4, gone, a link (https://example.com) 😀.");
  });

  test("inside a fence nothing is markdown: code lines are indented by two and kept as written", () => {
    const rows = render([SAMPLE], 200);
    const start = rows.indexOf("╭─ ts");
    expect(rows.slice(start, start + 4)).toEqual(["╭─ ts", '  const answer = "yes"; // note', "  # not a heading, and `not code`", "╰─"]);
    expect(rows.slice(start + 4, start + 7)).toEqual(["╭─", "  plain 'str' 42 # comment", "╰─"]);
  });

  test("a stray escape sequence from the model does not reach the terminal", () => {
    expect(render(["\x1b[31mred\x07 text\n"], 80)).toEqual(["[31mred text"]);
  });

  test("a width below 20 counts as 20, and resize applies to later lines", () => {
    const md = markdownRenderer({ width: 5, color: false });
    expect(md.push("---\n")).toEqual(["─".repeat(20)]);
    md.resize(30);
    expect(md.push("***\n")).toEqual(["─".repeat(30)]);
    md.resize(200);
    expect(md.push("___\n")).toEqual(["─".repeat(80)]);
  });
});

describe("wrapping", () => {
  test("at width 40 every prose row fits, and list continuations sit under the item's text", () => {
    const rows = render([SAMPLE], 40);
    for (const row of rows.filter((r) => !r.startsWith("  const"))) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    expect(rows.length).toBeGreaterThan(SAMPLE.split("\n").length + 4);
    const nested = rows.findIndex((r) => r.startsWith("  • nested"));
    expect(rows[nested + 1]).toMatch(/^ {4}\S/);
    const quoted = rows.filter((r) => r.startsWith("│ "));
    expect(quoted.length).toBeGreaterThan(1);
  });

  test("a style crossing a wrap is closed at the row's end and re-opened on the next row", () => {
    const rows = render(["one two three four five six seven **bold words that run across the edge** end\n"], 40, true);
    const bold = rows.filter((r) => r.includes("bold") || r.includes("edge"));
    expect(bold.length).toBe(2);
    for (const row of bold) {
      expect(row).toContain("\x1b[1m");
      expect(row).toContain("\x1b[22m");
    }
    const heading = render(["# a heading that is long enough to wrap across two rows of text\n"], 40, true);
    expect(heading).toHaveLength(2);
    for (const row of heading) expect(row.startsWith("\x1b[1m\x1b[4m")).toBe(true);
  });

  test("a code line is never wrapped", () => {
    const long = `const ${"x".repeat(60)} = 1;`;
    const rows = render([`\`\`\`ts\n${long}\n\`\`\`\n`], 40);
    expect(rows).toEqual(["╭─ ts", `  ${long}`, "╰─"]);
  });
});

describe("inline", () => {
  test("snake_case and 2*3*4 are not italic; real emphasis is", () => {
    for (const text of ["snake_case_words and 2*3*4 and a * b * c", "_private_var", "trailing_underscore_ here", "x*y* z"]) {
      expect(oneRow(text)).toBe(text);
    }
    expect(oneRow("an _emphasised_ *word*")).toBe("an \x1b[3memphasised\x1b[23m \x1b[3mword\x1b[23m");
  });

  test("bold, strike, code, links and escapes", () => {
    expect(oneRow("**b** ~~s~~ `c`")).toBe("\x1b[1mb\x1b[22m \x1b[9ms\x1b[29m \x1b[36mc\x1b[39m");
    expect(oneRow("[docs](https://x.dev) \\*lit\\*", false)).toBe("docs (https://x.dev) *lit*");
    expect(oneRow("[**bold** label](u)")).toBe("\x1b[1mbold\x1b[22m label (\x1b[2m\x1b[4mu\x1b[24m\x1b[22m)");
  });

  test("markup inside inline code is left alone", () => {
    expect(oneRow("`**not bold** _x_ [a](b)`")).toBe("\x1b[36m**not bold** _x_ [a](b)\x1b[39m");
    expect(oneRow("`` a `tick` ``", false)).toBe("a `tick`");
  });
});

describe("code highlighting", () => {
  test("a ts block colours keywords, strings, numbers and comments; identifiers stay plain", () => {
    const rows = render(['```ts\nconst answer = "yes" + 42; // note\n```\n'], 80, true);
    const code = rows[1] ?? "";
    expect(code).toContain("\x1b[35mconst\x1b[39m");
    expect(code).toContain('\x1b[32m"yes"\x1b[39m');
    expect(code).toContain("\x1b[33m42\x1b[39m");
    expect(code).toContain("\x1b[90m// note\x1b[39m");
    expect(code).toContain("\x1b[39m answer = ");
    expect(code).not.toMatch(/\x1b\[[0-9;]*manswer/);
  });

  test("comment markers follow the language", () => {
    const line = (lang: string, text: string) => render([`\`\`\`${lang}\n${text}\n`], 80, true)[1] ?? "";
    expect(line("python", "x = 1  # note")).toContain("\x1b[90m# note\x1b[39m");
    expect(line("python", "a // b")).not.toContain("\x1b[90m");
    expect(line("sql", "SELECT 1 -- note")).toBe("  \x1b[35mSELECT\x1b[39m \x1b[33m1\x1b[39m \x1b[90m-- note\x1b[39m");
    expect(line("sh", "echo ${#list} # n")).toBe("  echo ${#list} \x1b[90m# n\x1b[39m");
    expect(line("rust", "fn f<'a>(s: &'a str) -> char { 'x' }")).toContain("\x1b[32m'x'\x1b[39m");
    expect(line("rust", "fn f<'a>(s: &'a str) -> char { 'x' }")).not.toContain("\x1b[32m'a");
  });

  test("an unknown language still gets strings, numbers and comments, but no keywords", () => {
    const rows = render(["```\nif 'str' 42 # comment\ndon't\n```\n"], 80, true);
    expect(rows[1]).toBe("  if \x1b[32m'str'\x1b[39m \x1b[33m42\x1b[39m \x1b[90m# comment\x1b[39m");
    expect(rows[2]).toBe("  don't");
  });
});

describe("tables", () => {
  const render = (text: string, width = 80) => {
    const md = markdownRenderer({ width, color: false });
    return [...md.push(text), ...md.flush()];
  };

  test("columns are as wide as their widest cell, aligned as the rule row says, with the header ruled off", () => {
    const rows = render("| Name | Size | Kind |\n|:--|--:|:-:|\n| `a.ts` | 12 | **code** |\n| notes.md | 3400 | text |\nafter\n");
    expect(rows).toEqual([
      " Name     │ Size │ Kind",
      "──────────┼──────┼──────",
      " a.ts     │   12 │ code",
      " notes.md │ 3400 │ text",
      "after",
    ]);
  });

  test("a table is laid out only once it ends, so a late wide cell widens its column", () => {
    const md = markdownRenderer({ width: 80, color: false });
    expect(md.push("| a | b |\n|---|---|\n| 1 | 2 |\n")).toEqual([]);
    expect([...md.push("| a much wider cell | 3 |\n"), ...md.flush()]).toEqual([
      " a                 │ b",
      "───────────────────┼───",
      " 1                 │ 2",
      " a much wider cell │ 3",
    ]);
  });

  test("too wide for the terminal: the widest column narrows and its cells wrap inside it; an escaped pipe stays in its cell", () => {
    const long = "a note long enough that it cannot fit in a terminal only forty columns wide";
    const rows = render(`| key | note |\n|---|---|\n| a \\| b | ${long} |\n`, 40);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    expect(rows[2]!.startsWith(" a | b │ a note")).toBe(true);
    expect(rows.slice(2).map((row) => row.split("│")[1]!.trim()).join(" ")).toBe(long);
    expect(rows.slice(3).every((row) => row.startsWith("       │ "))).toBe(true);
  });

  test("a table written without outer pipes is laid out too; a line with a pipe that heads no table stays prose", () => {
    expect(render("Name | Size\n--- | ---:\na.ts | 12\nnotes.md | 3400\n\nend\n")).toEqual([
      " Name     │ Size",
      "──────────┼──────",
      " a.ts     │   12",
      " notes.md │ 3400",
      "",
      "end",
    ]);
    expect(render("run `a | b` first\nthen **this**\n")).toEqual(["run a | b first", "then this"]);
    const md = markdownRenderer({ width: 80, color: false });
    expect(md.push("left | right\n")).toEqual([]); // held: the next line decides
    expect(md.flush()).toEqual(["left | right"]);
  });

  test("rows without a rule row are still laid out, with no header", () => {
    expect(render("| x | 1 |\n| yy | 22 |\n")).toEqual([" x  │ 1", " yy │ 22"]);
  });
});
