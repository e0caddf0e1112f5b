// A command on its way to the result: its words so far, and what the wrappers around it decided.
import { commandName } from "./paths.ts";
import type { Place, Scope } from "./scope.ts";
import { assignedName, riskyVariable } from "./state.ts";
import type { ShellCommand } from "./types.ts";
import type { Walker } from "./walk.ts";
import { literal, type Word } from "./words.ts";

export type Pending = {
  words: Word[];
  env: string[];
  wrappers: string[];
  place: Place;
  /** Its words are completed at run time (xargs, find -exec): the command is dynamic whatever they are. */
  dynamic: boolean;
  /** The source text of the command as written on the line. */
  text: string;
  /** xargs's input, when it is the simple command before it in a pipeline. */
  input?: ShellCommand;
};

export function pendingOf(scope: Scope, text: string, words: Word[] = [literal(text)]): Pending {
  return { words, env: scope.env, wrappers: scope.wrappers, place: scope.place, dynamic: scope.dynamic, text };
}

export function emit(w: Walker, pending: Pending, opaque?: string): void {
  const argv = pending.words.map((word, i) => (word.dynamic ? word.text : i === 0 ? commandName(word.value) : word.value));
  const command: ShellCommand = {
    argv,
    env: [...pending.env],
    wrappers: [...pending.wrappers],
    cwd: pending.place.cwd,
    text: pending.text,
  };
  const risky = pending.env.map(assignedName).find((name) => name !== undefined && name !== "IFS" && riskyVariable(name));
  if (risky) w.steered(risky);
  const reason = opaque ?? w.tainted ?? (risky ? `it runs with ${risky} set on the line, which changes what it runs` : undefined);
  if (reason) command.opaque = reason;
  if (reason) w.untrack(); // eval, source, a command named by a variable...: it may assign anything
  if (pending.input) command.input = pending.input;
  else if (pending.dynamic) command.dynamicContext = true;
  if (!pending.place.known) command.dynamicContext = true;
  const unknown = pending.words.flatMap((word, index) =>
    word.dynamic ? [{ index, kind: word.glob ? ("glob" as const) : word.splits ? ("split" as const) : ("word" as const), ...(word.input ? { input: word.input } : {}) }] : [],
  );
  if (unknown.length > 0) command.unknown = unknown;
  if (command.dynamicContext || unknown.length > 0) command.dynamic = true;
  w.commands.push(command);
}

/** Words a wrapper fills in at run time (`{}` for find and xargs -I) are dynamic. */
export function markReplaced(words: Word[], token: string | undefined): Word[] {
  if (!token) return words;
  return words.map((word) => (!word.dynamic && word.value.includes(token) ? { ...word, dynamic: true } : word));
}
