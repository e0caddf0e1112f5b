// Line-by-line code colouring for fenced blocks: keywords, strings, numbers and comments, nothing smarter.
import type { ChalkInstance } from "chalk";

/** Colours one code line; keeps what it needs across lines (an open `/* … *\/`). */
export type Highlight = (line: string) => string;

type Syntax = {
  /** line comment markers; `#` and the generic markers only count at a line start or after whitespace */
  comments: readonly string[];
  blockComments: boolean;
  keywords: boolean;
  caseInsensitive: boolean;
};

const SLASH = words("js jsx mjs cjs javascript ts tsx mts cts typescript go golang rust rs c h cc cpp hpp c++ java kotlin kt swift cs csharp scala dart php zig groovy proto jsonc json5 scss less");
const HASH = words("py python sh bash zsh shell fish console ruby rb yaml yml toml perl pl r make makefile dockerfile ini conf nix elixir ex exs powershell ps1 cmake julia jl nim graphql gql env dotenv");
const DASH = words("sql psql mysql sqlite postgres postgresql plsql lua haskell hs elm");
const PLAIN = words("text txt plain plaintext output log");

/** One list for every language: a keyword of another language is rarely an identifier worth leaving plain. */
const KEYWORDS = words(
  // JS/TS
  "const let var function return if else for while do switch case default break continue new delete typeof instanceof in of " +
    "class extends super this import export from as async await yield try catch finally throw void null undefined true false " +
    "interface type enum implements public private protected readonly static abstract declare namespace keyof satisfies " +
    // Python
    "def lambda pass None True False and or not is elif with global nonlocal raise except assert del " +
    // Go
    "func package go defer chan map struct select range fallthrough goto nil " +
    // Rust
    "fn mut impl trait pub use mod crate match loop where move ref Self self dyn unsafe extern " +
    // shell
    "then fi esac done local " +
    // SQL, matched case-insensitively in SQL blocks
    "select insert update values into join on group by order limit create table drop alter index primary key",
);

const NUMBER = /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)n?(?![\p{L}\p{N}_$])/uy;
const WORD = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
const RUST_CHAR = /'(?:\\.[^'\n]{0,8}|[^\\'])'/y;
const STRING_PREFIX = /(?:^|[^\p{L}\p{N}_])[rRbBuUfF]{1,2}$/u;

export function codeHighlighter(lang: string, style: ChalkInstance): Highlight {
  const name = lang.toLowerCase().replace(/^[.{]+|[}]+$/g, "");
  if (PLAIN.has(name)) return (line) => line;
  if (name === "diff" || name === "patch") return (line) => diffLine(line, style);
  const syntax = syntaxOf(name);
  const state = { inComment: false };
  return (line) => highlightLine(line, name, syntax, state, style);
}

function syntaxOf(name: string): Syntax {
  if (SLASH.has(name)) return { comments: ["//"], blockComments: true, keywords: true, caseInsensitive: false };
  if (HASH.has(name)) return { comments: ["#"], blockComments: false, keywords: true, caseInsensitive: false };
  if (DASH.has(name)) return { comments: ["--"], blockComments: name !== "lua", keywords: true, caseInsensitive: true };
  if (name === "css") return { comments: [], blockComments: true, keywords: false, caseInsensitive: false };
  return { comments: ["//", "#"], blockComments: true, keywords: false, caseInsensitive: false };
}

function highlightLine(line: string, name: string, syntax: Syntax, state: { inComment: boolean }, style: ChalkInstance): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    if (state.inComment) {
      const end = line.indexOf("*/", i);
      const stop = end < 0 ? line.length : end + 2;
      out += style.gray(line.slice(i, stop));
      state.inComment = end < 0;
      i = stop;
      continue;
    }
    if (syntax.blockComments && line.startsWith("/*", i)) {
      state.inComment = true;
      continue;
    }
    if (startsLineComment(line, i, syntax)) return out + style.gray(line.slice(i));
    const ch = line[i] ?? "";
    const string = stringEnd(line, i, name);
    if (string > i) {
      out += style.green(line.slice(i, string));
      i = string;
      continue;
    }
    const number = matchAt(NUMBER, line, i);
    if (number) {
      out += style.yellow(number);
      i += number.length;
      continue;
    }
    const word = matchAt(WORD, line, i);
    if (word) {
      const keyword = syntax.keywords && KEYWORDS.has(syntax.caseInsensitive ? word.toLowerCase() : word);
      out += keyword ? style.magenta(word) : word;
      i += word.length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

function startsLineComment(line: string, i: number, syntax: Syntax): boolean {
  const marker = syntax.comments.find((m) => line.startsWith(m, i));
  if (!marker) return false;
  const strict = marker === "#" || syntax.comments.length > 1;
  return !strict || i === 0 || /\s/.test(line[i - 1] ?? "");
}

/** The index after the string starting at `i`, or `i` when none starts there; an unclosed string runs to the line end. */
function stringEnd(line: string, i: number, name: string): number {
  const quote = line[i];
  if (quote !== '"' && quote !== "'" && quote !== "`") return i;
  if (quote === "'" && (name === "rust" || name === "rs")) return i + (matchAt(RUST_CHAR, line, i)?.length ?? 0);
  // an apostrophe inside a word ("don't") is not a string, but python's f'…' and r'…' are
  if (quote === "'" && i > 0 && /[\p{L}\p{N}_]/u.test(line[i - 1] ?? "") && !STRING_PREFIX.test(line.slice(Math.max(0, i - 3), i))) return i;
  for (let j = i + 1; j < line.length; j++) {
    if (line[j] === "\\") j++;
    else if (line[j] === quote) return j + 1;
  }
  return line.length;
}

function diffLine(line: string, style: ChalkInstance): string {
  if (line.startsWith("@@")) return style.cyan(line);
  if (line.startsWith("+")) return style.green(line);
  if (line.startsWith("-")) return style.red(line);
  return line;
}

function matchAt(pattern: RegExp, text: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0];
}

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}
