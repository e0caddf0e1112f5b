// Loops and the values the walk knows in them. A `for` over known words (literals, globs expanded
// against the real files) walks its body once per value, with the variable set to it; any other
// loop variable is unknown. A body that forgets a value (assigns it, reads it...) runs its first
// commands after that too, on the next pass: the body is walked again with the value forgotten,
// until a pass forgets nothing more.
import type { Node } from "web-tree-sitter";
import { expandGlob } from "../options/glob.ts";
import type { Scope } from "./scope.ts";
import { riskyVariable } from "./state.ts";
import { commonVars, forget, sameVars, setVar, trackable } from "./vars.ts";
import type { Walker } from "./walk.ts";
import { evalWord } from "./words.ts";

// Loop bodies walked per line; past it, loops are walked once with nothing known.
export const MAX_PASSES = 256;
const MAX_ROUNDS = 3;

export function forLoop(w: Walker, node: Node, scope: Scope): void {
  loopVariable(w, node, scope);
  const name = node.childForFieldName("variable")?.text;
  const values = loopValues(w, node, scope); // the words are expanded once, before the first pass
  const body = node.childForFieldName("body");
  if (name) forget(scope, name);
  // A body that never names the variable is walked once (a function it calls sees it unknown).
  const used = name !== undefined && body !== null && new RegExp(`\\b${name}\\b`).test(body.text);
  const known = values !== undefined && values.length > 0 && used && trackable(name) && node.child(0)?.type !== "select";
  w.loop(node, scope, () => {
    if (!body) return;
    const each = known && w.passes + values.length <= MAX_PASSES ? values : [undefined];
    for (const value of each) {
      w.passes++;
      if (name) setVar(scope, name, value);
      w.statement(body, scope);
    }
  });
  if (name) forget(scope, name);
}

// `for PATH in ...` and `select` assign their variable; `for i in 1 2 3`, `{1..9}` or `$(seq 5)`
// keep it numeric for arithmetic in the body.
function loopVariable(w: Walker, node: Node, scope: Scope): void {
  const name = node.childForFieldName("variable")?.text;
  if (!name) return;
  if (riskyVariable(name)) w.taint(`${name} is assigned on the line, which changes how the commands after it run`, name);
  const values = node.childrenForFieldName("value");
  const numeric = values.length > 0 && values.every((v) => v && /^(?:-?\d+|\{-?\d+\.\.-?\d+(?:\.\.\d+)?\}|\$\(seq(?: -?\d+){1,3}\))$/.test(v.text));
  const ints = new Set(scope.ints);
  if (numeric) ints.add(name);
  else ints.delete(name);
  scope.ints = ints;
}

/** The words a `for ... in WORDS` takes, or undefined when one is only known at run time. */
function loopValues(w: Walker, node: Node, scope: Scope): string[] | undefined {
  const words = node.childrenForFieldName("value").flatMap((value) => (value ? [evalWord(w, value, scope)] : []));
  if (!node.children.some((child) => child.type === "in")) return undefined; // `for f; do`: the positional parameters
  const values: string[] = [];
  for (const word of words) {
    if (!word.dynamic) values.push(word.value);
    else if (word.globPattern !== undefined && (scope.place.known || word.globPattern.startsWith("/")) && !w.untracked) {
      const matches = expandGlob(word.globPattern, scope.place.cwd, scope.home ?? "/");
      if (matches === undefined) return undefined;
      values.push(...matches);
    } else return undefined;
  }
  return values;
}

/** Walks a loop's passes until their start and end agree on every known value. */
export function repeatUntilSettled(w: Walker, scope: Scope, passes: () => void, firstCommand: number, firstRedirect: number): void {
  const place = scope.place;
  let entry = scope.vars;
  for (let round = 1; ; round++) {
    if (w.passes >= MAX_PASSES || round > MAX_ROUNDS) entry = new Map();
    const untracked = w.untracked;
    scope.place = place;
    scope.vars = entry;
    passes();
    const after = commonVars(entry, scope.vars);
    if (sameVars(after, entry) && untracked === w.untracked) {
      scope.vars = after;
      return;
    }
    // The first commands of a later pass see what this one forgot: walk them again without it.
    w.commands.length = firstCommand;
    w.redirects.length = firstRedirect;
    entry = after;
  }
}
