// One shell word -> its value as the command will see it: quotes removed, escapes applied, `~` and
// `$HOME` expanded. Anything only known at run time (other variables, substitutions, globs, braces)
// makes the word dynamic, and it is then kept as written. Commands inside the word ($(...), <(...))
// are walked on the way.
import { dirname, join } from "node:path";
import type { Node } from "web-tree-sitter";
import { decodeAnsiC } from "./ansi-c.ts";
import type { Scope } from "./scope.ts";
import type { ShellCommand } from "./types.ts";
import { lookup } from "./vars.ts";
import type { Walker } from "./walk.ts";

export type Word = {
  /** What the command receives; the text as written when dynamic. */
  value: string;
  /** The word as written. */
  text: string;
  dynamic: boolean;
  /** Unquoted and dynamic (`$X`, `$(...)`, a glob): it can become several words, or none, at run time. */
  splits?: boolean;
  /** An unquoted glob and nothing else dynamic (`*.ts`, `src/*.ts`): its value is the pattern. */
  glob?: boolean;
  /** The word is `$(cmd)` unquoted, cmd one simple command: its output becomes the words. */
  input?: ShellCommand;
  /** Dynamic only as a glob or brace pattern: the text it stands for where no such expansion happens (`x=*.ts`). */
  pattern?: string;
  /** A glob whose every other part is known and holds no glob character (`"$d"/*.ts`, `~/x/*`): the pattern bash matches. */
  globPattern?: string;
};

// `mask` is the value with every quoted character replaced by \0: globs and braces only act unquoted.
type Acc = { value: string; mask: string; dynamic: boolean; splits: boolean };

const GLOB = /[*?[]/;
const BRACE = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;
// A glob written without quotes, escapes or expansions: the text is the pattern.
const PLAIN_GLOB = /^[^'"\\$`{}~]+$/;
const ASSIGNMENT_TILDE = /^[A-Za-z_][A-Za-z0-9_]*=~/;

export function literal(text: string): Word {
  return { value: text, text, dynamic: false };
}

export function evalWord(w: Walker, node: Node, scope: Scope): Word {
  const acc: Acc = { value: "", mask: "", dynamic: false, splits: false };
  const first = w.commands.length;
  part(w, node, scope, acc);
  if (node.type === "command_substitution" && w.commands.length === first + 1 && node.namedChildren[0]?.type === "command") {
    return { value: node.text, text: node.text, dynamic: true, splits: true, input: w.commands[first]! };
  }
  const text = node.text;
  if (GLOB.test(acc.mask) || BRACE.test(acc.mask)) {
    const glob = !acc.dynamic && !BRACE.test(acc.mask) && PLAIN_GLOB.test(text);
    const pattern = acc.dynamic ? undefined : expandTilde(w, acc, scope);
    const quotedGlob = [...acc.value].some((c, i) => GLOB.test(c) && acc.mask[i] === "\0");
    const globPattern = pattern !== undefined && !BRACE.test(acc.mask) && !quotedGlob && !scope.replace ? pattern : undefined;
    return {
      value: text,
      text,
      dynamic: true,
      splits: true,
      ...(glob ? { glob } : {}),
      ...(pattern !== undefined ? { pattern } : {}),
      ...(globPattern !== undefined ? { globPattern } : {}),
    };
  }
  if (acc.dynamic) return acc.splits ? { value: text, text, dynamic: true, splits: true } : { value: text, text, dynamic: true };
  const value = expandTilde(w, acc, scope);
  if (value === undefined || scope.replace?.test(value)) return { value: text, text, dynamic: true };
  return { value, text, dynamic: false };
}

function part(w: Walker, node: Node, scope: Scope, acc: Acc): void {
  switch (node.type) {
    case "word":
      if (node.text.includes("`") && w.backquotes(node.text, scope) > 0) break; // a `...` tree-sitter left as text
      return unquoted(node.text, acc);
    case "raw_string":
      return quoted(node.text.slice(1, -1), acc);
    case "string":
      return doubleQuoted(w, node, scope, acc);
    case "ansi_c_string": {
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      if (decoded === undefined) acc.dynamic = true;
      else quoted(decoded, acc);
      return;
    }
    case "number":
      if (node.namedChildCount === 0) return unquoted(node.text, acc);
      break;
    case "concatenation":
    case "command_name":
      return concatenation(w, node, scope, acc);
    case "simple_expansion":
    case "expansion":
      return expansion(w, node, scope, acc, unquoted);
  }
  if (!node.isNamed && node.type !== "$") return unquoted(node.text, acc);
  acc.dynamic = true; // substitutions, arithmetic, brace_expression, `$"..."` (translated), regex...
  acc.splits ||= node.type !== "$" && node.type !== "ansi_c_string";
  w.scan(node, scope);
}

function concatenation(w: Walker, node: Node, scope: Scope, acc: Acc): void {
  const base = node.startIndex;
  const text = node.text;
  let pos = base;
  for (const child of node.children) {
    if (child.startIndex > pos) unquoted(text.slice(pos - base, child.startIndex - base), acc);
    part(w, child, scope, acc);
    pos = child.endIndex;
  }
  if (pos < node.endIndex) unquoted(text.slice(pos - base), acc);
}

function doubleQuoted(w: Walker, node: Node, scope: Scope, acc: Acc): void {
  const base = node.startIndex;
  const text = node.text;
  let pos = base;
  for (const child of node.children) {
    if (child.startIndex > pos) quoted(unescapeDouble(text.slice(pos - base, child.startIndex - base)), acc);
    pos = child.endIndex;
    if (child.type === '"') continue;
    if (child.type === "string_content") quoted(unescapeDouble(child.text), acc);
    else if (child.type === "simple_expansion" || child.type === "expansion") expansion(w, child, scope, acc, quoted);
    else if (!child.isNamed) quoted(child.text, acc); // a lone `$` is literal inside quotes
    else {
      acc.dynamic = true;
      w.scan(child, scope);
    }
  }
}

function expansion(w: Walker, node: Node, scope: Scope, acc: Acc, literalPart: (s: string, acc: Acc) => void): void {
  // tree-sitter-bash can start an expansion inside a string at the blank before the `$`.
  const text = node.text;
  const trimmed = text.trimStart();
  if (trimmed.length < text.length) literalPart(text.slice(0, text.length - trimmed.length), acc);
  if ((trimmed === "$HOME" || trimmed === "${HOME}") && scope.home !== undefined) return quoted(scope.home, acc);
  // `$f`, `${f}` with a value the line surely gave f: its characters act as quoted ones (no glob, brace or tilde).
  const name = /^\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})$/.exec(trimmed);
  const known = name && !w.untracked ? lookup(scope, name[1] ?? name[2]!, literalPart === quoted) : undefined;
  if (known !== undefined) return quoted(known, acc);
  acc.dynamic = true;
  if (literalPart === unquoted) acc.splits = true;
  w.scan(node, scope);
}

function unquoted(s: string, acc: Acc): void {
  if (!s.includes("\\")) {
    acc.value += s;
    acc.mask += s;
    return;
  }
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c !== "\\" || next === undefined) {
      acc.value += c;
      acc.mask += c;
      continue;
    }
    i++;
    if (next === "\n") continue; // a line continuation
    acc.value += next;
    acc.mask += "\0";
  }
}

function quoted(s: string, acc: Acc): void {
  acc.value += s;
  acc.mask += "\0".repeat(s.length);
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
function unescapeDouble(s: string): string {
  return s.includes("\\") ? s.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c)) : s;
}

/**
 * `~/x` and `NAME=~/x` expand as bash expands them: `~` to the home, `~+` to the folder the command
 * runs in, `~-` to the one the line's last `cd` left, `~user` to that user's home (guessed beside
 * ours, root's at /root). What is not known (`~-` before any `cd`, the dirs stack's `~+2`) is undefined.
 * `~+` and `~-` lean on the walk's idea of the folder: the line's reads count as unresolved.
 */
function expandTilde(w: Walker, acc: Acc, scope: Scope): string | undefined {
  const { value, mask } = acc;
  const at = mask.startsWith("~") ? 0 : ASSIGNMENT_TILDE.test(mask) ? mask.indexOf("=") + 1 : -1;
  if (at < 0) return value;
  const slash = value.indexOf("/", at);
  const prefix = slash < 0 ? value.slice(at) : value.slice(at, slash);
  if (mask.slice(at, at + prefix.length) !== prefix) return value; // a quoted character: no expansion
  const dir = tildeDir(w, prefix, scope);
  if (dir === null) return at === 0 ? undefined : value; // not a tilde prefix bash expands there
  if (dir === undefined) return undefined;
  return value.slice(0, at) + dir + value.slice(at + prefix.length);
}

/** The folder a tilde prefix stands for; undefined when unknown, null when it is not one. */
function tildeDir(w: Walker, prefix: string, scope: Scope): string | undefined | null {
  if (prefix === "~") return scope.home;
  if (prefix === "~+" || prefix === "~-") {
    w.unresolve(`the line names a path through ${prefix}`);
    const place = prefix === "~+" ? scope.place : scope.previous;
    return place?.known ? place.cwd : undefined;
  }
  const user = /^~([a-z_][\w.-]*)$/i.exec(prefix)?.[1];
  if (user === undefined) return /^~[+-]?\d+$/.test(prefix) ? undefined : null;
  if (scope.home === undefined) return undefined;
  return user === "root" ? "/root" : join(dirname(scope.home), user);
}
