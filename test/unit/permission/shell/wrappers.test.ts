// Wrappers are looked through to the command they run, their own options skipped; env assignments
// are kept; code given to a shell is parsed in turn.
import { describe, expect } from "bun:test";
import { runCases } from "./cases.ts";

describe("privilege and environment wrappers", () => {
  runCases([
    { line: "sudo -u user -E rm x", commands: [{ argv: ["rm", "x"], wrappers: ["sudo"] }] },
    { line: "sudo -Eu root -- rm x", commands: [{ argv: ["rm", "x"], wrappers: ["sudo"] }] },
    { line: "sudo --user=root VAR=1 rm x", commands: [{ argv: ["rm", "x"], env: ["VAR=1"], wrappers: ["sudo"] }] },
    { line: "sudo -D /etc rm passwd", commands: [{ argv: ["rm", "passwd"], cwd: "/etc" }] },
    { line: "sudo -l rm", commands: [{ argv: ["sudo", "-l", "rm"], wrappers: [] }] },
    { line: "sudo -v", commands: [{ argv: ["sudo", "-v"] }] },
    { line: "doas -u root rm x", commands: [{ argv: ["rm", "x"], wrappers: ["doas"] }] },
    { line: "env -i -u VAR A=b rm x", commands: [{ argv: ["rm", "x"], env: ["A=b"], wrappers: ["env"] }] },
    { line: "FOO=1 env A=b rm x", commands: [{ argv: ["rm", "x"], env: ["FOO=1", "A=b"], wrappers: ["env"] }] },
    { line: "env -C /tmp rm x", commands: [{ argv: ["rm", "x"], cwd: "/tmp" }] },
    { line: "env", commands: [{ argv: ["env"], wrappers: [] }] },
    { line: "LD_PRELOAD=/tmp/x.so ls", commands: [{ argv: ["ls"], env: ["LD_PRELOAD=/tmp/x.so"] }] },
  ]);
});

describe("words that can split at run time cannot move the command a wrapper runs", () => {
  runCases([
    { line: "timeout $T ls", commands: [{ argv: ["timeout", "$T", "ls"], opaque: expect.any(String) }] },
    { line: "sudo -u $U rm x", commands: [{ argv: ["sudo", "-u", "$U", "rm", "x"], opaque: expect.any(String) }] },
    { line: 'sudo -u "$U" rm x', commands: [{ argv: ["rm", "x"], wrappers: ["sudo"] }], opaque: [false] },
    { line: 'env A="$X" rm x', commands: [{ argv: ["rm", "x"], env: ['A="$X"'] }], opaque: [false] },
    { line: "env A=$X rm x", commands: [{ opaque: expect.any(String) }] },
    { line: "env -- A=1 rm x", commands: [{ argv: ["rm", "x"], env: ["A=1"] }] },
    { line: "time A=1 rm x", commands: [{ argv: ["rm", "x"], env: ["A=1"], wrappers: ["time"] }] },
    { line: "bash -o $X -c ls", commands: [{ opaque: expect.any(String) }] },
    { line: "flock $F rm x", commands: [{ opaque: expect.any(String) }] },
  ]);
});

describe("process wrappers", () => {
  runCases([
    { line: "timeout -s KILL 5 rm x", commands: [{ argv: ["rm", "x"], wrappers: ["timeout"] }] },
    { line: "timeout --kill-after=2 10s rm x", commands: [{ argv: ["rm", "x"], wrappers: ["timeout"] }] },
    { line: "nice -n 10 rm x", commands: [{ argv: ["rm", "x"], wrappers: ["nice"] }] },
    { line: "nice -10 rm x", commands: [{ argv: ["rm", "x"], wrappers: ["nice"] }] },
    { line: "nohup rm x &", commands: [{ argv: ["rm", "x"], wrappers: ["nohup"] }] },
    { line: "time -p rm x", commands: [{ argv: ["rm", "x"], wrappers: ["time"] }] },
    { line: "command rm x", commands: [{ argv: ["rm", "x"], wrappers: ["command"] }] },
    { line: "command -v rm", commands: [{ argv: ["command", "-v", "rm"], wrappers: [] }] },
    { line: "builtin echo x", commands: [{ argv: ["echo", "x"], wrappers: ["builtin"] }] },
    { line: "exec -a name rm x", commands: [{ argv: ["rm", "x"], wrappers: ["exec"] }] },
    { line: "stdbuf -oL -e0 rm x", commands: [{ argv: ["rm", "x"], wrappers: ["stdbuf"] }] },
    { line: "setsid -f rm x", commands: [{ argv: ["rm", "x"], wrappers: ["setsid"] }] },
    { line: "ionice -c3 rm x", commands: [{ argv: ["rm", "x"], wrappers: ["ionice"] }] },
    { line: "flock /tmp/lock rm x", commands: [{ argv: ["rm", "x"], wrappers: ["flock"] }] },
    { line: "busybox rm x", commands: [{ argv: ["rm", "x"], wrappers: ["busybox"] }] },
    {
      line: "env -i A=1 timeout -s KILL 5 nice -n 10 stdbuf -oL time -p sudo -u u rm x",
      commands: [{ argv: ["rm", "x"], env: ["A=1"], wrappers: ["env", "timeout", "nice", "stdbuf", "time", "sudo"] }],
    },
  ]);
});

describe("commands that run commands for their input", () => {
  runCases([
    { line: "xargs -0 -n1 rm", commands: [{ argv: ["rm"], wrappers: ["xargs"], dynamic: true }] },
    { line: "xargs -I{} mv {} dst", commands: [{ argv: ["mv", "{}", "dst"], wrappers: ["xargs"], dynamic: true }] },
    { line: "xargs", commands: [{ argv: ["echo"], wrappers: ["xargs"] }] },
    { line: "xargs -I % sh -c 'rm %'", commands: [{ argv: ["sh", "-c", "'rm %'"], opaque: expect.any(String) }] },
    { line: "xargs sh -c 'rm \"$1\"' _", commands: [{ argv: ["rm", '"$1"'], wrappers: ["xargs", "sh"], dynamic: true }] },
    {
      line: "find . -name '*.o' -exec rm -f {} \\;",
      commands: [{ argv: ["find", ".", "-name", "*.o", "-exec", "rm", "-f", "{}", ";"] }, { argv: ["rm", "-f", "{}"], wrappers: ["find"], dynamic: true }],
    },
    { line: "find . -execdir rm {} +", argv: [["find", ".", "-execdir", "rm", "{}", "+"], ["rm", "{}"]] },
    { line: "find / -ok rm {} \\; -okdir shred {} \\;", argv: [["find", "/", "-ok", "rm", "{}", ";", "-okdir", "shred", "{}", ";"], ["rm", "{}"], ["shred", "{}"]] },
    { line: "find . -exec {} \\;", commands: [{ argv: ["find", ".", "-exec", "{}", ";"] }, { argv: ["{}"], opaque: expect.any(String) }] },
    { line: "find . -exec sh -c 'rm {}' \\;", commands: [{}, { opaque: expect.any(String) }] },
    { line: "find . -delete", commands: [{ argv: ["find", ".", "-delete"], wrappers: [] }] },
    { line: 'find . -name "$p" -delete', commands: [{ argv: ["find", ".", "-name", '"$p"', "-delete"], dynamic: true }], opaque: [false] },
    { line: 'find "$d" -name x', commands: [{ opaque: expect.stringContaining("-delete") }] },
    { line: "find . -exec echo $x \\;", commands: [{ opaque: expect.any(String) }] },
    { line: "find . -fprint /tmp/list", argv: [["find", ".", "-fprint", "/tmp/list"]], redirects: [{ kind: "write", target: "/tmp/list", path: "/tmp/list" }] },
    { line: "watch -n 1 'rm x; ls'", commands: [{ argv: ["rm", "x"], wrappers: ["watch"] }, { argv: ["ls"], wrappers: ["watch"] }] },
    { line: "watch -x rm x", commands: [{ argv: ["rm", "x"], wrappers: ["watch"] }] },
    { line: "parallel rm ::: a b", commands: [{ argv: ["rm"], wrappers: ["parallel"], dynamic: true }] },
    { line: "parallel 'rm {}' ::: a", commands: [{ argv: ["rm", "{}"], wrappers: ["parallel"], dynamic: true }] },
    { line: "parallel {} ::: rm", commands: [{ argv: ["{}"], opaque: expect.any(String) }] },
    { line: "parallel ::: 'rm a'", commands: [{ argv: ["parallel", ":::", "rm a"], opaque: expect.any(String) }] },
  ]);
});

describe("shells given literal code", () => {
  runCases([
    { line: "bash -c 'rm -rf x'", commands: [{ argv: ["rm", "-rf", "x"], wrappers: ["bash"] }] },
    { line: 'sh -c "rm x && curl y"', argv: [["rm", "x"], ["curl", "y"]] },
    { line: "zsh -c 'rm x'; dash -c 'rm y'", argv: [["rm", "x"], ["rm", "y"]] },
    { line: "bash -lc 'rm x'", commands: [{ argv: ["rm", "x"], wrappers: ["bash"] }] },
    { line: "bash -o pipefail -c 'rm x | cat'", argv: [["rm", "x"], ["cat"]] },
    { line: "sudo bash -c 'rm x'", commands: [{ argv: ["rm", "x"], wrappers: ["sudo", "bash"] }] },
    { line: `bash -c "bash -c 'rm x'"`, commands: [{ argv: ["rm", "x"], wrappers: ["bash", "bash"] }] },
    { line: "bash -c 'cd /etc; rm passwd'; rm passwd", commands: [{ argv: ["cd", "/etc"] }, { argv: ["rm", "passwd"], cwd: "/etc" }, { argv: ["rm", "passwd"], cwd: "/w" }] },
    { line: "A=1 bash -c 'ls'", commands: [{ argv: ["ls"], env: ["A=1"], wrappers: ["bash"] }] },
    { line: "su -c 'rm x' root", commands: [{ argv: ["rm", "x"], wrappers: ["su"] }] },
    { line: "flock /tmp/l -c 'rm x'", commands: [{ argv: ["rm", "x"], wrappers: ["flock"] }] },
    { line: "trap 'rm x' EXIT", commands: [{ argv: ["rm", "x"], wrappers: ["trap"], dynamic: true }] },
    { line: "trap - EXIT", commands: [{ argv: ["trap", "-", "EXIT"] }] },
    { line: "bash -c 'rm (' ", commands: [{ argv: ["bash", "-c", "rm ("], opaque: expect.any(String) }] },
    { line: "bash --version", commands: [{ argv: ["bash", "--version"] }] },
  ]);
});
