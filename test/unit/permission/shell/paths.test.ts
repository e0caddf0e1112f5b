// Where commands run and what files they touch: `cd` followed on the line, `~` and `$HOME` expanded,
// `..` resolved, redirect targets and tee files reported as reads and writes.
import { describe } from "bun:test";
import { read, runCases, write } from "./cases.ts";

describe("cd is followed for the commands after it", () => {
  runCases([
    { line: "cd sub && ls ../x; cat y", commands: [{ argv: ["cd", "sub"], cwd: "/w" }, { argv: ["ls", "../x"], cwd: "/w/sub" }, { argv: ["cat", "y"], cwd: "/w/sub" }] },
    { line: "cd .. && cd ./a/../b; ls", commands: [{ cwd: "/w" }, { cwd: "/" }, { cwd: "/b" }] },
    { line: "cd /etc; cat passwd > copy", commands: [{}, { cwd: "/etc" }], redirects: [write("copy", "/etc/copy")] },
    { line: "cd; cat .bashrc", commands: [{}, { argv: ["cat", ".bashrc"], cwd: "/home/u" }] },
    { line: "cd ~/proj && ls", commands: [{ argv: ["cd", "/home/u/proj"] }, { cwd: "/home/u/proj" }] },
    { line: "cd -- sub; ls", commands: [{}, { cwd: "/w/sub" }] },
    { line: "(cd /etc; cat passwd); cat z", commands: [{}, { cwd: "/etc" }, { cwd: "/w" }] },
    { line: "cd /etc | cat; ls", commands: [{}, {}, { cwd: "/w" }] },
    { line: "cd /etc & ls", commands: [{}, { cwd: "/w" }] },
    { line: "echo $(cd /etc); ls", commands: [{ argv: ["cd", "/etc"] }, {}, { cwd: "/w" }] },
    { line: "builtin cd /tmp; ls", commands: [{ wrappers: ["builtin"] }, { cwd: "/tmp" }] },
    { line: "sudo cd /tmp; ls", commands: [{}, { cwd: "/w" }] },
    { line: "pushd /tmp; ls; popd; ls", commands: [{}, { cwd: "/tmp" }, {}, { cwd: "/tmp", dynamic: true }] },
    { line: "g() { cd /etc; }; g; cat passwd", commands: [{ argv: ["cd", "/etc"] }, { argv: ["g"] }, { argv: ["cat", "passwd"], cwd: "/etc" }] },
    { line: "mkdir b && cd b && cmake ..; make", commands: [{}, {}, { cwd: "/w/b" }, { argv: ["make"], cwd: "/w/b", dynamic: true }] },
    { line: "cd x || exit 1; ls", commands: [{}, {}, { argv: ["ls"], cwd: "/w/x" }] },
    { line: "time cd /etc; rm passwd", commands: [{ wrappers: ["time"] }, { argv: ["rm", "passwd"], cwd: "/etc" }] },
  ]);
});

describe("a cd that cannot be followed leaves later commands dynamic", () => {
  runCases([
    { line: "cd -; ls", commands: [{}, { argv: ["ls"], cwd: "/w", dynamic: true }] },
    { line: 'cd "$DIR" && rm x', commands: [{ dynamic: true }, { argv: ["rm", "x"], cwd: "/w", dynamic: true }] },
    { line: "cd a b; ls", commands: [{}, { dynamic: true }] },
    { line: "true && cd /etc; rm passwd", commands: [{}, {}, { cwd: "/etc", dynamic: true }] },
    { line: "cd /etc || cd /w; rm passwd", commands: [{}, {}, { argv: ["rm", "passwd"], dynamic: true }] },
    { line: "if x; then cd /etc; fi; rm passwd", commands: [{}, {}, { dynamic: true }] },
    { line: "for i in 1 2; do rm -rf y; cd ..; done", commands: [{ argv: ["rm", "-rf", "y"], dynamic: true }, { dynamic: true }] },
    { line: "CDPATH=/etc; cd ssh; ls", commands: [{}, { dynamic: true }] },
    { line: "HOME=/etc cd; rm passwd", commands: [{ env: ["HOME=/etc"] }, { argv: ["rm", "passwd"], dynamic: true }] },
    { line: "cd -; cd /tmp; ls", commands: [{}, {}, { argv: ["ls"], cwd: "/tmp" }] },
    // The two `ls` are the same command: reported once.
    { line: "cd -; ls > out; ls > /abs", commands: [{}, { argv: ["ls"] }], redirects: [write("out", "/w/out", true), write("/abs", "/abs")] },
  ]);
});

describe("home and parent paths", () => {
  runCases([
    { line: "echo ~ ~/a $HOME/b ${HOME}/c \"$HOME/d\" x=~/e", argv: [["echo", "/home/u", "/home/u/a", "/home/u/b", "/home/u/c", "/home/u/d", "x=/home/u/e"]] },
    { line: "echo '~/a' \"~/b\" ~other/c ~root", argv: [["echo", "~/a", "~/b", "/home/other/c", "/root"]] },
    { line: "cd /tmp && cat ~-/a ~+/b", argv: [["cd", "/tmp"], ["cat", "/w/a", "/tmp/b"]] },
    { line: "cat ~-/a ~+2/b", commands: [{ argv: ["cat", "~-/a", "~+2/b"], dynamic: true }] },
    { line: "HOME=/etc; cat ~/passwd", commands: [{ argv: ["cat", "~/passwd"], dynamic: true }] },
    { line: "cat ../../etc/passwd > ../out", cwd: "/w/a", redirects: [write("../out", "/w/out")] },
  ]);
});

describe("redirects", () => {
  runCases([
    { line: "echo x > a", redirects: [write("a", "/w/a")] },
    { line: "echo x >> ~/.bashrc", redirects: [write("~/.bashrc", "/home/u/.bashrc")] },
    { line: "echo x >| a &> b &>> c 2> d 2>> e", redirects: [write("a", "/w/a"), write("b", "/w/b"), write("c", "/w/c"), write("d", "/w/d"), write("e", "/w/e")] },
    { line: "cmd >& file", redirects: [write("file", "/w/file")] },
    { line: "cmd 2>&1 >&2 1>&- 3>&1", redirects: [] },
    { line: "cmd > /dev/null 2>&1", redirects: [write("/dev/null", "/dev/null")] },
    { line: "sort < in 3< other", redirects: [read("in", "/w/in"), read("other", "/w/other")] },
    { line: 'echo > "$OUT"', redirects: [write('"$OUT"', "/w/\"$OUT\"", true)] },
    { line: "{ ls; pwd; } > list", argv: [["ls"], ["pwd"]], redirects: [write("list", "/w/list")] },
    { line: "cat <<EOF > ~/.profile\nx\nEOF", redirects: [write("~/.profile", "/home/u/.profile")] },
    { line: "exec 3> log", argv: [["exec"]], redirects: [write("log", "/w/log")] },
    { line: "cd /tmp > out", redirects: [write("out", "/w/out")] },
    { line: "echo $(< ~/.ssh/id_rsa)", redirects: [read("~/.ssh/id_rsa", "/home/u/.ssh/id_rsa")] },
  ]);
});

describe("tee and writing wrappers", () => {
  runCases([
    { line: "echo x | tee -a f g", argv: [["echo", "x"], ["tee", "-a", "f", "g"]], redirects: [write("f", "/w/f"), write("g", "/w/g")] },
    { line: "echo x | sudo tee /etc/hosts > /dev/null", commands: [{}, { argv: ["tee", "/etc/hosts"], wrappers: ["sudo"] }], redirects: [write("/dev/null", "/dev/null"), write("/etc/hosts", "/etc/hosts")] },
    { line: "tee -- -a", redirects: [write("-a", "/w/-a")] },
    { line: "time -o /tmp/t ls", redirects: [write("/tmp/t", "/tmp/t")] },
  ]);
});
