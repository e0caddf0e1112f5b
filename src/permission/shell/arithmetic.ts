// Arithmetic is code: bash evaluates a variable's value inside `(( ))`, `$(( ))`, `let`, `[[ -eq ]]`,
// subscripts and `declare -i` as an expression, and an array subscript in that value
// (`x='a[$(rm -rf ~)]'; echo $((x))`) runs its substitution. An expression is safe only when it
// holds numbers, operators and variables this line gave numeric values.

export type ArithmeticCheck = { safe: boolean; assigned: string[] };

const NUMBER = /^(?:\d+#[0-9A-Za-z@_]+|0[xX][0-9a-fA-F]+|\d+)/;
const NAME = /^\$?(?:\{#?([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/;
// `$#`, `$?`, `${#x}`, `${#arr[@]}`: always numbers.
const SPECIAL = /^\$(?:[#?$!]|\{#[#?$!@*]?\}|\{#[A-Za-z_]\w*\[[@*]\]\})/;
const OPERATORS = /^(?:\*\*=?|<<=?|>>=?|&&|\|\||[-+*/%&|^<>=!]=?|\+\+|--|[~?:,()])/;

/** Whether `text` is an arithmetic expression that runs nothing; `ints` holds the names known to be numbers. */
export function checkArithmetic(text: string, ints: ReadonlySet<string>): ArithmeticCheck {
  const assigned: string[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    const space = /^\s+/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    const token = NUMBER.exec(rest) ?? SPECIAL.exec(rest);
    if (token) {
      rest = rest.slice(token[0].length);
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      const variable = (name[1] ?? name[2])!;
      rest = rest.slice(name[0].length);
      const after = rest.trimStart();
      // A plain `x = ...` only writes x; `x += 1`, `x++` read it first.
      const writesOnly = !name[0].startsWith("$") && /^=(?!=)/.test(after);
      if (!writesOnly && !ints.has(variable) && !name[0].startsWith("${#")) return { safe: false, assigned };
      if (!name[0].startsWith("$") && /^(?:(?:[-+*/%&|^]|<<|>>|\*\*)?=(?!=)|\+\+|--)/.test(after)) assigned.push(variable);
      continue;
    }
    const operator = OPERATORS.exec(rest);
    if (!operator) return { safe: false, assigned };
    rest = rest.slice(operator[0].length);
  }
  return { safe: true, assigned };
}

/** A literal integer, as `[[ ... -eq ... ]]` may compare without evaluating anything. */
export function plainNumber(text: string): boolean {
  return /^[-+]?(?:\d+#[0-9A-Za-z@_]+|0[xX][0-9a-fA-F]+|\d+)$/.test(text);
}
