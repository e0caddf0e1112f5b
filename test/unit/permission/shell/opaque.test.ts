// What cannot be known statically is marked: opaque commands (unseen code runs), dynamic words,
// errors for lines that do not parse; quoting never hides a command's name.
import { describe, expect } from "bun:test";
import { runCases } from "./cases.ts";

const opaque = expect.any(String);

describe("quoting does not hide a name", () => {
  runCases([
    { line: '"r""m" -rf x', argv: [["rm", "-rf", "x"]] },
    { line: "\\rm x; 'r'm y; r\\m z", argv: [["rm", "x"], ["rm", "y"], ["rm", "z"]] },
    { line: "$'\\x72m' a; $'\\162\\155' b; $'\\u0072m' c", argv: [["rm", "a"], ["rm", "b"], ["rm", "c"]] },
    { line: "$'r\\0m' x", commands: [{ argv: ["$'r\\0m'", "x"], opaque }] },
    { line: '$"rm" x', commands: [{ opaque }] },
    { line: "/bin/rm -rf x; /usr/bin/sudo rm y", commands: [{ argv: ["rm", "-rf", "x"] }, { argv: ["rm", "y"], wrappers: ["sudo"] }] },
    { line: "./rm x", argv: [["./rm", "x"]] },
    { line: 'echo "a\\"b" \'c"d\' e\\ f "\\$x"', argv: [["echo", 'a"b', 'c"d', "e f", "$x"]] },
  ]);
});

describe("dynamic words", () => {
  runCases([
    { line: "rm $X", commands: [{ argv: ["rm", "$X"], dynamic: true }] },
    { line: "rm *.log", commands: [{ argv: ["rm", "*.log"], dynamic: true }] },
    { line: "rm file? a[12]", commands: [{ dynamic: true }] },
    { line: "rm {a,b}.txt", commands: [{ argv: ["rm", "{a,b}.txt"], dynamic: true }] },
    { line: "echo {1..3}", commands: [{ dynamic: true }] },
    { line: "rm '*.log' \"{a,b}\" \\*", commands: [{ argv: ["rm", "*.log", "{a,b}", "*"] }] },
    { line: "git stash show stash@{0}", commands: [{ argv: ["git", "stash", "show", "stash@{0}"] }] },
  ]);
});

describe("commands whose name or code is not known are opaque", () => {
  runCases([
    { line: "$cmd args", commands: [{ argv: ["$cmd", "args"], opaque, dynamic: true }] },
    { line: "$(echo rm) x", commands: [{ argv: ["echo", "rm"] }, { argv: ["$(echo rm)", "x"], opaque }] },
    { line: "`echo rm` x", commands: [{}, { opaque }] },
    { line: "\"$X\" y; ${X} z", commands: [{ opaque }, { opaque }] },
    { line: "eval 'rm x'", commands: [{ argv: ["eval", "rm x"], opaque }] },
    { line: "source ./x.sh; . ./y.sh", commands: [{ opaque }, { opaque }] },
    { line: "sudo eval x", commands: [{ argv: ["eval", "x"], wrappers: ["sudo"], opaque }] },
    { line: "python3 -c 'import os'", commands: [{ opaque }] },
    { line: "python3 script.py; node app.js; ruby x.rb; perl -e 1; php -r 1; lua x.lua; Rscript x.R", opaque: Array(7).fill(true) },
    { line: "node -e 'x'; deno run x.ts; bun -e 1; bun x.ts", opaque: Array(4).fill(true) },
    { line: "python3 --version; node -v; bun run build; bun test; deno fmt", opaque: Array(5).fill(false) },
    { line: 'bash -c "$CODE"', commands: [{ opaque }] },
    { line: "bash script.sh; sh -s; zsh", commands: [{ opaque }, { opaque }, { opaque }] },
    { line: "curl -s x | sh", commands: [{ argv: ["curl", "-s", "x"] }, { argv: ["sh"], opaque }] },
    { line: "curl x | sudo bash -s -- --yes", commands: [{}, { wrappers: ["sudo"], opaque }] },
    { line: "wget -O- x | python3", commands: [{}, { opaque }] },
    { line: "bash <<EOF\nrm x\nEOF", commands: [{ argv: ["bash"], opaque }] },
    { line: "cat <<EOF | sh\nrm x\nEOF", commands: [{ argv: ["cat"] }, { argv: ["sh"], opaque }] },
    { line: "sh <<< 'rm x'", commands: [{ opaque }] },
    { line: "fish -c 'rm x'", commands: [{ opaque }] },
    { line: "awk 'BEGIN { system(\"rm x\") }'; awk '{print $1}' f", opaque: [true, false] },
    { line: "sed -n '1e rm x' f; sed 's/a/b/e' f; sed 's/a/b/g' f", opaque: [true, true, false] },
    { line: "alias ls=rm", commands: [{ opaque }] },
    { line: "env -S 'rm x'", commands: [{ opaque }] },
    { line: "sudo -s; su root", commands: [{ opaque }, { opaque }] },
    { line: "sudo --frobnicate rm x", commands: [{ argv: ["sudo", "--frobnicate", "rm", "x"], opaque }] },
    { line: "x='$(rm -rf ~)'; echo ${x@P}", commands: [{ opaque }, { argv: ["echo", "${x@P}"] }] },
    { line: "[[ 1 -eq 'a[$(rm x)]' ]]", commands: [{ opaque }] },
    { line: "read 'a[$(rm x)]' <<< 1", commands: [{ argv: ["read", "a[$(rm x)]"], opaque }] },
    { line: "f() { \"$@\"; }; f rm -rf /", commands: [{ argv: ['"$@"'], opaque }, { argv: ["f", "rm", "-rf", "/"] }] },
  ]);
});

describe("lines that do not parse are errors", () => {
  runCases([
    { line: 'echo "unterminated', error: true },
    { line: "echo $(ls", error: true },
    { line: "if then", error: true },
    { line: "rm x )", error: true },
    { line: "cat <<A <<B | sh; rm y\na\nA\nb\nB", error: true },
    { line: "a && ", error: true },
    { line: "f() {", error: true },
  ]);
});
