// The values of variables the line itself gave them, where the walk knows them for sure: `f=x; cat
// "$f"` reads x. A value is known only after a plain assignment of fully known text in a position
// that surely ran before the use (see the `tracking` flag of Scope), or as a `for` loop's word.
// Anything else that can change a variable forgets it (or all of them): `read`, `declare`, `x+=`,
// arrays, `${x:=...}`, arithmetic (which can assign through a variable's text), an opaque command.
import type { Scope } from "./scope.ts";
import { riskyVariable } from "./state.ts";

// Variables bash sets by itself, or whose assignment does not stick.
const SPECIAL = new Set([
  "_", "PWD", "OLDPWD", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "REPLY", "OPTIND", "OPTARG", "OPTERR", "BASHPID",
  "EPOCHSECONDS", "EPOCHREALTIME", "HISTCMD", "FUNCNAME", "PIPESTATUS", "COLUMNS", "LINES", "MAPFILE", "COPROC",
  "GROUPS", "UID", "EUID", "PPID", "SHLVL", "HOSTNAME", "HOSTTYPE", "OSTYPE", "MACHTYPE", "DIRSTACK", "HISTFILESIZE",
  "HISTSIZE", "TMOUT", "ENV", "HOME", "IFS",
]);
const IDENTIFIER = /^[A-Za-z_]\w*$/;

/** Whether the walk may keep a value for `name`. */
export function trackable(name: string): boolean {
  return IDENTIFIER.test(name) && !SPECIAL.has(name) && !/^(?:BASH|COMP|READLINE)_/.test(name) && !riskyVariable(name);
}

export function setVar(scope: Scope, name: string, value: string | undefined): void {
  if (value === undefined || !trackable(name)) return forget(scope, name);
  if (scope.vars.get(name) === value) return;
  scope.vars = new Map(scope.vars).set(name, value);
}

export function forget(scope: Scope, name: string): void {
  if (!scope.vars.has(name)) return;
  const vars = new Map(scope.vars);
  vars.delete(name);
  scope.vars = vars;
}

export function forgetAll(scope: Scope): void {
  if (scope.vars.size > 0) scope.vars = new Map();
}

/** The variables known with the same value in both. */
export function commonVars(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  if (a === b) return a;
  const common = new Map<string, string>();
  for (const [name, value] of a) if (b.get(name) === value) common.set(name, value);
  return common.size === a.size ? a : common;
}

export function sameVars(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a === b || (a.size === b.size && [...a].every(([name, value]) => b.get(name) === value));
}

// An unquoted expansion is split on blanks and expanded as a glob: a value that could be either
// (or is empty, and so removes the word) stays unknown there.
const PLAIN_UNQUOTED = /^[\w./:=,@%^+~-]+$/;

/** The known value of `$name` at this point, or undefined. */
export function lookup(scope: Scope, name: string, quoted: boolean): string | undefined {
  const value = scope.vars.get(name);
  if (value === undefined || quoted || PLAIN_UNQUOTED.test(value)) return value;
  return undefined;
}
