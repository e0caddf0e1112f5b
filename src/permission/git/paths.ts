// The files a git command touches, where commandPaths reads one: the input of xargs or of a
// substitution (`git ls-files | xargs wc`), whose folder is checked before its names are trusted.
// The engine checks the git commands of a line with git/analyze.ts instead.
import { genericPaths } from "../command-path-handlers.ts";
import type { PathHandler } from "../command-options.ts";

// git: reads its repository (cwd or -C DIR); `git clean` deletes in it; other path-like
// arguments are read, as for an unknown command.
export const gitPaths: PathHandler = (args, s) => {
  let dir = s.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith("-"); i++) {
    const w = args[i]!;
    const value = w.includes("=") ? w.slice(w.indexOf("=") + 1) : args[i + 1];
    if (w === "-C") dir = s.resolve(args[++i] ?? ".", dir) ?? dir;
    else if (/^--(git-dir|work-tree)/.test(w) && value !== undefined) s.read(value, dir);
    if (/^(-c|--(git-dir|work-tree|namespace|config-env))$/.test(w)) i++;
  }
  // `git ls-files src` prints only names under its pathspecs: they, not the whole repository, are what it reads.
  const pathspecs = args[i] === "ls-files" ? args.slice(i + 1).filter((w) => !w.startsWith("-")) : [];
  if (pathspecs.length === 0 || args.slice(i + 1).some((w) => /^-(?:x|X|-exclude|-exclude-from|-with-tree)$/.test(w))) s.read(".", dir);
  if (args[i] === "clean") s.write(".", dir);
  genericPaths(args.slice(i + 1), { ...s, read: (w, base) => s.read(w, base ?? dir) });
};
