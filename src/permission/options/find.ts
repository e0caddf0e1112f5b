// find's expression, as GNU findutils reads it: the roots before the first expression word
// (default `.`), then options, tests, actions and operators, each with the words it takes. The
// commands of -exec/-ok are found by the shell analysis; here they are skipped. -delete writes the
// roots, -fprint FILE and the like write FILE, -files0-from takes its roots from a file. A word
// find does not know makes it opaque.
import type { PathHandler } from "../command-options.ts";

const words = (list: string) => list.split(/\s+/).filter(Boolean);
// Expression words and how many arguments each takes.
export const FIND_WORDS: ReadonlyMap<string, number> = new Map<string, number>([
  ...words(`-d -depth -follow -help --help -ignore_readdir_race -mount -noignore_readdir_race -noleaf -version --version
    -warn -nowarn -xdev -daystart -empty -executable -false -nogroup -nouser -readable -true -writable -delete -ls
    -print -print0 -prune -quit ( ) ! -not -a -and -o -or ,`).map((w): [string, number] => [w, 0]),
  ...words(`-maxdepth -mindepth -regextype -amin -anewer -atime -cmin -cnewer -context -ctime -fstype -gid -group
    -ilname -iname -inum -ipath -iregex -iwholename -links -lname -mmin -mtime -name -newer -path -perm -regex
    -samefile -size -type -uid -used -user -wholename -xtype -printf -fls -fprint -fprint0 -files0-from`).map((w): [string, number] => [w, 1]),
  ["-fprintf", 2],
]);
const WRITES = new Set(["-fls", "-fprint", "-fprint0", "-fprintf"]);
const EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

export const findPaths: PathHandler = (args, s) => {
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i]!)) i += args[i] === "-D" ? 2 : 1;
  const roots: string[] = [];
  while (i < args.length && !/^[-(!),]/.test(args[i]!)) roots.push(args[i++]!);
  const dirs = roots.length > 0 ? roots : ["."];
  dirs.forEach((w) => s.read(w));
  for (; i < args.length; i++) {
    const w = args[i]!;
    if (EXEC.has(w)) {
      while (i + 1 < args.length && args[i + 1] !== ";" && !(args[i + 1] === "+" && args[i] === "{}")) i++;
      i++;
      continue;
    }
    const arity = FIND_WORDS.get(w) ?? (/^-newer[aBcmt]{2}$/.test(w) ? 1 : undefined);
    if (arity === undefined) return s.opaque(`find: rein does not know ${w}`);
    if (w === "-delete") dirs.forEach((d) => s.write(d));
    if (WRITES.has(w) && args[i + 1] !== undefined) s.write(args[i + 1]!);
    if (w === "-files0-from") s.opaque("find -files0-from reads the folders to search from a file");
    if (/^-(a|c)?newer/.test(w) || w === "-samefile") if (args[i + 1] !== undefined) s.read(args[i + 1]!);
    i += arity;
  }
};
