// Values the line gives its variables (shell/vars.ts, shell/loop.ts): a plain assignment that surely
// ran before the use, and a `for` loop's words, are substituted; anything else stays dynamic.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeShell } from "../../../../src/permission/shell/analyze.ts";
import { HOME, runCases } from "./cases.ts";

describe("a value assigned earlier on the straight line is substituted", () => {
  runCases([
    { line: 'f=x; cat "$f"', argv: [["cat", "x"]] },
    { line: "f=a.txt; cat $f ${f} \"${f}\" \"$f.bak\" pre$f", argv: [["cat", "a.txt", "a.txt", "a.txt", "a.txt.bak", "prea.txt"]] },
    { line: "f=~/.ssh/id_rsa; cat \"$f\"", argv: [["cat", `${HOME}/.ssh/id_rsa`]] },
    { line: "d=src; g=$d/x.ts; cat \"$g\"", argv: [["cat", "src/x.ts"]] },
    { line: "f='a b'; cat \"$f\"", argv: [["cat", "a b"]] },
    { line: "f='*.ts'; cat \"$f\"", argv: [["cat", "*.ts"]] },
    { line: "f=*.ts; cat \"$f\"", argv: [["cat", "*.ts"]] },
    { line: "f=x && cat \"$f\"", argv: [["cat", "x"]] },
    { line: "f=x; (cat \"$f\")", argv: [["cat", "x"]] },
    { line: "c=wc; $c -l x", argv: [["wc", "-l", "x"]] },
    { line: "f=x; f=y; cat \"$f\"", argv: [["cat", "y"]] },
  ]);
});

describe("a value the walk cannot be sure of stays dynamic", () => {
  const dynamicCat = (line: string) => ({ line, commands: [{ argv: ["cat", expect.stringContaining("$")], dynamic: true }] });
  runCases([
    dynamicCat('cat "$f"; f=x'),
    dynamicCat('(f=x); cat "$f"'),
    dynamicCat('f=x | cat "$f"'),
    dynamicCat("f='a b'; cat $f"),
    dynamicCat("f='*'; cat $f"),
    dynamicCat("f=; cat $f"),
    dynamicCat("IFS=/; f=a/b; cat $f"),
    dynamicCat('PATH=/x; cat "$PATH"'),
    dynamicCat('f=x; bash -c \'cat "$f"\''),
  ]);
  for (const line of [
    'f=x; f=$(date); cat "$f"',
    'f=x; f+=y; cat "$f"',
    'f=x; f=(a b); cat "$f"',
    'f=x; f[1]=y; cat "$f"',
    'f=x; read f; cat "$f"',
    'f=x; declare f=y; cat "$f"',
    'f=x; export f; cat "$f"',
    'f=x; unset f; cat "$f"',
    'f=x; builtin unset f; cat "$f"',
    'f=x; command export f=y; cat "$f"',
    'f=x; builtin declare f=y; cat "$f"',
    'f=x; typeset f=y; cat "$f"',
    'declare -l f; f=Y; cat "$f"',
    'builtin declare -n r=f; f=x; r=y; cat "$f"',
    'declare -i f; f=1+1; cat "$f"',
    'f=x; printf -v f %s y; cat "$f"',
    'f=x; : ${f:=y}; cat "$f"',
    'f=x; (( f = 1 )); cat "$f"',
    'f=x; a=f=1; echo $((a)); cat "$f"',
    'f=x; if true; then f=y; fi; cat "$f"',
    'f=x; true && f=y; cat "$f"',
    'f=x; true || f=y; cat "$f"',
    'f=x; case a in a) f=y;; esac; cat "$f"',
    'f=x; g() { f=y; }; g; cat "$f"',
    'f=x; f=y true; cat "$f"',
    'f=x; eval "f=y"; cat "$f"',
    "f=x; trap 'f=y' DEBUG; cat \"$f\"",
    'f=x; shopt -s lastpipe; echo | read f; cat "$f"',
    'f=x; for i in 1 2; do cat "$f"; f=y; done',
    'f=x; while true; do cat "$f"; f=$(date); done',
    'f=a:~/b; cat "$f"',
    "g() { cat $f; }; f=a/b; IFS=/ g",
  ]) {
    test(JSON.stringify(line), async () => {
      const cats = (await analyzeShell(line, "/w", HOME)).commands.filter((c) => c.argv[0] === "cat");
      expect(cats.length).toBeGreaterThan(0);
      for (const cat of cats) expect(cat).toMatchObject({ argv: ["cat", expect.stringContaining("$")], dynamic: true });
    });
  }
});

describe("a for loop's variable takes each of its words", () => {
  runCases([
    { line: 'for f in a b; do wc -l "$f"; done', argv: [["wc", "-l", "a"], ["wc", "-l", "b"]] },
    { line: 'for f in a "b c" ~/d; do cat "$f"; done', argv: [["cat", "a"], ["cat", "b c"], ["cat", `${HOME}/d`]] },
    { line: 'for f in a; do rm "$f"; done', argv: [["rm", "a"]] },
    { line: 'for f in a b; do for g in c; do diff "$f" "$g"; done; done', argv: [["diff", "a", "c"], ["diff", "b", "c"]] },
    { line: 'for f in $(ls); do cat "$f"; done', commands: [{ argv: ["ls"] }, { argv: ["cat", '"$f"'], dynamic: true }] },
    { line: 'for f; do cat "$f"; done', commands: [{ argv: ["cat", '"$f"'], dynamic: true }] },
    { line: 'select f in a b; do cat "$f"; done', commands: [{ argv: ["cat", '"$f"'], dynamic: true }] },
    { line: 'for f in a b; do cat "$f"; done; cat "$f"', commands: [{ argv: ["cat", "a"] }, { argv: ["cat", "b"] }, { argv: ["cat", '"$f"'], dynamic: true }] },
    { line: 'for f in a b; do cat "$f"; f=$(date); done', argv: [["cat", "a"], ["date"], ["cat", "b"]] },
    { line: 'for f in a b; do cat "$f"; eval x; done', commands: [{ argv: ["cat", '"$f"'], dynamic: true }, { argv: ["eval", "x"] }] },
  ]);
});

describe("a glob among a loop's words takes the real files", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-values-")));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, "src"));
  for (const name of ["a.ts", "b c.ts", ".hidden.ts", "src/x.ts", "README.md"]) writeFileSync(join(root, name), "");
  const argv = async (line: string) => (await analyzeShell(line, root, HOME)).commands.map((c) => c.argv);

  test("each match in order, dot files left out as bash does", async () => {
    expect(await argv('for f in *.ts src/*.ts; do wc -l "$f"; done')).toEqual([["wc", "-l", "a.ts"], ["wc", "-l", "b c.ts"], ["wc", "-l", "src/x.ts"]]);
  });
  test("an unquoted use of a match holding a blank stays dynamic", async () => {
    expect(await argv("for f in *.ts; do cat $f; done")).toEqual([["cat", "a.ts"], ["cat", "$f"]]);
  });
  test("a glob after a known folder, or under the home, is expanded; a quoted glob character is not a glob", async () => {
    expect(await argv('d=src; for f in "$d"/*.ts; do cat "$f"; done')).toEqual([["cat", "src/x.ts"]]);
    expect(await argv(`for f in ${root}/src/*; do cat "$f"; done`)).toEqual([["cat", `${root}/src/x.ts`]]);
    expect(await argv('for f in "*".ts; do cat "$f"; done')).toEqual([["cat", "*.ts"]]);
    expect(await argv("d='s*'; for f in \"$d\"/*.ts; do cat \"$f\"; done")).toEqual([["cat", '"$f"']]);
  });
  test("a glob that matches nothing is the word itself", async () => {
    expect(await argv('for f in *.nope; do cat "$f"; done')).toEqual([["cat", "*.nope"]]);
  });
  test("after shopt the glob is not followed", async () => {
    expect(await argv('shopt -s dotglob; for f in *.ts; do cat "$f"; done')).toEqual([["shopt", "-s", "dotglob"], ["cat", '"$f"']]);
  });
});
