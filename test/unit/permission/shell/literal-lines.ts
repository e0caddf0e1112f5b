// Command lines for the literal fast path's differential test (literal-line.test.ts): every string
// the repository's tests, scripts and docs hold (string literals, `code` spans), the shell corpora,
// lines built at the edges of the fast path's character set, and seeded random lines of plain words.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WRAPPERS } from "../../../../src/permission/shell/wrappers.ts";
import { CORPUS } from "./corpus.ts";
import { randomLines } from "./random-lines.ts";

const ROOT = join(import.meta.dir, "../../../..");

function files(dir: string, ends: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) out.push(...files(path, ends));
    } else if (ends.some((end) => entry.name.endsWith(end))) out.push(path);
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", 0: "\0" };

/** The string literals of a TypeScript file (quotes and templates without substitutions, escapes decoded) and the `code` spans of its comments. */
export function literalsOf(source: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      spans(source.slice(i, end < 0 ? n : end), out);
      i = end < 0 ? n : end;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      spans(source.slice(i, end < 0 ? n : end), out);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      let value = "";
      let j = i + 1;
      let plain = true;
      for (; j < n && source[j] !== c; j++) {
        if (source[j] === "\\") {
          const e = source[++j]!;
          if (e === "x") (value += String.fromCharCode(parseInt(source.slice(j + 1, j + 3), 16))), (j += 2);
          else if (e === "u" && source[j + 1] === "{") {
            const close = source.indexOf("}", j);
            value += String.fromCodePoint(parseInt(source.slice(j + 2, close), 16));
            j = close;
          } else if (e === "u") (value += String.fromCharCode(parseInt(source.slice(j + 1, j + 5), 16))), (j += 4);
          else if (e === "\n") continue;
          else value += ESCAPES[e] ?? e;
        } else if (c === "`" && source[j] === "$" && source[j + 1] === "{") {
          plain = false; // a template with substitutions: skipped to its end, roughly
          let depth = 0;
          for (j++; j < n; j++) {
            if (source[j] === "{") depth++;
            else if (source[j] === "}" && --depth === 0) break;
          }
        } else if (c !== "`" && source[j] === "\n") break;
        else value += source[j];
      }
      if (plain) out.push(value);
      i = j + 1;
    } else i++;
  }
  return out;
}

function spans(text: string, out: string[]): void {
  for (const match of text.matchAll(/`([^`\n]+)`/g)) out.push(match[1]!);
}

/** Every string of the repository's tests, scripts and docs. */
export function repositoryLines(): string[] {
  const lines: string[] = [];
  for (const path of [...files("test", [".ts"]), ...files("scripts", [".ts"]), ...files("src/permission", [".ts"])]) {
    lines.push(...literalsOf(readFileSync(join(ROOT, path), "utf8")));
  }
  for (const path of [...files("docs", [".md"]), "README.md"]) {
    const text = readFileSync(join(ROOT, path), "utf8");
    spans(text, lines);
    for (const block of text.matchAll(/```(?:sh|bash|shell|console)?\n([\s\S]*?)```/g)) lines.push(...block[1]!.split("\n").map((l) => l.replace(/^\$ /, "")));
  }
  return lines;
}

// Words that steer the resolution: wrappers, shells and code runners, builtins with state, cd.
const NAMES = [
  ...WRAPPERS.keys(),
  ...["bash", "sh", "zsh", "fish", "eval", "source", ".", "python3", "node", "bun", "deno", "awk", "sed", "perl", "ruby"],
  ...["cd", "pushd", "popd", "set", "shopt", "trap", "let", "test", "printf", "read", "mapfile", "getopts", "wait", "alias"],
  ...["hash", "enable", "compgen", "complete", "bind", "fc", "history", "jobs", "su", "runuser", "find", "tee", "git", "rm"],
  ...["ls", "echo", "cat", "grep", "npm", "make", "/usr/bin/rm", "/bin/ls", "./rm", "%1", ":", "-", "--", "..", "-x"],
];
const ARGS = ["-c", "-e", "-x", "-n", "5", "-u", "root", "-C", "/tmp", "..", "-", "--", "-P", "-L", "ls", "rm", "-rf", "x", "PATH", "A=b"];
const EXTRA = ["LD_PRELOAD=x", "-k", "-v", "-i", "-f", "-exec", "-delete", "-fprint", "+", ":::", "-I", "-a", "--help", "--version", "/etc/passwd"];

/** Lines at the edges of the fast path: each ASCII character (and a few others) in each position, the reserved words, the resolution's special names. */
export function edgeLines(): string[] {
  const lines: string[] = ["", " ", "\t", "ls", " ls ", "\tls\t-la\t", "ls  -la   src", "ls -la\n", "ls\r", "ls\u00a0-la", "ls \u00e9"];
  for (let code = 0; code < 128; code++) {
    const c = String.fromCharCode(code);
    lines.push(`echo a${c}b`, `${c}`, `${c}x y`, `x${c} y`, `x ${c}`, `x ${c}y`, `ls ${c}${c}`, `a${c}`, `${c}${c}`, `x=${c}`, `x ${c}=y`, `git -C${c} log`);
  }
  // Every word of one or two characters of the set (and a few just outside it), first and after.
  const set = "abcxyzAZ0189_./:,@%+=-!#*?~$'\"\\{}[]";
  for (const a of set) {
    for (const b of ["", ...set]) lines.push(a + b, `${a}${b} x`, `x ${a}${b}`, `sudo ${a}${b}`, `env ${a}${b} ls`);
  }
  for (const c of ["\u00e9", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u{1f600}"]) lines.push(`echo ${c}`, `${c}ls`, `ls${c}`);
  const reserved = ["if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in", "function", "time", "coproc"];
  const declarations = ["declare", "typeset", "export", "readonly", "local", "unset", "unsetenv", "let", "eval", "exec", "builtin", "command"];
  for (const word of [...reserved, ...declarations]) lines.push(word, `${word} x`, `${word} x y`, `echo ${word}`, `${word} A=b`, `sudo ${word} x`, `${word}x`, `x ${word} y`);
  for (const name of NAMES) {
    lines.push(name, `${name} ls`, `${name} -la`);
    for (const arg of [...ARGS, ...EXTRA]) lines.push(`${name} ${arg}`, `${name} ${arg} ls`, `${name} ${arg} bash -c ls`, `sudo ${name} ${arg}`);
  }
  return lines;
}

/** Seeded random lines of plain words (and a few characters just outside the set), spaces and tabs. */
export function randomPlainLines(seed: number, count: number): string[] {
  const next = randomLines(seed); // only its PRNG-driven lines are used for variety in the words
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const CHARS = "abcxyzRM019_./:,@%+-=";
  const word = () => (random() < 0.6 ? pick([...NAMES, ...ARGS, ...EXTRA]) : Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick([...CHARS])).join(""));
  const blank = () => pick([" ", " ", " ", "  ", "\t", " \t"]);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 1 + Math.floor(random() * 6) }, word);
    let line = words.join(blank());
    if (random() < 0.1) line = blank() + line;
    if (random() < 0.1) line += blank();
    if (random() < 0.05) line = next();
    lines.push(line);
  }
  return lines;
}

/** All of them, each once. */
export function allLines(): string[] {
  return [...new Set([...CORPUS.map((entry) => entry.line), ...repositoryLines(), ...edgeLines(), ...randomPlainLines(37, 6000)])];
}
