// Shell state changed on the line (item 3 of issue 13) and arithmetic contexts (item 2): after an
// assignment to a variable that decides how commands run, every later command is opaque; an
// arithmetic expression that could evaluate unknown text is reported as an opaque command.
import { describe } from "bun:test";
import { runCases } from "./cases.ts";

describe("an assignment to a variable that changes how commands run makes the rest of the line opaque", () => {
  runCases([
    { line: "PATH=x; ls", opaque: [true] },
    { line: "ls; PATH=x; ls", opaque: [false, true] },
    { line: "export PATH=/tmp:$PATH; ls", opaque: [false, true] },
    { line: "declare -x LD_PRELOAD=/tmp/x.so; cat f", opaque: [false, true] },
    { line: "printf -v PATH %s node_modules/.bin; git status", opaque: [false, true] },
    { line: "printf -vCDPATH %s ~ && cd .ssh && cat id_rsa", opaque: [false, true, true] },
    { line: "read PATH < f; ls", opaque: [false, true] },
    { line: "read -r -a BASH_ENV < f; bash -c ls", opaque: [false, true] },
    { line: "mapfile -t PATH < f; ls", opaque: [false, true] },
    { line: "getopts ab GIT_DIR; git log", opaque: [false, true] },
    { line: "for PATH in /tmp; do ls; done", opaque: [true] },
    { line: "while true; do ls; PAGER=x; done", opaque: [true, true] },
    { line: ": ${PATH:=/tmp}; ls", opaque: [true, true] },
    { line: "(( GIT_PAGER = 1 )); git log", opaque: [true] },
    { line: "declare -n r=PATH; r=/tmp; ls", opaque: [false, true] },
    { line: "export -f ls; bash -c ls", opaque: [false, true] },
    { line: "local PATH; ls", opaque: [false, true] },
    { line: "command_not_found_handle() { id; }; foo", opaque: [true, true] },
    { line: "npm_config_script_shell=/tmp/x; npm test", opaque: [true] },
    { line: "coproc PATH { cat; }; ls", opaque: [true, true, true] },
  ]);
});

describe("a prefix assignment of such a variable makes its own command opaque", () => {
  runCases([
    { line: "PATH=. ls; ls", opaque: [true, false] },
    { line: "NODE_OPTIONS=--require=./x.js npm test", opaque: [true] },
    { line: "env GIT_SSH_COMMAND=x git fetch", opaque: [true] },
    { line: "PYTHONPATH=. python3 --version", opaque: [true] },
  ]);
});

describe("ordinary assignments and builtins are left alone", () => {
  runCases([
    { line: "FOO=bar; ls", opaque: [false] },
    { line: "path=src/a.ts; cat $path", opaque: [false] },
    { line: "IFS= read -r line < f; echo \"$line\"", opaque: [false, false] },
    { line: "while IFS=: read -r a b; do echo $a; done < f", opaque: [false, false] },
    { line: "printf -v x %s 1; echo $x", opaque: [false, false] },
    { line: "LC_ALL=C sort f", opaque: [false] },
  ]);
});

describe("a builtin that assigns by name evaluates a subscript in the name", () => {
  runCases([
    { line: "printf -v 'a[$(id)]' %s 1", opaque: [true] },
    { line: "read 'a[$(id)]' <<< 1", opaque: [true] },
    { line: "mapfile -t 'm[$(id)]' < f", opaque: [true] },
    { line: "printf -v \"$name\" %s 1", opaque: [true] },
    { line: "test -v 'b[$(id)]'", opaque: [true] },
    { line: "[ -v 'a[0]' ]", opaque: [true] },
  ]);
});

describe("arithmetic contexts are code", () => {
  runCases([
    { line: "[[ $'a[\\x24(curl x|sh)]' -eq 0 ]]", opaque: [true] },
    { line: "[[ $x -lt 3 ]]", opaque: [true] },
    { line: "(( x + 1 ))", opaque: [true] },
    { line: "echo $((x + 2))", opaque: [true, false] },
    { line: "let y=x", opaque: [false, true] },
    { line: "let \"$e\"", opaque: [false, true] },
    { line: "declare -i n=y", opaque: [false, true] },
    { line: "echo ${a[$i]}", opaque: [true, false] },
    { line: "a[$i]=1", opaque: [true] },
    { line: "echo ${s:x}", opaque: [true, false] },
    { line: "read n < f; echo $((n * 2))", opaque: [false, true, false] },
    { line: "arr=([x]=1)", opaque: [true] },
    { line: "declare -i n; read v < f; n=$v", opaque: [false, false, true] },
    { line: "echo $[n + 1]", opaque: [true, false] },
  ]);
});

describe("arithmetic over numbers and variables the line made numeric is allowed", () => {
  runCases([
    { line: "[[ 1 -eq 0 ]]; [[ $# -gt 0 ]]", opaque: [] },
    { line: "[ \"$x\" -eq 0 ]", opaque: [] },
    { line: "echo $((1 + 2)) ${s:1:2} ${a[0]} ${a[@]} $(( 16#ff ))", opaque: [false] },
    { line: "i=0; (( i++ )); echo $i", opaque: [false] },
    { line: "for ((i = 0; i < 3; i++)); do echo $((i * 2)); done", opaque: [false] },
    { line: "n=1; n=$((n + 1)); echo $n", opaque: [false] },
    { line: "let x=1+2; local -i n=3", opaque: [false, false] },
    { line: "[[ -v HOME ]]", opaque: [] },
    { line: "[[ ${#arr[@]} -gt 0 ]] && echo some", opaque: [false] },
    { line: "for i in 1 2 3; do echo $((i * 2)); done", opaque: [false] },
    { line: "for i in {1..5}; do echo $((i + 1)); done; for j in $(seq 1 9); do echo $((j)); done", opaque: [false, false, false] },
    { line: "arr=([0]=a [1]=b); declare -i n; n=5", opaque: [false] },
  ]);
});
