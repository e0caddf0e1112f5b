// Simple commands, declarations (`export A=1`), `unset` and bare assignments: their words are
// evaluated (walking what is substituted into them), then resolved through wrappers (resolve.ts).
import type { Node } from "web-tree-sitter";
import { emit, pendingOf } from "./emit.ts";
import { fileRedirect } from "./redirects.ts";
import { resolveCommand } from "./resolve.ts";
import { arithmetic } from "./arith-walk.ts";
import type { Scope } from "./scope.ts";
import { assignedName, riskyVariable } from "./state.ts";
import type { Walker } from "./walk.ts";
import { forget, forgetAll, setVar } from "./vars.ts";
import { evalWord, literal, type Word } from "./words.ts";

// Text that looks like shell code, kept in a variable: bash runs it where the variable is expanded
// in an arithmetic context (`a[$(...)]`), with ${x@P}, or as PS4 under `set -x`.
const CODE_TEXT = /\$\(|`/;

export function runCommand(w: Walker, node: Node, scope: Scope): void {
  const env = [...scope.env];
  const words: Word[] = [];
  const place = scope.place;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    switch (child.type) {
      case "variable_assignment":
        env.push(child.text);
        w.scan(child, scope);
        forget(scope, assignedName(child.text) ?? ""); // it can stick (a special builtin in POSIX mode, a function)
        if (assignedName(child.text) === "IFS") w.untrack(); // a function called so splits words on it
        continue;
      case "file_redirect":
        fileRedirect(w, child, scope);
        continue;
      case "herestring_redirect":
        w.scan(child, scope);
        continue;
      case "comment":
        continue;
    }
    const next = children[i + 1];
    if (child.type === "$" && next?.type === "string" && next.startIndex === child.endIndex) {
      const text = child.text + next.text; // $"..." is translated by the locale: not static
      words.push({ value: text, text, dynamic: true });
      i++;
      continue;
    }
    words.push(child.isNamed ? evalWord(w, child, scope) : literal(child.text));
  }
  resolveCommand(w, scope, { words, env, wrappers: scope.wrappers, place, dynamic: scope.dynamic, text: node.text });
}

/** `export A=1`, `declare -x B`, `local c`: reported as commands, and their assignments kept for later commands. */
export function runDeclaration(w: Walker, node: Node, scope: Scope): void {
  const words: Word[] = [];
  const assignments: { node: Node; word: Word }[] = [];
  for (const child of node.children) {
    if (child.type === "comment") continue;
    if (child.type === "variable_assignment") {
      const word = assignmentWord(w, child, scope);
      words.push(word);
      assignments.push({ node: child, word });
    } else words.push(child.type === "variable_name" ? literal(child.text) : child.isNamed ? evalWord(w, child, scope) : literal(child.text));
  }
  resolveCommand(w, scope, { words, env: [...scope.env], wrappers: scope.wrappers, place: scope.place, dynamic: scope.dynamic, text: node.text });
  declarationState(w, words, assignments, scope);
  for (const { node: child, word } of assignments) remember(w, child, word, scope);
  // (resolve.ts `declares`: the values it sets are forgotten, and after attributes no assignment is followed)
}

// `declare -n r=PATH` aliases a name, `export -f` hands functions to child shells, `local PATH`
// empties a variable, `declare -i x=expr` evaluates expr: each changes what later commands see.
function declarationState(w: Walker, words: Word[], assignments: { node: Node; word: Word }[], scope: Scope): void {
  const assigned = new Set(assignments.map((a) => a.word));
  const flags = words.slice(1).filter((word) => !assigned.has(word) && /^[-+$`"']/.test(word.text));
  if (flags.some((word) => word.dynamic)) return w.taint(`${words[0]?.value ?? "declare"} is given options only known when the line runs`);
  const letters = flags.map((word) => word.value.slice(1)).join("");
  if (letters.includes("n")) return w.taint("a name reference (-n) can assign any variable");
  if (letters.includes("f") && (words[0]?.value === "export" || letters.includes("x"))) return w.taint("exported functions replace commands in child shells");
  for (const word of words.slice(1)) {
    if (!assigned.has(word) && riskyVariable(word.text)) return w.taint(`${word.value} is declared on the line, which changes how the commands after it run`, word.text);
  }
  if (!letters.includes("i")) return;
  // Later assignments to an integer variable are arithmetic too.
  for (const word of words.slice(1)) if (!/^[-+]/.test(word.text)) w.integers.add(word.text.replace(/=.*$/s, ""));
  for (const { node, word } of assignments) {
    const value = node.childForFieldName("value");
    if (value) arithmetic(w, word.dynamic ? value.text : word.value.slice(word.value.indexOf("=") + 1), scope, node.text);
  }
}

export function runUnset(w: Walker, node: Node, scope: Scope): void {
  const words = node.children
    .filter((c) => c.type !== "comment")
    .map((c) => (c.type === "variable_name" || !c.isNamed ? literal(c.text) : evalWord(w, c, scope)));
  resolveCommand(w, scope, { words, env: [...scope.env], wrappers: scope.wrappers, place: scope.place, dynamic: scope.dynamic, text: node.text });
  forgetAll(scope);
}

/** A bare assignment runs no command itself (but `x=$(...)` runs what it substitutes). */
export function assign(w: Walker, node: Node, scope: Scope): void {
  const word = assignmentWord(w, node, scope);
  remember(w, node, word, scope);
  const name = assignedName(node.text);
  if (!name) return;
  // `x=value` with all of value known, where it surely runs before what follows; not `x+=`, `x[i]=`, `x=(...)`.
  const plain = node.text.startsWith(`${name}=`) && node.childForFieldName("value")?.type !== "array";
  const value = word.raw ? (word.raw.dynamic ? word.raw.pattern : word.raw.value) : "";
  // Inside an assignment `~` also expands after `:` (`x=a:~/b`), which the value above does not do.
  const tildes = /:~/.test(node.text);
  setVar(scope, name, plain && scope.tracking && !tildes && !w.integers.has(name) ? value : undefined);
}

function assignmentWord(w: Walker, node: Node, scope: Scope): Word & { raw?: Word } {
  const name = node.childForFieldName("name");
  if (name) w.scan(name, scope); // a subscript can hold a substitution
  const value = node.childForFieldName("value");
  if (!value) return literal(node.text);
  // `a=([i]=x)`: each index is arithmetic.
  if (value.type === "array") {
    for (const element of value.namedChildren) {
      const index = element ? /^\[([^\]]*)\]=/.exec(element.text)?.[1] : undefined;
      if (index !== undefined && !/^\d+$/.test(index)) arithmetic(w, index, scope, element!.text);
    }
  }
  const word = evalWord(w, value, scope);
  const prefix = node.text.slice(0, value.startIndex - node.startIndex);
  return { value: prefix + word.value, text: node.text, dynamic: word.dynamic, raw: word };
}

// An assignment to a variable that decides how commands run (PATH, LD_PRELOAD...) makes the rest of
// the line opaque (state.ts); any other only changes what `$NAME` expands to, which the words after
// it show as dynamic. HOME and CDPATH change how `~` and `cd` resolve.
function remember(w: Walker, node: Node, word: Word, scope: Scope): void {
  const name = assignedName(node.text) ?? node.childForFieldName("name")?.text;
  if (!word.dynamic && CODE_TEXT.test(word.value)) {
    emit(w, pendingOf(scope, node.text), "a variable is given text that looks like shell code, which bash can run where it is expanded");
  }
  if (name && riskyVariable(name)) {
    scope.env = [...scope.env, node.text];
    w.taint(`${name} is assigned on the line, which changes how the commands after it run`, name);
  }
  const value = node.childForFieldName("value");
  if (name && value && w.integers.has(name) && !node.parent?.type.startsWith("declaration")) {
    arithmetic(w, word.dynamic ? value.text : word.value.slice(word.value.indexOf("=") + 1), scope, node.text);
  }
  if (name) numeric(scope, name, word);
  if (name === "HOME") scope.home = undefined;
  if (name === "CDPATH") scope.cdpath = true;
}

/** `i=0`, `n=$((n+1))` keep a variable numeric (for arithmetic later on the line); any other value does not. */
function numeric(scope: Scope, name: string, word: Word): void {
  const value = word.value.slice(word.value.indexOf("=") + 1).trim();
  const isNumber = !word.dynamic ? /^-?\d+$/.test(value) : /^\$\(\([^()]*\)\)$/.test(value) && !value.includes("[");
  if (isNumber === scope.ints.has(name)) return;
  const ints = new Set(scope.ints);
  if (isNumber) ints.add(name);
  else ints.delete(name);
  scope.ints = ints;
}
