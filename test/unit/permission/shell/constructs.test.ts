// Every construct a command can hide in: lists, pipes, subshells, groups, functions, substitutions,
// process substitution, here-docs and here-strings, assignments, compound commands.
import { describe, expect, test } from "bun:test";
import { loadShellParser } from "../../../../src/permission/shell/analyze.ts";
import { analyze, runCases } from "./cases.ts";

describe("lists and pipelines", () => {
  runCases([
    { line: "a && b || c; d", argv: [["a"], ["b"], ["c"], ["d"]] },
    { line: "a | b |& c", argv: [["a"], ["b"], ["c"]] },
    { line: "rm -rf x & echo started", argv: [["rm", "-rf", "x"], ["echo", "started"]] },
    { line: "a\nb\n\nc", argv: [["a"], ["b"], ["c"]] },
    { line: "! rm x", argv: [["rm", "x"]] },
    { line: "echo a # rm -rf /", argv: [["echo", "a"]] },
    { line: "", argv: [] },
  ]);
});

describe("subshells, groups and functions", () => {
  runCases([
    { line: "(rm x; rm y)", argv: [["rm", "x"], ["rm", "y"]] },
    { line: "{ rm x; rm y; }", argv: [["rm", "x"], ["rm", "y"]] },
    { line: "f() { rm -rf /; }; f", argv: [["rm", "-rf", "/"], ["f"]] },
    { line: "function g { rm y; }", argv: [["rm", "y"]] },
    { line: "h() ( rm z ); h", argv: [["rm", "z"], ["h"]] },
    { line: "f() { g; }; g() { rm x; }; f", argv: [["g"], ["rm", "x"], ["f"]] },
    { line: "f() { f; }; f", argv: [["f"]] },
  ]);
});

describe("substitutions", () => {
  runCases([
    { line: "echo $(rm x)", argv: [["rm", "x"], ["echo", "$(rm x)"]] },
    { line: "echo `rm x`", argv: [["rm", "x"], ["echo", "`rm x`"]] },
    { line: 'echo "a $(rm b) c"', argv: [["rm", "b"], ["echo", '"a $(rm b) c"']] },
    { line: "echo $(echo $(rm deep))", argv: [["rm", "deep"], ["echo", "$(rm deep)"], ["echo", "$(echo $(rm deep))"]] },
    { line: "diff <(ls a) >(rm b)", argv: [["ls", "a"], ["rm", "b"], ["diff", "<(ls a)", ">(rm b)"]] },
    { line: "echo ${x:-$(rm y)}", argv: [["rm", "y"], ["echo", "${x:-$(rm y)}"]] },
    { line: "echo $(( 1 + 2 ))", argv: [["echo", "$(( 1 + 2 ))"]] },
    { line: "echo $(( $(rm x) + 1 ))", argv: [["$(( $(rm x) + 1 ))"], ["rm", "x"], ["echo", "$(( $(rm x) + 1 ))"]] },
    { line: "(( x++ ))", argv: [["(( x++ ))"]] },
  ]);
});

describe("assignments", () => {
  runCases([
    { line: "x=$(rm a)", argv: [["rm", "a"]] },
    { line: "x=$(rm a) y=`rm b`", argv: [["rm", "a"], ["rm", "b"]] },
    { line: "a=(1 $(rm z))", argv: [["rm", "z"]] },
    { line: "export A=$(rm b)", argv: [["rm", "b"], ["export", "A=$(rm b)"]] },
    { line: "local x; declare -x y=2", argv: [["local", "x"], ["declare", "-x", "y=2"]] },
    { line: "x=1", argv: [] },
    { line: "A=$(rm p) ls", argv: [["rm", "p"], ["ls"]], commands: [{}, { env: ["A=$(rm p)"] }] },
  ]);
});

describe("here-docs and here-strings", () => {
  runCases([
    { line: "cat <<EOF\nrm -rf /\nEOF", argv: [["cat"]] },
    { line: "cat <<EOF\n$(rm a) `rm b`\nEOF", argv: [["rm", "a"], ["rm", "b"], ["cat"]] },
    { line: "cat <<'EOF'\n$(rm a) `rm b`\nEOF", argv: [["cat"]] },
    { line: "cat <<EOF && rm x\nhi\nEOF", argv: [["cat"], ["rm", "x"]] },
    { line: "cat <<<\"$(rm z)\"", argv: [["rm", "z"], ["cat"]] },
    { line: "cat <<-EOF > out\n\tbody\n\tEOF", argv: [["cat"]], redirects: [{ kind: "write", target: "out", path: "/w/out" }] },
  ]);
});

describe("what tree-sitter-bash reads differently from bash", () => {
  runCases([
    // A backslash-newline between tokens joins them in bash.
    { line: "r\\\nm -rf x", argv: [["rm", "-rf", "x"]] },
    { line: "su\\\ndo r\\\nm x", commands: [{ argv: ["rm", "x"], wrappers: ["sudo"] }] },
    { line: "echo a # comment \\\nrm b", argv: [["echo", "a"], ["rm", "b"]] },
    { line: "echo 'a\\\nb'", argv: [["echo", "a\\\nb"]] },
    // `...` left as text inside ${...} and here-docs; escaped backquotes inside `...`.
    { line: "echo ${x:-`rm y`}", argv: [["rm", "y"], ["echo", "${x:-`rm y`}"]] },
    { line: "echo `echo \\`rm deep\\``", argv: [["rm", "deep"], ["echo", "`rm deep`"], ["echo", "`echo \\`rm deep\\``"]] },
    // `a && b > f` redirects b only: from the directory b runs in.
    { line: "cd /etc && ls > f", redirects: [{ kind: "write", target: "f", path: "/etc/f" }] },
    // The word `{}` runs a command named `{}`.
    { line: "{}", argv: [["{}"]] },
  ]);
});

describe("compound commands", () => {
  runCases([
    { line: "if a; then b; elif c; then d; else e; fi", argv: [["a"], ["b"], ["c"], ["d"], ["e"]] },
    { line: "while a; do b; done; until c; do d; done", argv: [["a"], ["b"], ["c"], ["d"]] },
    { line: "for i in $(rm l); do rm $i; done", argv: [["rm", "l"], ["rm", "$i"]] },
    { line: "for ((i=0; i<3; i++)); do rm x; done", argv: [["rm", "x"]] },
    { line: "case $x in a) rm a;; *) rm b;; esac", argv: [["rm", "a"], ["rm", "b"]] },
    { line: "select x in a b; do rm $x; done", argv: [["rm", "$x"]] },
    { line: '[[ -f "$(rm t)" ]] && [ -d y ]', argv: [["rm", "t"]] },
    { line: "time rm x", argv: [["rm", "x"]], commands: [{ wrappers: ["time"] }] },
    { line: "coproc rm x", argv: [["rm", "x"]], commands: [{ wrappers: ["coproc"] }] },
  ]);
});

describe("results", () => {
  test("each command keeps its source text", async () => {
    const result = await analyze("sudo rm -rf x && echo done");
    expect(result.commands.map((c) => c.text)).toEqual(["sudo rm -rf x", "echo done"]);
  });

  test("a command with nothing special has exactly the base fields", async () => {
    const result = await analyze("ls -la src");
    expect(result).toEqual({ commands: [{ argv: ["ls", "-la", "src"], env: [], wrappers: [], cwd: "/w", text: "ls -la src" }], redirects: [] });
  });

  test("a line that does not parse says where", async () => {
    const result = await analyze("ls && (rm x");
    expect(result).toEqual({ commands: [], redirects: [], error: expect.stringContaining("does not parse as bash (line 1, column") });
  });

  test("the parser is loaded once", async () => {
    expect(await loadShellParser()).toBe(await loadShellParser());
  });

  test("analysing many lines reuses the parser", async () => {
    const results = await Promise.all(["ls", "rm x", "echo $(id)"].map((line) => analyze(line)));
    expect(results.map((r) => r.commands.length)).toEqual([1, 1, 2]);
  });
});
