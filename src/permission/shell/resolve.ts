// From a command's words to the command(s) it runs: wrappers are looked through (sudo, env, xargs...),
// shells given literal code are parsed in turn, and what runs unseen code is marked opaque.
import { changeDirectory, setOptions } from "./cd.ts";
import { classifyRunner } from "./code-runners.ts";
import { emit, markReplaced, pendingOf, type Pending } from "./emit.ts";
import { findExecs, hiddenFindAction } from "./find.ts";
import { commandName, isAbsolute, resolvePath } from "./paths.ts";
import { arithmetic } from "./arith-walk.ts";
import { toRedirect } from "./redirects.ts";
import { builtinTargets, riskyVariable } from "./state.ts";
import { shellScope, type Place, type Scope } from "./scope.ts";
import { forgetAll } from "./vars.ts";
import { teeWrites } from "./tee.ts";
import type { Walker } from "./walk.ts";
import { literal, type Word } from "./words.ts";
import { parseOptions, WRAPPERS, type Options, type WrapperSpec } from "./wrappers.ts";

const MAX_WRAPPERS = 16;
// xargs options that keep each input word one argument of the command (no -I, -a, -E...).
const NAME_OPTIONS = new Set(["-0", "--null", "-n", "--max-args", "-r", "--no-run-if-empty", "-P", "--max-procs", "-L", "--max-lines", "-t", "--verbose", "-x", "--exit", "-s", "--max-chars"]);
const MAX_SHELL_DEPTH = 8;
// Builtins that evaluate array subscripts in their arguments: `read 'a[$(rm x)]'` runs rm.
const SUBSCRIPT_BUILTINS = new Set(["let", "declare", "typeset", "local", "export", "readonly", "printf", "read", "unset", "test", "[", "mapfile", "readarray", "wait"]);
const SUBSCRIPT_CODE = /\[[^\]]*(?:\$\(|`)/;
// Builtins that declare or remove variables, or give them attributes.
const DECLARES = new Set(["declare", "typeset", "local", "export", "readonly", "unset", "enable"]);
// Wrappers after which a builtin still runs in this shell (`time` is bash's keyword here).
const IN_THIS_SHELL = new Set(["command", "builtin", "time"]);

/** Where shell code found inside a command runs. */
type Inner = { wrappers: string[]; place: Place; env: string[]; dynamic: boolean; replace?: RegExp };

export function resolveCommand(w: Walker, scope: Scope, start: Pending): void {
  let pending: Pending | undefined = start;
  for (let hops = 0; pending; hops++) {
    if (hops > MAX_WRAPPERS) return emit(w, pending, "too many wrappers to follow");
    const head = pending.words[0];
    if (!head) return;
    if (head.dynamic) return emit(w, pending, "the command name is only known when the line runs");
    const name = commandName(head.value);
    const spec = WRAPPERS.get(name);
    if (!spec) return run(w, scope, pending, name);
    pending = lookThrough(w, scope, pending, name, spec);
  }
}

/** The command after a wrapper's options, or undefined when the wrapper was reported itself. */
function lookThrough(w: Walker, scope: Scope, p: Pending, name: string, spec: WrapperSpec): Pending | undefined {
  const options = parseOptions(p.words, spec);
  if (options.unknown) {
    emit(w, p, `${name} is given an option the analysis cannot follow (${options.unknown}), so what it runs is not known`);
    return undefined;
  }
  const has = (list: readonly string[] | undefined) => list?.some((o) => options.seen.has(o)) ?? false;
  if (has(spec.quiet)) {
    emit(w, p);
    return undefined;
  }
  let rest = p.words.slice(options.at);
  let place = chdir(p.place, spec, options);
  let dynamic = p.dynamic;
  const env = [...p.env, ...options.env.map((e) => e.text)];
  const wrappers = [...p.wrappers, name];
  switch (name) {
    case "env":
      if (has(["-S", "--split-string"])) return void emit(w, p, "env -S splits a string into a command");
      break;
    case "time": {
      const output = options.seen.get("-o") ?? options.seen.get("--output");
      if (output) w.redirects.push(toRedirect("write", output, p.place));
      break;
    }
    case "sudo":
      if (has(["-R", "--chroot"])) place = unknownPlace(place);
      break;
    case "chroot":
      if (rest.length === 0) return void emit(w, p, "chroot starts an interactive shell");
      place = unknownPlace(place); // paths are inside the new root
      break;
    case "xargs": {
      rest = markReplaced(rest.length > 0 ? rest : [literal("echo")], replaceToken(options));
      // Its arguments come from its input: when that is a simple command, the engine judges them by it.
      const plain = !p.dynamic && [...options.seen.keys()].every((o) => NAME_OPTIONS.has(o)) && !rest.some((word) => word.dynamic);
      if (plain && scope.input) return { words: rest, env, wrappers, place, dynamic: true, text: p.text, input: scope.input };
      dynamic = true;
      break;
    }
    case "watch":
      if (!has(["-x", "--exec"])) return void runJoined(w, scope, p, rest, { wrappers, place, env, dynamic });
      break;
    case "parallel": {
      const end = rest.findIndex((word) => /^:{3,4}\+?$/.test(word.value));
      const command = end < 0 ? rest : rest.slice(0, end);
      if (command.length === 0) return void emit(w, p, "parallel runs the commands it is given as arguments or input");
      return void runJoined(w, scope, p, command, { wrappers, place, env, dynamic: true, replace: /\{[^{}]*\}/ });
    }
    case "flock": // flock [options] file (command... | -c code)
      if (["-c", "--command"].includes(rest[0]?.value ?? "")) {
        return void runCode(w, scope, p, rest[1] ?? literal(""), { wrappers, place, env, dynamic });
      }
      break;
    case "coproc":
      if (["{", "("].includes(rest[0]?.value ?? "")) rest = rest.slice(1);
      else if (["{", "("].includes(rest[1]?.value ?? "")) {
        // `coproc NAME { ...; }` assigns the array NAME.
        if (riskyVariable(rest[0]?.value ?? "")) w.taint(`coproc assigns ${rest[0]!.value}, which changes how the commands after it run`, rest[0]!.value);
        rest = rest.slice(2);
      }
      break;
  }
  if (rest.length === 0) return void emit(w, p, has(spec.shell) ? `${name} starts an interactive shell` : undefined);
  return { words: rest, env, wrappers, place, dynamic, text: p.text };
}

/** A command that is not a wrapper: reported, with what it runs, writes, or does to the directory. */
function run(w: Walker, scope: Scope, p: Pending, name: string): void {
  const local = p.wrappers.slice(scope.wrappers.length); // wrappers looked through in this shell
  if (DECLARES.has(name)) declares(w, scope, p);
  switch (name) {
    case "find":
      return find(w, scope, p);
    case "tee":
      emit(w, p);
      return teeWrites(w, p);
    case "cd":
    case "pushd":
    case "popd":
      emit(w, p);
      if (local.every((x) => IN_THIS_SHELL.has(x))) changeDirectory(scope, name, p.words.slice(1), p.env);
      return;
    case "trap":
      w.untrack(); // its code can assign variables before any later command (a DEBUG trap)
      return trap(w, scope, p);
    case "shopt": // lastpipe, nullglob, dotglob, globstar...: assignments and globs no longer work as followed
      w.untrack();
      break;
    case "set":
      emit(w, p);
      // `set -k` turns `NAME=value` words anywhere on a later command into its environment.
      if (p.words.slice(1).some((word, i, args) => word.dynamic || /^-[a-zA-Z]*k/.test(word.value) || (word.value === "-o" && args[i + 1]?.value === "keyword"))) {
        w.taint("set -k makes assignment words anywhere on a command part of its environment");
      }
      if (local.length === 0) setOptions(scope, p.words.slice(1));
      if (p.words.slice(1).some((word) => word.dynamic || /^[-+][a-zA-Z]*f|^(?:noglob|posix)$/.test(word.value))) w.untrack();
      return;
    case "su":
    case "runuser":
      return su(w, scope, p, name);
  }
  if (local.every((x) => x === "time") && scope.functions.has(name)) {
    emit(w, p);
    return w.call(name, scope);
  }
  // Before the assigning builtins: `mapfile -C code arr` assigns arr and runs code.
  const runner = classifyRunner(name, p.words.slice(1));
  if (runner && "opaque" in runner) {
    // A later command of that name is no longer the builtin; a variable compgen assigns may be PATH.
    if (name === "enable" || name === "compgen") w.taint(runner.opaque);
    return emit(w, p, runner.opaque);
  }
  if (runner) return runCode(w, scope, p, runner.code, inner(p, name));
  if (assigns(w, scope, p, name)) return;
  const subscript = SUBSCRIPT_BUILTINS.has(name) && p.words.some((word) => !word.dynamic && SUBSCRIPT_CODE.test(word.value));
  emit(w, p, subscript ? `${name} evaluates an array subscript that runs code` : undefined);
}

/**
 * `builtin declare f=x`, `command export f`, `unset f` reached through a wrapper: what they assign
 * is not followed, and after attributes (`-n` name references, `-l` lower-casing, `-i`...) no
 * assignment's value is what it says.
 */
function declares(w: Walker, scope: Scope, p: Pending): void {
  forgetAll(scope);
  if (p.words.slice(1).some((word) => word.dynamic || /^[-+]/.test(word.value))) w.untrack();
}

// Builtins that assign by name (`printf -v PATH`, `read 'a[$(x)]'`), `let` (arithmetic) and
// `test -v` (a subscript): true when the command was reported.
function assigns(w: Walker, scope: Scope, p: Pending, name: string): boolean {
  const args = p.words.slice(1);
  if (name === "let") {
    forgetAll(scope);
    emit(w, p);
    for (const word of args) {
      if (word.dynamic) return emit(w, pendingOf(scope, p.text), "let evaluates text only known when the line runs"), true;
      if (!arithmetic(w, word.value, scope, p.text)) break;
    }
    return true;
  }
  if ((name === "test" || name === "[") && args.some((word, i) => word.value === "-v" && args[i + 1] && (args[i + 1]!.dynamic || !/^[A-Za-z_]\w*$/.test(args[i + 1]!.value)))) {
    emit(w, p, "test -v evaluates the subscript of the name it is given, which can run code");
    return true;
  }
  const targets = builtinTargets(name, args);
  if (!targets) return false;
  forgetAll(scope);
  if (targets.bad !== undefined) {
    emit(w, p, `${name} assigns a variable named ${targets.bad}, whose subscript bash evaluates (it can run code)`);
    return true;
  }
  emit(w, p);
  const risky = targets.names.find(riskyVariable);
  if (risky) w.taint(`${name} assigns ${risky}, which changes how the commands after it run`, risky);
  return true;
}

function find(w: Walker, scope: Scope, p: Pending): void {
  if (hiddenFindAction(p.words)) return emit(w, p, "find is given a word only known when the line runs, which could be an action such as -delete or -exec");
  emit(w, p);
  for (const exec of findExecs(w, p)) {
    const place = exec.inDir ? unknownPlace(p.place) : p.place;
    const words = markReplaced(exec.words, "{}");
    resolveCommand(w, scope, { words, env: p.env, wrappers: [...p.wrappers, "find"], place, dynamic: true, text: p.text });
  }
}

// trap [-lpP] [action signal...]: the action is shell code run later, from wherever the shell is then.
function trap(w: Walker, scope: Scope, p: Pending): void {
  const args = p.words.slice(1);
  const at = args[0]?.value === "--" ? 1 : 0;
  const action = args[at];
  if (!action || args.length - at < 2 || (!action.dynamic && (action.value === "" || action.value.startsWith("-")))) return emit(w, p);
  return runCode(w, scope, p, action, { ...inner(p, "trap"), place: unknownPlace(p.place) });
}

// su [options] [user [args]] runs `-c code` with the user's shell; without -c it starts that shell.
function su(w: Walker, scope: Scope, p: Pending, name: string): void {
  if (p.words.some((word) => word.splits)) return emit(w, p, `${name} is given words only known when the line runs`);
  for (let i = 1; i < p.words.length; i++) {
    const word = p.words[i]!;
    if (word.dynamic) continue;
    const v = word.value;
    const code = /^(?:-[a-zA-Z]*c|--command|--session-command)$/.test(v)
      ? p.words[i + 1]
      : /^--(?:session-)?command=/.test(v)
        ? literal(v.slice(v.indexOf("=") + 1))
        : undefined;
    if (code) return runCode(w, scope, p, code, inner(p, name));
  }
  return emit(w, p, `${name} starts an interactive shell`);
}

function runCode(w: Walker, scope: Scope, outer: Pending, code: Word, where: Inner): void {
  const shell = where.wrappers[where.wrappers.length - 1];
  if (code.dynamic) return emit(w, outer, `${shell} runs shell code only known when the line runs`);
  if (scope.depth >= MAX_SHELL_DEPTH) return emit(w, outer, "shell code is nested too deeply to analyse");
  const nested = shellScope(scope, where.wrappers, where.place, where.env, where.dynamic, where.replace);
  if (!w.code(code.value, nested)) emit(w, outer, `${shell} runs shell code that does not parse`);
}

/** watch and parallel join their words with spaces and hand the result to a shell. */
function runJoined(w: Walker, scope: Scope, p: Pending, words: Word[], where: Inner): void {
  const shell = where.wrappers[where.wrappers.length - 1];
  if (words.some((word) => word.dynamic)) return emit(w, p, `${shell} runs shell code only known when the line runs`);
  runCode(w, scope, p, literal(words.map((word) => word.value).join(" ")), where);
}

function inner(p: Pending, shell: string): Inner {
  return { wrappers: [...p.wrappers, shell], place: p.place, env: p.env, dynamic: p.dynamic };
}

function chdir(place: Place, spec: WrapperSpec, options: Options): Place {
  for (const option of spec.chdir ?? []) {
    const dir = options.seen.get(option);
    if (!dir) continue;
    if (dir.dynamic) return unknownPlace(place);
    return { cwd: resolvePath(place, dir.value), known: place.known || isAbsolute(dir.value) };
  }
  return place;
}

function replaceToken(options: Options): string | undefined {
  for (const option of ["-I", "-i", "--replace"]) {
    if (options.seen.has(option)) return options.seen.get(option)?.value || "{}";
  }
  return undefined;
}

function unknownPlace(place: Place): Place {
  return { cwd: place.cwd, known: false };
}
