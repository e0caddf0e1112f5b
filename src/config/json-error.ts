export type JsonErrorLocation = { line: number; column: number; problem: string };

/**
 * Finds the first syntax error in `text` with its 1-based line and column.
 * Bun's JSON.parse (1.4) reports neither position nor offset ("JSON Parse error: Unexpected EOF"),
 * so after JSON.parse has rejected a file we rescan it with this small strict scanner.
 * Returns undefined when the scanner finds no error.
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  try {
    scanDocument(text);
    return undefined;
  } catch (error) {
    // Anything else (a RangeError from absurd nesting) leaves the position unknown.
    if (!(error instanceof JsonSyntax)) return undefined;
    return { ...lineAndColumn(text, error.offset), problem: error.message };
  }
}

class JsonSyntax extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

function scanDocument(text: string): void {
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  let i = 0;
  const fail = (problem: string, at = i): never => {
    throw new JsonSyntax(problem, at);
  };
  const found = (): string => (i >= text.length ? "end of file" : JSON.stringify(text[i]));
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const expect = (char: string, what: string) => {
    skipSpace();
    if (text[i] !== char) fail(`expected ${what}, found ${found()}`);
    i++;
  };

  const value = (): void => {
    skipSpace();
    const char = text[i];
    if (char === "{") return object();
    if (char === "[") return array();
    if (char === '"') return string();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return number();
    for (const literal of ["true", "false", "null"]) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    if (char === "/") fail("comments are not allowed in JSON");
    if (char === "'") fail("strings must use double quotes");
    fail(`expected a value, found ${found()}`);
  };

  const object = () => {
    i++;
    skipSpace();
    if (text[i] === "}") return void i++;
    for (;;) {
      skipSpace();
      if (text[i] === "/") fail("comments are not allowed in JSON");
      if (text[i] !== '"') fail(`expected a property name in double quotes, found ${found()}`);
      string();
      expect(":", '":" after the property name');
      value();
      skipSpace();
      if (text[i] === "}") return void i++;
      const comma = i;
      expect(",", '"," or "}"');
      skipSpace();
      if (text[i] === "}") fail("trailing comma", comma);
    }
  };

  const array = () => {
    i++;
    skipSpace();
    if (text[i] === "]") return void i++;
    for (;;) {
      value();
      skipSpace();
      if (text[i] === "]") return void i++;
      const comma = i;
      expect(",", '"," or "]"');
      skipSpace();
      if (text[i] === "]") fail("trailing comma", comma);
    }
  };

  const string = () => {
    const start = i++;
    while (i < text.length) {
      const char = text[i] ?? "";
      if (char === '"') return void i++;
      if (char < " ") fail("line break or control character inside a string (write \\n)");
      if (char === "\\") {
        const next = text[i + 1] ?? "";
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (ESCAPES.has(next)) i += 2;
        else fail(`invalid escape "\\${next}"`);
        continue;
      }
      i++;
    }
    fail("unterminated string", start);
  };

  const number = () => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail("invalid number");
    i = NUMBER.lastIndex;
  };

  value();
  skipSpace();
  if (i < text.length) fail(`unexpected ${found()} after the end of the JSON value`);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column };
}
