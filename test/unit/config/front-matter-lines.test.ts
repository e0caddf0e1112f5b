// The by-lines reading of a front matter block (the last resort when YAML refuses it): where YAML
// can read a block it agrees with YAML; where YAML cannot (an unquoted ": ", Claude Code's
// <example> lines), each top-level key still gets its value and nothing is lost.
import { describe, expect, test } from "bun:test";
import { readLines } from "../../../src/config/front-matter-lines.ts";

/** Where YAML reads the block, readLines must read it the same. */
function agreesWithYaml(block: string): void {
  expect(readLines(block)).toEqual(Bun.YAML.parse(block) as Record<string, unknown>);
}

describe("what YAML reads, read the same", () => {
  test("scalars: text, numbers, booleans, null, quoted strings with escapes", () => {
    agreesWithYaml('name: reviewer\nmaxTurns: 5\nbackground: true\nmodel: null\ndescription: "two\\nlines"\nquote: \'it\'\'s\'');
  });

  test("a flow list and a flow map on one line", () => {
    agreesWithYaml("tools: [Read, Grep, Glob]\nhooks: {a: 1, b: [x]}");
  });

  test("an indented list and an indented map below a bare key", () => {
    agreesWithYaml("tools:\n  - Read\n  - Bash(git *)\nenv:\n  A: '1'\n  B: two");
  });

  test("block scalars: | keeps lines, > folds them, - strips the last newline", () => {
    agreesWithYaml("prompt: |\n  line one\n  line two\nname: x");
    agreesWithYaml("description: >\n  folded into\n  one line\n\n  a new paragraph\nname: x");
    agreesWithYaml("a: |-\n  no newline at the end\nb: >-\n  folded\n  too");
  });

  test("a more indented line in a folded block keeps its line breaks, blank lines are breaks, as YAML does", () => {
    agreesWithYaml("d: >\n  text\n    indented code\n  more\n");
    agreesWithYaml("d: >\n  a\n  b\n\n  c\n");
    agreesWithYaml("d: >\n  a\n\n\n  b\n");
    agreesWithYaml("d: >\n  a\n    code\n\n  b\n");
    agreesWithYaml("d: >\n  a\n\n    code\n  b\n");
    agreesWithYaml("d: >\n  a\n    x\n    y\n  b\n");
    agreesWithYaml("d: >\n\n  a\n  b\n");
  });

  test("comment lines at the left edge are skipped; a trailing # comment after text is not the value", () => {
    agreesWithYaml("# the agent\nname: fast # the quick one\n# between\nmodel: haiku");
  });

  test("a bare key with nothing below is null in YAML and absent-valued here", () => {
    expect(readLines("color:\nname: x")).toEqual({ color: undefined, name: "x" });
  });
});

describe("what YAML refuses, read by lines", () => {
  test("an unquoted ': ' in a value is text (YAML calls it a nested map and fails)", () => {
    const block = "name: helper\ndescription: Use this agent when: the user asks for a review";
    expect(() => Bun.YAML.parse(block)).toThrow();
    expect(readLines(block)).toEqual({ name: "helper", description: "Use this agent when: the user asks for a review" });
  });

  test("Claude Code's <example> blocks: lines below a description continue it; with keys, user: lines inside do not start a field", () => {
    const block = [
      "name: reviewer",
      "description: Reviews code. Examples:",
      "<example>",
      'user: "review my diff"',
      "assistant: I'll use the reviewer agent",
      "</example>",
      "tools: Read, Grep",
    ].join("\n");
    const read = readLines(block, ["name", "description", "tools", "model"]);
    expect(read).toEqual({
      name: "reviewer",
      description: 'Reviews code. Examples:\n<example>\nuser: "review my diff"\nassistant: I\'ll use the reviewer agent\n</example>',
      tools: "Read, Grep",
    });
    // without keys every top-level pair is a field of its own
    expect(Object.keys(readLines(block)!)).toEqual(["name", "description", "user", "assistant", "tools"]);
  });

  test("an indented list YAML refuses becomes its items, quotes taken off and escapes read", () => {
    const block = "tools:\n  - Read\n  - \"Bash(echo \\\"hi\\\")\"\n  - 'it''s'\n  - Edit: *odd";
    expect(() => Bun.YAML.parse(block)).toThrow();
    expect(readLines(block)).toEqual({ tools: ["Read", 'Bash(echo "hi")', "it's", "Edit: *odd"] });
  });

  test("an indented block that is neither a list nor a map is its text, dedented", () => {
    const block = "notes:\n    first: [unclosed\n    second line\nname: x";
    expect(readLines(block)).toEqual({ notes: "first: [unclosed\nsecond line", name: "x" });
  });

  test("a stray line at the left edge below a list is not taken into the list", () => {
    expect(readLines("tools:\n  - Read\nstray text\nname: x")).toEqual({ tools: ["Read"], name: "x" });
  });

  test("a value starting with a letter is text even with odd characters YAML would choke on", () => {
    expect(readLines("description: Run `npm test` @ the end, {always}: [no matter]")).toEqual({ description: "Run `npm test` @ the end, {always}: [no matter]" });
  });

  test("a YAML keyword as a value is what YAML 1.2 makes of it; the same word in a sentence is text", () => {
    expect(readLines("a: true\nb: False\nc: yes\nd: true story")).toEqual({ a: true, b: false, c: "yes", d: "true story" });
  });
});

describe("what cannot be read this way", () => {
  test("text before the first field", () => {
    expect(readLines("hello there\nname: x")).toBeUndefined();
  });

  test("a quote or a bracket never closed", () => {
    expect(readLines('description: "never closed\nname: x')).toBeUndefined();
    expect(readLines("tools: [Read, Grep\nname: x")).toBeUndefined();
    expect(readLines("hooks: {a: 1\nname: x")).toBeUndefined();
  });

  test("blank lines and comments before the first field are fine; an empty block is no fields", () => {
    expect(readLines("\n# only a comment\n\nname: x")).toEqual({ name: "x" });
    expect(readLines("")).toEqual({});
  });
});
