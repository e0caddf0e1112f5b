// Reads an awk program far enough to know what it does besides reading its input and printing:
// system() and pipes (`print | "cmd"`, `"cmd" | getline`) run commands, `print > FILE` writes a
// file, `getline < FILE` reads one, @load/@include load code, an indirect call (`@f(...)`) calls
// a function named at run time (`f = "system"`), ENVIRON reads the environment, and a write to
// ARGV or ARGC (`ARGV[ARGC++] = ".env"`) chooses the files read at run time. A program is
// read-only only when its parse shows none of these, and a file it names is a plain string.
// `>` outside a print statement (or inside parentheses) is a comparison.

export type AwkEffects = { reads: string[]; writes: string[]; runs?: string; error?: string };

type Token = { kind: "name" | "string" | "number" | "regex" | "op" | "end"; text: string };

export function awkEffects(program: string): AwkEffects {
  const out: AwkEffects = { reads: [], writes: [] };
  let tokens: Token[];
  try {
    tokens = tokenize(program);
  } catch (error) {
    return { ...out, error: error instanceof Error ? error.message : String(error) };
  }
  let depth = 0;
  let printDepth = -1;
  const calls: string[] = []; // the name before each open parenthesis
  for (let k = 0; k < tokens.length; k++) {
    const { kind, text } = tokens[k]!;
    if (kind === "end" || (kind === "op" && (text === "{" || text === "}"))) printDepth = -1;
    else if (kind === "name" && (text === "system" || text === "@load" || text === "@include")) out.runs ??= `the awk program calls ${text}`;
    else if (kind === "name" && text.startsWith("@") && text !== "@namespace") out.runs ??= `the awk program calls a function through ${text} (an indirect call), named only when it runs`;
    else if (kind === "name" && (text === "ENVIRON" || text === "PROCINFO")) out.runs ??= `the awk program reads ${text}`;
    else if (kind === "name" && (text === "ARGV" || text === "ARGC")) {
      if (writesArgs(tokens, k, calls)) out.runs ??= `the awk program changes ${text}, which chooses the files it reads when it runs`;
    } else if (kind === "name" && (text === "print" || text === "printf")) printDepth = depth;
    else if (kind === "op" && text === "(") {
      depth++;
      calls.push(tokens[k - 1]?.kind === "name" ? tokens[k - 1]!.text : "");
    } else if (kind === "op" && text === ")") {
      depth--;
      calls.pop();
    }
    else if (kind === "op" && (text === "|" || text === "|&")) out.runs ??= "the awk program pipes to or from a command";
    else if (kind === "op" && (text === ">" || text === ">>") && printDepth === depth) target(tokens, k, out.writes, out, "writes");
    else if (kind === "op" && text === "<" && isGetline(tokens, k)) target(tokens, k, out.reads, out, "reads");
  }
  return out;
}

function isGetline(tokens: Token[], k: number): boolean {
  const before = tokens[k - 1];
  if (before?.text === "getline") return true;
  return before?.kind === "name" && tokens[k - 2]?.text === "getline";
}

// A target is a plain string; one joined to more (`print > "a" b`, `getline < "x" y`) is a
// name made at run time.
function target(tokens: Token[], k: number, list: string[], out: AwkEffects, verb: string): void {
  const token = tokens[k + 1];
  const after = tokens[k + 2];
  const joined = after !== undefined && (after.kind === "string" || after.kind === "name" || after.kind === "number" || after.text === "(" || after.text === "$");
  if (token?.kind === "string" && !joined) list.push(token.text);
  else out.runs ??= `the awk program ${verb} a file only known when it runs`;
}

const ASSIGNS = new Set(["=", "+=", "-=", "*=", "/=", "%=", "^=", "++", "--"]);
const ARRAY_WRITERS = new Set(["sub", "gsub", "split", "patsplit", "getline"]);

/** Whether ARGV or ARGC at `k` is written: assigned, incremented, deleted, read into, or handed on as an array. */
function writesArgs(tokens: Token[], k: number, calls: readonly string[]): boolean {
  const before = tokens[k - 1]?.text;
  if (before === "in") return false; // for (i in ARGV)
  if (before === "++" || before === "--" || before === "getline" || before === "delete") return true;
  if (calls.some((name) => ARRAY_WRITERS.has(name))) return true;
  let end = k + 1;
  if (tokens[k]!.text === "ARGV") {
    if (tokens[end]?.text !== "[") return true; // the whole array, given to a function or split()
    for (let open = 0; end < tokens.length; end++) {
      if (tokens[end]!.text === "[") open++;
      else if (tokens[end]!.text === "]" && --open === 0) break;
    }
    end++;
  }
  return ASSIGNS.has(tokens[end]?.text ?? "");
}

const OPERAND_END = new Set(["name", "string", "number", "regex"]);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: Token["kind"], text: string) => tokens.push({ kind, text });
  while (i < source.length) {
    const c = source[i]!;
    if (c === " " || c === "\t" || (c === "\\" && source[i + 1] === "\n")) {
      i += c === "\\" ? 2 : 1;
    } else if (c === "\n" || c === ";") {
      push("end", c);
      i++;
    } else if (c === "#") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === '"') {
      const [text, next] = quoted(source, i + 1, '"');
      push("string", text);
      i = next;
    } else if (c === "/" && !afterOperand(tokens)) {
      const [text, next] = quoted(source, i + 1, "/");
      push("regex", text);
      i = next;
    } else if (/[A-Za-z_@]/.test(c)) {
      const m = /^@?[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))![0];
      push("name", m);
      i += m.length;
    } else if (/[0-9.]/.test(c)) {
      const m = /^[0-9.]+(?:[eE][-+]?[0-9]+)?/.exec(source.slice(i))?.[0] ?? c;
      push("number", m);
      i += m.length;
    } else {
      const op = ["||", "|&", "&&", ">>", ">=", "<=", "==", "!=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=", "^="].find((o) => source.startsWith(o, i)) ?? c;
      push("op", op);
      i += op.length;
    }
  }
  return tokens;
}

function afterOperand(tokens: Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (!last) return false;
  if (last.kind === "name") return !["print", "printf", "return", "in", "getline"].includes(last.text);
  return OPERAND_END.has(last.kind) || last.text === ")" || last.text === "]" || last.text === "$";
}

/** The text up to the closing quote, escapes kept as written but `\"` taken as a quote. */
function quoted(source: string, start: number, close: string): [string, number] {
  let text = "";
  for (let i = start; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) {
      text += source[i + 1] === close ? close : c + source[i + 1];
      i++;
    } else if (c === close) return [text, i + 1];
    else if (c === "\n" && close === "/") break;
    else text += c;
  }
  throw new Error(close === "/" ? "an unterminated regular expression" : "an unterminated string");
}
