// find runs commands with -exec/-execdir/-ok/-okdir (ended by `;`, or `+` after `{}`) and writes files
// with -fprint/-fprint0/-fls/-fprintf. `-delete` is left in find's own argv for the rules to see.
import type { Pending } from "./emit.ts";
import type { Walker } from "./walk.ts";
import { toRedirect } from "./redirects.ts";

const EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const WRITES = new Set(["-fprint", "-fprint0", "-fls", "-fprintf"]);

/** The commands find runs, each with the words up to its terminator. */
export function findExecs(w: Walker, pending: Pending): { words: Pending["words"]; inDir: boolean }[] {
  const { words } = pending;
  const execs: { words: Pending["words"]; inDir: boolean }[] = [];
  for (let i = 1; i < words.length; i++) {
    const action = words[i]!.dynamic ? "" : words[i]!.value;
    if (WRITES.has(action) && words[i + 1]) {
      w.redirects.push(toRedirect("write", words[i + 1]!, pending.place));
      i += action === "-fprintf" ? 2 : 1;
      continue;
    }
    if (!EXEC.has(action)) continue;
    let end = i + 1;
    while (end < words.length && !isTerminator(words, end)) end++;
    execs.push({ words: words.slice(i + 1, end), inDir: action.endsWith("dir") });
    i = end;
  }
  return execs;
}

function isTerminator(words: Pending["words"], at: number): boolean {
  const word = words[at]!;
  if (word.dynamic) return false;
  return word.value === ";" || (word.value === "+" && words[at - 1]?.value === "{}");
}

// Tests whose argument can be only known at run time: quoted ("$p"), it stays that one argument.
const TEST_ARGUMENT = new Set([
  ...["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname"],
  ...["-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-newer", "-anewer", "-cnewer"],
  ...["-samefile", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-maxdepth", "-mindepth", "-links"],
  ...["-inum", "-fstype", "-used", "-context"],
]);

/**
 * A word only known at run time that find could read as an action: `find "$d"` with d=-delete,
 * `find . -exec echo $x \;` with x="; -delete". Only a quoted argument of a test is safe.
 */
export function hiddenFindAction(words: Pending["words"]): boolean {
  return words.some((word, i) => {
    if (!word.dynamic) return false;
    const previous = words[i - 1]!;
    return word.splits || previous.dynamic || !(TEST_ARGUMENT.has(previous.value) || /^-newer[aBcmt]{2}$/.test(previous.value));
  });
}
