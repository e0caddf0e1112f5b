// Walks a parse tree and collects every command it would run and every file its redirections touch.
// Statements are followed in order through one Scope per shell process (see scope.ts); anything that is
// not a statement is scanned for the commands hidden in it ($(...), <(...), here-doc bodies...).
import type { Node, Parser } from "web-tree-sitter";
import { arithmeticNode, cStyleFor, subscript, substring, testOperands } from "./arith-walk.ts";
import { assign, runCommand, runDeclaration, runUnset } from "./command.ts";
import { backquoted } from "./backquoted.ts";
import { emit, pendingOf } from "./emit.ts";
import { parseLine } from "./parse-line.ts";
import { fileRedirect } from "./redirects.ts";
import { redirect, redirected } from "./redirected.ts";
import { resolveCommand } from "./resolve.ts";
import { childScope, conditional, samePlace, type Scope } from "./scope.ts";
import type { Redirect, ShellCommand } from "./types.ts";
import { riskyVariable } from "./state.ts";
import { literal } from "./words.ts";
import { forLoop, repeatUntilSettled } from "./loop.ts";
import { commonVars, forgetAll } from "./vars.ts";

export const STATEMENTS = new Set([
  "c_style_for_statement",
  "case_statement",
  "command",
  "compound_statement",
  "declaration_command",
  "for_statement",
  "function_definition",
  "if_statement",
  "list",
  "negated_command",
  "pipeline",
  "redirected_statement",
  "subshell",
  "test_command",
  "unset_command",
  "variable_assignment",
  "variable_assignments",
  "while_statement",
]);

// Deeper nesting than this is refused rather than risking the stack.
const MAX_NESTING = 150;
// Function bodies expanded at their calls, per line (each call can change the directory).
const MAX_CALLS = 32;
// Leaves in which tree-sitter-bash 0.25 leaves a `...` substitution as text (`${x:-`cmd`}`, here-docs).
const UNPARSED_CODE = new Set(["word", "string_content", "heredoc_content", "regex", "extglob_pattern"]);
// Quoted text that bash evaluates as arithmetic in a test runs its `a[$(...)]` subscripts.
const CODE_TEXT = /\$\(|`/;

// Variables that decide where a path or a `cd` leads.
const STEERS = /^(?:CDPATH|HOME|OLDPWD|PWD)$/;

export class TooDeep extends Error {}

/** Thrown by a walker without a parser (literal-line.ts) when the line runs shell code it would have to parse. */
export class NeedsParser extends Error {}

export class Walker {
  readonly commands: ShellCommand[] = [];
  readonly redirects: Redirect[] = [];
  private nesting = 0;
  private calls = 0;
  private readonly calling = new Set<string>();
  /** Set once the line changes state that decides what later commands run: they are all opaque. */
  tainted: string | undefined;
  /** Variables declared integer (`declare -i`): an assignment to one is arithmetic. */
  readonly integers = new Set<string>();
  /** Set once something on the line may have changed variables unseen (an opaque command, a trap): no value is known after. */
  untracked = false;
  /** Set once the line reads what the analysis cannot resolve (`~+`, a CDPATH change): without a sandbox it asks. */
  unresolved: string | undefined;
  /** Loop bodies walked so far, against MAX_PASSES. */
  passes = 0;

  /** Without a parser, shell code found in a command (`bash -c x`) throws NeedsParser. */
  constructor(readonly parser?: Parser) {}

  /** `variable`: the one assigned, when the taint is an assignment. */
  taint(reason: string, variable?: string): void {
    this.tainted ??= reason;
    this.untracked = true;
    if (variable !== undefined) this.steered(variable);
  }

  /** A variable that moves where paths lead changes: the line's reads cannot be resolved. */
  steered(variable: string): void {
    if (STEERS.test(variable)) this.unresolve(`${variable} changes on the line, which moves where its paths lead`);
  }

  unresolve(reason: string): void {
    this.unresolved ??= reason;
  }

  untrack(): void {
    this.untracked = true;
  }

  statement(node: Node, scope: Scope): void {
    if (++this.nesting > MAX_NESTING) throw new TooDeep();
    try {
      this.dispatch(node, scope);
    } finally {
      this.nesting--;
    }
  }

  /** Statements in order; one followed by `&` runs in the background, in a copy of the scope. */
  sequence(node: Node, scope: Scope): void {
    const children = node.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!child.isNamed) continue;
      this.statement(child, children[i + 1]?.type === "&" ? childScope(scope) : scope);
    }
  }

  /** The commands inside a node that is not a statement: a word, an expansion, an arithmetic... */
  scan(node: Node, scope: Scope): void {
    if (node.type === "command_substitution" || node.type === "process_substitution") return this.statement(node, scope);
    if (node.type === "arithmetic_expansion") arithmeticNode(this, node, scope);
    else if (node.type === "subscript") subscript(this, node, scope);
    else if (node.type === "expansion") this.expansion(node, scope);
    if (node.namedChildCount === 0) {
      if (UNPARSED_CODE.has(node.type) && node.text.includes("`")) this.backquotes(node.text, scope);
      return;
    }
    if (++this.nesting > MAX_NESTING) throw new TooDeep();
    try {
      for (const child of node.namedChildren) {
        if (STATEMENTS.has(child.type)) this.statement(child, scope);
        else this.scan(child, scope);
      }
    } finally {
      this.nesting--;
    }
  }

  /** Walks shell code a command runs (`bash -c '...'`); false when it does not parse. */
  code(source: string, scope: Scope): boolean {
    if (!this.parser) throw new NeedsParser();
    const tree = parseLine(this.parser, source);
    if (!tree) return false;
    try {
      if (tree.rootNode.hasError) return false;
      this.sequence(tree.rootNode, scope);
      return true;
    } finally {
      tree.delete();
    }
  }

  /** A call of a function defined on the line: its body runs here, with this directory. */
  call(name: string, scope: Scope): void {
    const body = scope.functions.get(name);
    if (!body) return;
    if (this.calling.has(name) || this.calls >= MAX_CALLS) {
      scope.place = { cwd: scope.place.cwd, known: false }; // recursion or too many calls: what it does to the directory is unknown
      return forgetAll(scope);
    }
    this.calls++;
    this.calling.add(name);
    // A `return` can leave the body anywhere (and `local` hides values): what it assigns is forgotten.
    const tracking = scope.tracking;
    scope.tracking = false;
    try {
      this.statement(body, scope);
    } finally {
      scope.tracking = tracking;
      this.calling.delete(name);
    }
  }

  private dispatch(node: Node, scope: Scope): void {
    switch (node.type) {
      case "compound_statement":
        if (node.namedChildCount === 0) return this.braces(node, scope);
        if (node.text.startsWith("((")) {
          arithmeticNode(this, node, scope);
          return this.scan(node, scope);
        }
        return this.sequence(node, scope);
      case "program":
      case "do_group":
      case "else_clause":
      case "elif_clause":
      case "case_item":
      case "negated_command":
        return this.sequence(node, scope);
      case "command_substitution":
        // Inside `...` bash unescapes \` \$ \\ before parsing; tree-sitter does not.
        if (node.text.startsWith("`") && node.text.includes("\\")) return void this.backquotes(node.text, scope);
        return this.sequence(node, childScope(scope));
      case "subshell":
      case "process_substitution":
        return this.sequence(node, childScope(scope));
      case "pipeline": {
        let input: ShellCommand | undefined;
        for (const part of node.namedChildren) {
          const first = this.commands.length;
          this.statement(part, { ...childScope(scope), input });
          input = this.commands.length === first + 1 && part.type === "command" ? this.commands[first] : undefined;
        }
        return;
      }
      case "list":
        return this.list(node, scope);
      case "command":
        return runCommand(this, node, scope);
      case "declaration_command":
        return runDeclaration(this, node, scope);
      case "unset_command":
        return runUnset(this, node, scope);
      case "variable_assignment":
        return assign(this, node, scope);
      case "variable_assignments":
        for (const part of node.namedChildren) this.statement(part, scope);
        return;
      case "redirected_statement":
        return redirected(this, node, scope);
      case "function_definition":
        return this.define(node, scope);
      case "if_statement":
      case "case_statement":
        return conditional(scope, () => this.sequence(node, scope));
      case "while_statement":
        return this.loop(node, scope);
      case "for_statement":
        return forLoop(this, node, scope);
      case "c_style_for_statement":
        cStyleFor(this, node, scope);
        return this.loop(node, scope);
      case "test_command":
        return this.test(node, scope);
      case "file_redirect": // $(< file) reads the file
        return fileRedirect(this, node, scope);
      case "comment":
        return;
      default:
        return this.scan(node, scope);
    }
  }

  // `a && b || c` nests to the left. Elements after `&&` run after the previous ones succeeded, so they
  // see their `cd`s; an element after `||` may run from any point. After the chain, a `cd` that was
  // not in the first element may or may not have happened.
  list(node: Node, scope: Scope, beforeLast?: () => void): void {
    const parts: Node[] = [];
    const operators: string[] = [];
    let current: Node = node;
    while (current.type === "list") {
      const named = current.namedChildren.filter((c) => c.type !== "comment");
      const [left, right] = [named[0], named[named.length - 1]];
      if (!left || !right || left === right) break;
      parts.unshift(right);
      operators.unshift(current.children.find((c) => c.type === "||") ? "||" : "&&");
      current = left;
    }
    parts.unshift(current);
    if (parts.length === 1) beforeLast?.();
    const start = scope.place;
    this.statement(parts[0]!, scope);
    const afterFirst = scope.place;
    const varsAfterFirst = scope.vars;
    // In `a && x=1 && cat $x` each part runs only after all before it: x is known to cat. After `||` it is not.
    const tracking = scope.tracking;
    scope.tracking = tracking && !operators.includes("||");
    try {
      for (let i = 1; i < parts.length; i++) {
        if (i === parts.length - 1) beforeLast?.();
        if (operators[i - 1] === "||") this.orElse(parts[i]!, scope, start);
        else this.statement(parts[i]!, scope);
      }
    } finally {
      scope.tracking = tracking;
    }
    if (!samePlace(afterFirst, scope.place)) scope.place = { cwd: scope.place.cwd, known: false };
    scope.vars = commonVars(varsAfterFirst, scope.vars); // the later parts may not have run
  }

  private orElse(part: Node, scope: Scope, start: Scope["place"]): void {
    const kept = scope.place;
    const entry = samePlace(start, kept) ? kept : { cwd: kept.cwd, known: false };
    scope.place = entry;
    this.statement(part, scope);
    scope.place = samePlace(entry, scope.place) ? kept : { cwd: scope.place.cwd, known: false };
  }

  /** Walks the `...` substitutions in text tree-sitter left unparsed; returns how many there were. */
  backquotes(text: string, scope: Scope): number {
    const found = backquoted(text);
    for (const code of found) {
      if (!this.code(code, childScope(scope))) emit(this, pendingOf(scope, code), "a `...` substitution does not parse");
    }
    return found.length;
  }

  // The body is walked where it is defined, so its commands are found however it is called, and again
  // at each call, where it runs with the caller's directory.
  private define(node: Node, scope: Scope): void {
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body");
    for (let i = 0; i < node.childCount; i++) {
      if (node.fieldNameForChild(i) === "redirect") redirect(this, node.child(i)!, scope, []);
    }
    if (!name || !body) return;
    if (name === "command_not_found_handle") this.taint("the line defines command_not_found_handle, which bash runs for any unknown command");
    scope.functions.set(name, body);
    // Walked here with no values known: it may be called from anywhere (a trap, later on the line).
    this.statement(body, { ...childScope(scope), vars: new Map() });
  }

  // A loop body runs again from where the previous pass left: when it changes the directory, nothing
  // in it has a known one, and a value it changes is not known to its first commands either. So the
  // body is walked again, with those values forgotten, until a pass changes none (see loop.ts).
  loop(node: Node, scope: Scope, passes = () => void (this.passes++, this.sequence(node, scope))): void {
    const firstCommand = this.commands.length;
    const firstRedirect = this.redirects.length;
    const before = scope.place;
    const clean = this.tainted === undefined;
    conditional(scope, () => repeatUntilSettled(this, scope, passes, firstCommand, firstRedirect));
    // A later pass runs the body's first commands after its state changes too.
    if (clean && this.tainted !== undefined) {
      for (let i = firstCommand; i < this.commands.length; i++) this.commands[i]!.opaque ??= this.tainted;
    }
    if (samePlace(before, scope.place)) return;
    for (let i = firstCommand; i < this.commands.length; i++) Object.assign(this.commands[i]!, { dynamic: true, dynamicContext: true });
    for (let i = firstRedirect; i < this.redirects.length; i++) this.redirects[i]!.dynamic = true;
  }

  // tree-sitter-bash reads the word `{}` as an empty group; bash runs a command named `{}`, which
  // `parallel {} ::: rm` fills in.
  private braces(node: Node, scope: Scope): void {
    const text = node.text;
    const word = scope.replace?.test(text) ? { value: text, text, dynamic: true } : literal(text);
    resolveCommand(this, scope, pendingOf(scope, text, [word]));
  }

  // `${X:=value}` assigns X; `${s:offset:length}` is arithmetic.
  private expansion(node: Node, scope: Scope): void {
    const assigned = /^\$\{([A-Za-z_]\w*):?=/.exec(node.text)?.[1];
    if (assigned && riskyVariable(assigned)) this.taint(`${assigned} is assigned on the line, which changes how the commands after it run`, assigned);
    if (/^\$\{!?[A-Za-z_]\w*(?:\[[^\]]*\])?:?=/.test(node.text)) forgetAll(scope);
    substring(this, node, scope);
  }

  private test(node: Node, scope: Scope): void {
    const reported = testOperands(this, node, scope);
    this.scan(node, scope);
    if (reported) return;
    const quoted = node.descendantsOfType(["raw_string", "string_content", "ansi_c_string"]);
    if (quoted.some((n) => n && CODE_TEXT.test(n.text))) {
      emit(this, pendingOf(scope, node.text), "a test can evaluate quoted text as arithmetic, which runs the code in it");
    }
  }
}
