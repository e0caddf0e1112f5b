// The literal fast path (literal-line.ts) against the parser's path: for every command line the
// repository holds and the lines at the edges of its character set, where the fast path answers, its
// analysis is the parser's, to the byte; and it loads no parser.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, test } from "bun:test";
import type { Parser } from "web-tree-sitter";
import { analyzeShell, analyzeWith, loadShellParser } from "../../../../src/permission/shell/analyze.ts";
import { analyzeLiteral } from "../../../../src/permission/shell/literal-line.ts";
import { allLines, edgeLines, literalsOf } from "./literal-lines.ts";

const ROOT = resolve(import.meta.dir, "../../../..");
const HOME = "/home/u";

let parser: Parser;
beforeAll(async () => {
  parser = await loadShellParser();
}, 60_000);

/** The lines where the fast path answers and its answer differs from the parser's, from `cwd`. */
function differences(lines: string[], cwd: string): { line: string; fast: string; parsed: string }[] {
  const found: { line: string; fast: string; parsed: string }[] = [];
  for (const line of lines) {
    const fast = analyzeLiteral(line, cwd, HOME);
    if (fast === undefined) continue;
    const [a, b] = [JSON.stringify(fast), JSON.stringify(analyzeWith(parser, line, cwd, HOME))];
    if (a !== b) found.push({ line, fast: a, parsed: b });
  }
  return found;
}

describe("the literal fast path gives the parser's analysis", () => {
  const lines = allLines();

  test("over every line of the repository's corpora, tests, scripts and docs, the edge lines and random plain lines", () => {
    expect(lines.length).toBeGreaterThan(20_000);
    const answered = lines.filter((line) => analyzeLiteral(line, "/w", HOME) !== undefined);
    expect(answered.length).toBeGreaterThan(5_000); // the comparison below compares something
    expect(differences(lines, "/w")).toEqual([]);
  }, 60_000);

  test("from a folder that exists (a cd into it is followed through the disk, as the parser's path does)", () => {
    expect(differences(lines, ROOT)).toEqual([]);
    expect(differences(["cd src", "cd src/permission/..", "cd -P src", "cd no-such/..", "pushd test", "cd /tmp/../etc"], ROOT)).toEqual([]);
  }, 60_000);

  test("answers the common lines itself", () => {
    for (const line of ["ls -la", "git status", "echo 3", "npm test", "bun test test/unit", "cd src", "sudo -u root ls", "env A=b ls", "rm -rf dist", "date +%s", "  ls\t-la  "]) {
      expect(analyzeLiteral(line, "/w", HOME), line).toBeDefined();
    }
  });

  test("leaves to the parser what it would have to parse or cannot see", () => {
    const parsed = [
      ...["bash -c ls", "sudo sh -c ls", "watch ls", "flock x -c ls", "su -c ls", "trap ls EXIT", "parallel rm ::: a", "bun exec ls"],
      ...["ls ~", "echo $HOME", "ls *.ts", "echo {a,b}", "ls > x", "ls | wc", "ls; rm x", "ls && rm x", "echo 'a'", 'echo "a"', "echo a\\ b"],
      ...["ls # c", "ls\nrm x", "A=b ls", "x=1", "export A=b", "unset A", "declare -x A", "time ls", "if", "for", "! ls", "(ls)", "ls &"],
      ...["ls \u00e9", "echo `ls`", "[ -f x ]", "ls\r", ""],
    ];
    expect(parsed.filter((line) => analyzeLiteral(line, "/w", HOME) !== undefined)).toEqual([]);
  });

  test("the edge lines include every ASCII character in each place, and the scanner reads the test files' strings", () => {
    const edges = edgeLines();
    for (let code = 0; code < 128; code++) expect(edges).toContain(`echo a${String.fromCharCode(code)}b`);
    expect(literalsOf(`const a = "ls -la\\tx"; // \`git status\`\nf('it\\'s', \`echo 1\`, \`\${x} y\`);`)).toEqual(["ls -la\tx", "git status", "it's", "echo 1"]);
  });
});

test("analyzeShell answers a literal line without loading the parser, and loads it for the next line that needs it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rein-literal-"));
  try {
    const trace = join(dir, "trace.txt");
    writeFileSync(trace, "");
    const script = join(dir, "run.ts");
    const analyze = JSON.stringify(join(ROOT, "src/permission/shell/analyze.ts"));
    const mark = JSON.stringify(trace);
    writeFileSync(
      script,
      `import { appendFileSync } from "node:fs";
const { analyzeShell, warmUpParser } = await import(${analyze});
warmUpParser();
const first = await analyzeShell("git status", "/w", "/home/u");
await Bun.sleep(100); // past the warm-up's delay: a literal first line cancelled it
appendFileSync(${mark}, "-- after the literal line\\n");
const second = await analyzeShell("echo $HOME > out.txt", "/w", "/home/u");
console.log(JSON.stringify([first.commands[0].argv, second.redirects[0].path]));
`,
    );
    const proc = Bun.spawn([process.execPath, "--preload", join(ROOT, "test/support/trace-modules.ts"), script], {
      env: { ...process.env, REIN_TRACE_MODULES: trace },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(out)).toEqual([["git", "status"], "/w/out.txt"]);
    const [before, after] = readFileSync(trace, "utf8").split("-- after the literal line\n");
    expect(before).toContain("src/permission/shell/literal-line.ts");
    expect(before).not.toContain("src/permission/shell/parser.ts");
    expect(after).toContain("src/permission/shell/parser.ts");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
