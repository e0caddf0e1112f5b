// What the shell analysis finds in a command line: every simple command it would run (wrappers
// looked through), where it runs, and the files redirections read and write.

export type ShellCommand = {
  /** The words of the command after wrappers are looked through, quotes removed: ["git", "push", "--force"]. */
  argv: string[];
  /** Leading assignments kept as written (`LD_PRELOAD=x`): they are part of what is checked. */
  env: string[];
  /** Wrappers looked through to reach this command, outermost first: ["sudo", "xargs"]. */
  wrappers: string[];
  /** The directory the command runs in, after following earlier `cd`s on the line (absolute). */
  cwd: string;
  /**
   * Why this command cannot be known statically, when it cannot: its name comes from a variable or a
   * substitution, it is `eval`/`source`/`.`, an interpreter given code (`python -c`, `node -e`, a
   * script file), or a shell fed by a pipe (`curl x | sh`). Such a command is never allowed by a pattern.
   */
  opaque?: string;
  /** True when some word was not a plain literal (contained $VAR, $(...), a glob...): its text is kept as written. */
  dynamic?: boolean;
  /** The argv words only known when the line runs: a plain glob of file names, one word, or words that can split (`$(cmd)`: with cmd). */
  unknown?: { index: number; kind: "glob" | "word" | "split"; input?: ShellCommand }[];
  /** Dynamic whatever its words are: they are completed at run time (xargs, find -exec), or its directory is unknown. */
  dynamicContext?: boolean;
  /** For `a | xargs b`: the simple command `a` whose output xargs turns into b's words (then dynamicContext is not set for it). */
  input?: ShellCommand;
  /** The source text of this command (for display). */
  text: string;
};

export type Redirect = {
  /** "write" for >, >>, &>, >|, and tee-like targets; "read" for <, <<< is not a file. */
  kind: "read" | "write";
  /** The target path as written, and resolved to an absolute path against the command's cwd (~ and $HOME expanded). */
  target: string;
  path: string;
  /** True when the target is not a plain literal (e.g. > "$OUT"): it cannot be checked statically. */
  dynamic?: boolean;
};

export type ShellAnalysis = {
  commands: ShellCommand[];
  redirects: Redirect[];
  /** Why the files the line reads cannot all be resolved (`~+`, a CDPATH change): asks where no sandbox masks credentials. */
  unresolved?: string;
  /** Set when the line does not parse (or uses a construct the analysis refuses): the caller asks. */
  error?: string;
};
