// Where the walk meets arithmetic (see arithmetic.ts): `(( ))`, `$(( ))`, c-style `for`, the
// operands of `[[ -eq ]]` and `-v`, subscripts, substring offsets, `let` and `declare -i`. An
// expression that could evaluate unknown text is reported as an opaque command.
import type { Node } from "web-tree-sitter";
import { checkArithmetic, plainNumber } from "./arithmetic.ts";
import { emit, pendingOf } from "./emit.ts";
import type { Scope } from "./scope.ts";
import { riskyVariable } from "./state.ts";
import { forgetAll } from "./vars.ts";
import type { Walker } from "./walk.ts";

const REASON = "bash evaluates this as arithmetic, and a variable's text in it can run code (a[$(...)])";
const COMPARE = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/** Checks one expression; numeric assignments in it are remembered. False when it was reported. */
export function arithmetic(w: Walker, text: string, scope: Scope, shown = text): boolean {
  // It can assign, directly or through a variable's text (`a='f=1'; (( a ))`).
  if (/[A-Za-z_$`]/.test(text)) forgetAll(scope);
  const result = checkArithmetic(text, scope.ints);
  if (!result.safe) {
    emit(w, pendingOf(scope, shown), REASON);
    return false;
  }
  if (result.assigned.length > 0) scope.ints = new Set([...scope.ints, ...result.assigned]);
  const risky = result.assigned.find(riskyVariable);
  if (risky) w.taint(`${risky} is assigned on the line, which changes how the commands after it run`, risky);
  return true;
}

/** `(( expr ))` and `$(( expr ))`. */
export function arithmeticNode(w: Walker, node: Node, scope: Scope): void {
  const text = node.text;
  const inner = text.startsWith("$((") ? text.slice(3, -2) : text.startsWith("$[") ? text.slice(2, -1) : text.slice(2, -2);
  arithmetic(w, inner, scope, text);
}

/** `for ((init; cond; update))`: the three parts in order. */
export function cStyleFor(w: Walker, node: Node, scope: Scope): void {
  for (const field of ["initializer", "condition", "update"]) {
    for (const part of node.childrenForFieldName(field)) {
      if (part && !arithmetic(w, part.text, scope, node.text)) return;
    }
  }
}

/** `[[ a -eq b ]]` evaluates both sides; `-v name` (in `[` too) evaluates name's subscript. True when reported. */
export function testOperands(w: Walker, node: Node, scope: Scope): boolean {
  const double = node.text.startsWith("[[");
  for (const expression of node.descendantsOfType(["binary_expression", "unary_expression"])) {
    if (!expression) continue;
    const operator = expression.childForFieldName("operator")?.text ?? "";
    if (double && expression.type === "binary_expression" && COMPARE.has(operator)) {
      for (const side of [expression.childForFieldName("left"), expression.childForFieldName("right")]) {
        if (side && !plainNumber(side.text) && !arithmetic(w, unquote(side.text), scope, node.text)) return true;
      }
    }
    if (expression.type === "unary_expression" && operator === "-v") {
      const operand = expression.namedChildren.find((child) => child?.type !== "test_operator");
      if (operand && !/^[A-Za-z_]\w*$/.test(unquote(operand.text))) {
        emit(w, pendingOf(scope, node.text), REASON);
        return true;
      }
    }
  }
  return false;
}

/** `${a[i]}`, `a[i]=x`: an index that is not a number or `@`/`*` is evaluated. */
export function subscript(w: Walker, node: Node, scope: Scope): void {
  const index = node.childForFieldName("index")?.text;
  if (index === undefined || index === "@" || index === "*") return;
  arithmetic(w, unquote(index), scope, node.text);
}

/** `${s:offset:length}`: both are arithmetic. */
export function substring(w: Walker, node: Node, scope: Scope): void {
  const match = /^\$\{[A-Za-z_]\w*:(?![-=?+])([^}]*)\}$/.exec(node.text);
  if (!match) return;
  for (const part of match[1]!.split(":")) {
    if (!arithmetic(w, part, scope, node.text)) return;
  }
}

function unquote(text: string): string {
  return /^"[^"]*"$/.test(text) ? text.slice(1, -1) : text;
}
