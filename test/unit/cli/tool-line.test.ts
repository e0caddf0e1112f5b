import { describe, expect, test } from "bun:test";
import { deniedReason, progressLine, finishedLine, fitColumns, formatDuration, mainArgument, runningLine, shortResult } from "../../../src/cli/tool-line.ts";

const cwd = "/home/u/proj";
const plain = { color: false };
const color = { color: true };
const ok = (output: string, truncated = false) => ({ is_error: false, output, truncated });
const failed = (output: string) => ({ is_error: true, output, truncated: false });
const ESC = "\u001b";

describe("mainArgument", () => {
  test("each built-in shows its main input", () => {
    expect(mainArgument("bash", { command: "npm test", timeout: 5000 }, cwd, 80)).toBe("npm test");
    expect(mainArgument("read", { path: "/home/u/proj/src/a.ts", offset: 3 }, cwd, 80)).toBe("src/a.ts");
    expect(mainArgument("write", { path: "notes.md", content: "x" }, cwd, 80)).toBe("notes.md");
    expect(mainArgument("edit", { path: "/etc/hosts", old_string: "a", new_string: "b" }, cwd, 80)).toBe("/etc/hosts");
    expect(mainArgument("list", {}, cwd, 80)).toBe(".");
    expect(mainArgument("list", { path: "/home/u/proj" }, cwd, 80)).toBe(".");
    expect(mainArgument("glob", { pattern: "**/*.ts" }, cwd, 80)).toBe("**/*.ts");
    expect(mainArgument("grep", { pattern: "TODO", path: "/home/u/proj/src" }, cwd, 80)).toBe("TODO in src");
    expect(mainArgument("webfetch", { url: "https://example.com/a" }, cwd, 80)).toBe("https://example.com/a");
    expect(mainArgument("todo", { todos: [{}, {}, {}] }, cwd, 80)).toBe("3 tasks");
    expect(mainArgument("todo", { todos: [{}] }, cwd, 80)).toBe("1 task");
  });

  test("a path beside the working directory (same prefix) is not made relative", () => {
    expect(mainArgument("read", { path: "/home/u/project2/a.ts" }, cwd, 80)).toBe("/home/u/project2/a.ts");
    expect(mainArgument("read", { path: "/home/u/a.ts" }, cwd, 80)).toBe("/home/u/a.ts");
  });

  test("unknown tools: the first string field, else compact JSON, else nothing", () => {
    expect(mainArgument("deploy", { force: true, target: "staging", region: "eu" }, cwd, 80)).toBe("staging");
    expect(mainArgument("count", { n: 3, deep: [1, 2] }, cwd, 80)).toBe('{"n":3,"deep":[1,2]}');
    expect(mainArgument("noop", {}, cwd, 80)).toBe("");
    expect(mainArgument("history", { from: 3, to: 5 }, cwd, 80)).toBe('{"from":3,"to":5}');
  });

  test("one line, control characters dropped, cut with an ellipsis to `max` columns", () => {
    expect(mainArgument("bash", { command: "cd src &&\n  make\tall" }, cwd, 80)).toBe("cd src && make all");
    expect(mainArgument("bash", { command: `echo ${ESC}[31mred` }, cwd, 80)).toBe("echo [31mred");
    const cut = mainArgument("bash", { command: "echo 0123456789" }, cwd, 10);
    expect(cut).toBe("echo 0123…");
    expect(Bun.stringWidth(cut)).toBe(10);
  });

  test("wide characters are measured in columns, not code units", () => {
    const cut = mainArgument("bash", { command: "echo 日本語テキスト" }, cwd, 10);
    expect(Bun.stringWidth(cut)).toBeLessThanOrEqual(10);
    expect(cut).toBe("echo 日本…");
  });
});

describe("runningLine", () => {
  test("the name and the argument, two spaces apart, within the width", () => {
    expect(runningLine("bash", { command: "npm test" }, cwd, 80, plain)).toBe("bash  npm test");
    expect(runningLine("todo", {}, cwd, 80, plain)).toBe("todo");
    const line = runningLine("bash", { command: "x".repeat(100) }, cwd, 30, plain);
    expect(Bun.stringWidth(line)).toBe(30);
    expect(line.endsWith("…")).toBe(true);
  });

  test("color: the name is bold; without color there is no escape code", () => {
    expect(runningLine("bash", { command: "ls" }, cwd, 80, color)).toBe(`${ESC}[1mbash${ESC}[22m  ls`);
    expect(runningLine("bash", { command: "ls" }, cwd, 80, plain)).not.toContain(ESC);
  });
});

describe("finishedLine", () => {
  test("success and failure, plain", () => {
    expect(finishedLine({ name: "bash", input: { command: "npm test" } }, ok("a\nb\n14 pass\n"), 1234, cwd, 80, plain)).toBe(
      "✓ bash  npm test  1.2s  → 14 pass (+2 lines)",
    );
    const error = failed("old_string not found in /home/u/proj/src/a.ts.\nThe closest text is at line 3.");
    expect(finishedLine({ name: "edit", input: { path: "src/a.ts" } }, error, 100, cwd, 200, plain)).toBe(
      "✗ edit  src/a.ts  0.1s  → old_string not found in /home/u/proj/src/a.ts.",
    );
  });

  test("a truncated output says so", () => {
    expect(finishedLine({ name: "read", input: { path: "a" } }, ok("     1\tx", true), 10, cwd, 80, plain)).toBe("✓ read  a  0.0s  → 1 line (truncated)");
  });

  test("colors: green check, red cross, bold name, dim duration and result", () => {
    const good = finishedLine({ name: "bash", input: { command: "ls" } }, ok("a"), 300, cwd, 80, color);
    expect(good).toBe(`${ESC}[32m✓${ESC}[39m ${ESC}[1mbash${ESC}[22m  ls${ESC}[2m  0.3s${ESC}[22m${ESC}[2m  → a${ESC}[22m`);
    const bad = finishedLine({ name: "bash", input: { command: "ls" } }, failed("boom"), 300, cwd, 80, color);
    expect(bad.startsWith(`${ESC}[31m✗${ESC}[39m`)).toBe(true);
    expect(finishedLine({ name: "bash", input: { command: "ls" } }, ok("a"), 300, cwd, 80, plain)).toBe("✓ bash  ls  0.3s  → a");
  });

  test("fits the width: argument and result are both cut, the result keeps its share", () => {
    const start = { name: "bash", input: { command: `npm run ${"long-script-name ".repeat(10)}` } };
    const end = ok(`${"a very long final output line ".repeat(5)}\n`);
    for (const width of [40, 60, 80, 120]) {
      const line = finishedLine(start, end, 65_000, cwd, width, plain);
      expect(Bun.stringWidth(line)).toBeLessThanOrEqual(width);
      expect(line).toStartWith("✓ bash  npm run");
      expect(line).toContain("  1m05s  → a v");
    }
    expect(Bun.stringWidth(finishedLine(start, end, 0, cwd, 60, color).replace(/\u001b\[\d+m/g, ""))).toBeLessThanOrEqual(60);
  });

  test("a narrow terminal drops the argument before the result, and the name alone when nothing else fits", () => {
    const start = { name: "grep", input: { pattern: "something-rather-long" } };
    expect(finishedLine(start, ok("a.ts\nb.ts"), 500, cwd, 24, plain)).toBe("✓ grep  0.5s  → 2 files");
    expect(finishedLine(start, ok("a.ts"), 500, cwd, 8, plain)).toBe("✓ grep");
  });
});

describe("shortResult", () => {
  test("errors: the first non-empty line", () => {
    expect(shortResult("bash", { is_error: true, output: "\n\n[killed: timed out after 120s]\nmore" })).toBe("[killed: timed out after 120s]");
    expect(shortResult("bash", { is_error: true, output: "" })).toBe("failed");
  });

  test("read counts numbered lines, including empty ones", () => {
    expect(shortResult("read", { is_error: false, output: "     1\tconst a = 1;\n     2\t\n     3\t}\n\n(Showing lines 1-3. More lines follow: read with offset=4 to continue.)" })).toBe(
      "3 lines",
    );
    expect(shortResult("read", { is_error: false, output: "/p/empty.txt is empty." })).toBe("empty file");
  });

  test("bash: the last non-empty line and how many came before it", () => {
    expect(shortResult("bash", { is_error: false, output: "" })).toBe("no output");
    expect(shortResult("bash", { is_error: false, output: "done\n" })).toBe("done");
    expect(shortResult("bash", { is_error: false, output: "x\n\ny\nz" })).toBe("z (+2 lines)");
    expect(shortResult("bash", { is_error: true, output: "Exit code 1\nx\ny" })).toBe("Exit code 1");
  });

  test("edit and write: the summary without the absolute path", () => {
    expect(shortResult("edit", { is_error: false, output: "Edited /p/a.ts: replaced 2 occurrences.\n@@ -1,1 +1,1 @@" })).toBe("replaced 2 occurrences");
    expect(shortResult("write", { is_error: false, output: "Wrote 3 lines (40 bytes) to /p/a: b.md: created a new file." })).toBe(
      "Wrote 3 lines (40 bytes): created a new file.",
    );
  });

  test("searches count their hits, including those not shown", () => {
    expect(shortResult("glob", { is_error: false, output: "a.ts\nb.ts\n(20 more not shown; narrow the pattern)" })).toBe("22 files");
    expect(shortResult("glob", { is_error: false, output: 'No files match "*.rs".' })).toBe("no matches");
    expect(shortResult("grep", { is_error: false, output: "a.ts:3:x\nb.ts:9:y" })).toBe("2 matching lines");
    expect(shortResult("grep", { is_error: false, output: "a.ts\n(5 more files not shown; narrow it)" })).toBe("6 files");
    expect(shortResult("grep", { is_error: false, output: "No matches for /x/." })).toBe("no matches");
    expect(shortResult("list", { is_error: false, output: "/p/\n  src/\n    a.ts\n  b.ts" })).toBe("3 entries");
    expect(shortResult("list", { is_error: false, output: "/p/\n  (empty)" })).toBe("0 entries");
  });

  test("todo: the counts line; other tools: the first line, cut", () => {
    expect(shortResult("todo", { is_error: false, output: "[x] a\n[ ] b\n(1 done, 0 in progress, 1 pending)" })).toBe("1 done, 0 in progress, 1 pending");
    expect(shortResult("mytool", { is_error: false, output: "\nhello\nworld" })).toBe("hello");
    expect(Bun.stringWidth(shortResult("mytool", { is_error: false, output: "z".repeat(500) }))).toBe(120);
  });
});

test("formatDuration: tenths under ten seconds, seconds under a minute, then minutes", () => {
  expect(formatDuration(300)).toBe("0.3s");
  expect(formatDuration(9_940)).toBe("9.9s");
  expect(formatDuration(9_960)).toBe("10s");
  expect(formatDuration(12_400)).toBe("12s");
  expect(formatDuration(59_600)).toBe("1m00s");
  expect(formatDuration(125_000)).toBe("2m05s");
  expect(formatDuration(3_725_000)).toBe("1h02m");
  expect(formatDuration(-5)).toBe("0.0s");
});

test("fitColumns leaves text that fits alone and never exceeds the width", () => {
  expect(fitColumns("abc", 3)).toBe("abc");
  expect(fitColumns("abcd", 3)).toBe("ab…");
  expect(fitColumns("abcd", 0)).toBe("");
});

describe("print mode's lines", () => {
  test("progressLine: the tool and its main argument, paths relative to the workspace", () => {
    expect(progressLine("todo", { todos: [{ content: "a", status: "pending" }, { content: "b", status: "done" }] }, "/w")).toBe("› todo 2 tasks");
    expect(progressLine("read", { path: "/w/src/a.ts" }, "/w")).toBe("› read src/a.ts");
    expect(progressLine("bash", { command: "npm test\n&& echo ok" }, "/w")).toBe("› bash npm test && echo ok");
    expect(progressLine("mystery", {}, "/w")).toBe("› mystery");
    expect(progressLine("bash", { command: "x".repeat(300) }, "/w")).toHaveLength("› bash ".length + 100);
  });

  test("deniedReason: the rule that denied, from the broker's result; nothing for other errors", () => {
    const output = 'Permission denied: bash(git push) is forbidden by the rule "bash(git push *)" (flag). Do not try to reach the same result another way; tell the user what you needed.';
    expect(deniedReason({ is_error: true, output })).toBe('bash(git push) is forbidden by the rule "bash(git push *)" (flag)');
    expect(deniedReason({ is_error: true, output: "The user rejected this tool call; it did not run." })).toBeUndefined();
    expect(deniedReason({ is_error: false, output })).toBeUndefined();
  });
});
