// Reads an awk program far enough to know what it does besides reading its input and printing:
// system() and pipes (`print | "cmd"`, `"cmd" | getline`) run commands, `print > FILE` writes a
// file, `getline < FILE` reads one, @load/@include load code, ENVIRON reads the environment.
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
  for (let k = 0; k < tokens.length; k++) {
    const { kind, text } = tokens[k]!;
    if (kind === "end" || (kind === "op" && (text === "{" || text === "}"))) printDepth = -1;
    else if (kind === "name" && (text === "system" || text === "@load" || text === "@include")) out.runs ??= `the awk program calls ${text}`;
    else if (kind === "name" && text === "ENVIRON") out.runs ??= "the awk program reads the environment";
    else if (kind === "name" && (text === "print" || text === "printf")) printDepth = depth;
    else if (kind === "op" && text === "(") depth++;
    else if (kind === "op" && text === ")") depth--;
    else if (kind === "op" && (text === "|" || text === "|&")) out.runs ??= "the awk program pipes to or from a command";
    else if (kind === "op" && (text === ">" || text === ">>") && printDepth === depth) target(tokens[k + 1], out.writes, out, "writes");
    else if (kind === "op" && text === "<" && isGetline(tokens, k)) target(tokens[k + 1], out.reads, out, "reads");
  }
  return out;
}

function isGetline(tokens: Token[], k: number): boolean {
  const before = tokens[k - 1];
  if (before?.text === "getline") return true;
  return before?.kind === "name" && tokens[k - 2]?.text === "getline";
}

function target(token: Token | undefined, list: string[], out: AwkEffects, verb: string): void {
  if (token?.kind === "string") list.push(token.text);
  else out.runs ??= `the awk program ${verb} a file only known when it runs`;
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
