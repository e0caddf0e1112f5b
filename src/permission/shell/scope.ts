// What one shell process knows at a point of the line. A subshell, a pipeline element, a substitution
// or a background job gets a copy, so its `cd`s and assignments do not reach the rest of the line.
import type { Node } from "web-tree-sitter";
import type { ShellCommand } from "./types.ts";

/** The directory commands run in; `known` turns false once a `cd` cannot be followed. */
export type Place = { readonly cwd: string; readonly known: boolean };

export type Scope = {
  place: Place;
  /** Where the last `cd` on the line left from (`~-`, `$OLDPWD`); unknown before the line's first. */
  previous?: Place;
  /** For `~` and `$HOME`; undefined once the line assigns HOME. */
  home: string | undefined;
  /** Assignments made earlier on the line: they reach the commands after them (`PATH=.:$PATH; ls`). */
  env: string[];
  /** Wrappers of the shell running this code (`sudo bash -c '...'` gives ["sudo", "bash"]). */
  wrappers: string[];
  /** This code's words are filled in at run time (`xargs sh -c`, `parallel`): every command is dynamic. */
  dynamic: boolean;
  /** Words matching this are substituted by the running wrapper (`parallel 'rm {}'`): they are dynamic. */
  replace: RegExp | undefined;
  /** Shells within shells (`bash -c "bash -c ..."`). */
  depth: number;
  /** Functions defined so far, by name. */
  functions: Map<string, Node>;
  /** CDPATH was set: a relative `cd` is not followed. */
  cdpath: boolean;
  /** Variables this line gave numeric values: safe in arithmetic. */
  ints: ReadonlySet<string>;
  /** `set -P` is on: every `cd` is physical. */
  physical: boolean;
  /** In a pipeline, the simple command before this part (what its stdin reads), when it was one. */
  input?: ShellCommand;
  /** Values this line surely gave variables by this point (vars.ts). */
  vars: ReadonlyMap<string, string>;
  /** This point runs after every earlier statement of its shell: an assignment here is known later. */
  tracking: boolean;
};

export function rootScope(cwd: string, home: string): Scope {
  return {
    place: { cwd, known: true },
    home,
    env: [],
    wrappers: [],
    dynamic: false,
    replace: undefined,
    depth: 0,
    functions: new Map(),
    cdpath: false,
    ints: new Set(),
    physical: false,
    vars: new Map(),
    tracking: true,
  };
}

/** A copy for code that runs in a subshell: what it assigns stays there, so it tracks its own straight line. */
export function childScope(scope: Scope): Scope {
  return { ...scope, env: [...scope.env], functions: new Map(scope.functions), input: undefined, tracking: true };
}

/** A new shell process running code (`bash -c`): it inherits the directory and environment, not functions. */
export function shellScope(scope: Scope, wrappers: string[], place: Place, env: string[], dynamic: boolean, replace?: RegExp): Scope {
  const vars = new Map<string, string>(); // only exported variables reach it, and a trap runs later
  return { ...scope, place, env, wrappers, dynamic: dynamic || scope.dynamic, replace, depth: scope.depth + 1, functions: new Map(), vars, tracking: true };
}

/**
 * Runs a part that may or may not run (`a && cd x`, an `if` branch): a `cd` in it leaves the
 * directory unknown, and what it assigns is forgotten, not known (so one branch never lends its
 * values to another, and a `break` or `return` in it leaves only values known all along).
 */
export function conditional(scope: Scope, part: () => void): void {
  const before = scope.place;
  const tracking = scope.tracking;
  scope.tracking = false;
  try {
    part();
  } finally {
    scope.tracking = tracking;
  }
  if (!samePlace(before, scope.place)) scope.place = { cwd: scope.place.cwd, known: false };
}

export function samePlace(a: Place, b: Place): boolean {
  return a.cwd === b.cwd && a.known === b.known;
}
