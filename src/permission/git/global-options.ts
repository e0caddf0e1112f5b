// git's options before the subcommand (git.c handle_options). Some only change what is printed;
// -C, --git-dir and --work-tree change which repository it runs; -c, --config-env, --exec-path,
// -p (a pager from the environment) and --bare change what it runs: the command is then opaque.

export type Globals = {
  /** Index of the subcommand in argv (argv.length when there is none). */
  at: number;
  /** -C directories, in order (each relative to the one before). */
  dirs: string[];
  gitDir?: string;
  workTree?: string;
  /** Why the command is opaque, when a global option makes it so. */
  opaque?: string;
  /** Only an informational option (`git --version`), no subcommand needed. */
  info: boolean;
};

const HARMLESS = new Set([
  "--no-pager", "-P", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks", "--no-advice", "--literal-pathspecs",
  "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
]);
const INFO = new Set(["--version", "-v", "--help", "-h", "--html-path", "--man-path", "--info-path"]);
const HARMLESS_VALUED = new Set(["--namespace", "--list-cmds", "--attr-source"]);
const RUNS: Record<string, string> = {
  "-c": "git -c sets configuration, which can run programs (core.pager, core.fsmonitor, aliases)",
  "--config-env": "git --config-env sets configuration, which can run programs",
  "--exec-path": "git --exec-path chooses where git's own programs come from",
  "-p": "git -p pipes its output through a pager chosen by the environment",
  "--paginate": "git --paginate pipes its output through a pager chosen by the environment",
  "--bare": "git --bare treats the current folder as a repository",
  "--super-prefix": "git --super-prefix is internal to git",
};

export function globalOptions(argv: readonly string[]): Globals {
  const g: Globals = { at: argv.length, dirs: [], info: false };
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("-")) {
      g.at = i;
      return g;
    }
    const eq = word.indexOf("=");
    const name = word.startsWith("--") && eq > 0 ? word.slice(0, eq) : word;
    const attached = eq > 0 ? word.slice(eq + 1) : undefined;
    const value = () => attached ?? argv[++i];
    if (HARMLESS.has(name)) continue;
    if (INFO.has(name)) {
      g.info = true;
      continue;
    }
    if (name === "--exec-path" && attached === undefined) {
      g.info = true; // prints the path
      continue;
    }
    if (RUNS[name]) {
      g.opaque ??= RUNS[name];
      if (name === "-c" || (name === "--config-env" && attached === undefined)) i++;
      continue;
    }
    if (name === "-C") g.dirs.push(argv[++i] ?? "");
    else if (name === "--git-dir") g.gitDir = value();
    else if (name === "--work-tree") g.workTree = value();
    else if (HARMLESS_VALUED.has(name)) value();
    else if (/^-c./.test(word)) g.opaque ??= RUNS["-c"]; // -ccore.pager=x
    else if (/^-C./.test(word)) g.dirs.push(word.slice(2));
    else g.opaque ??= `git is given a global option the analysis does not know (${word})`;
  }
  return g;
}
