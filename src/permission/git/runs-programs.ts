// Forms of git's writing subcommands that run a program given on the line: a pattern rule written
// for the subcommand (`bash(git push *)`) must not allow them, so they make git opaque.

const OPTIONS: Record<string, RegExp> = {
  push: /^--(?:receive-pack|exec)(?:=|$)/,
  fetch: /^--upload-pack(?:=|$)/,
  pull: /^--upload-pack(?:=|$)/,
  clone: /^(?:--upload-pack(?:=|$)|-u$|--template(?:=|$)|--config(?:=|$)|-c$)/,
  "ls-remote": /^--upload-pack(?:=|$)/,
  archive: /^--(?:exec|remote)(?:=|$)/,
  rebase: /^(?:-x|--exec(?:=|$)|-[a-wyz]*x)/,
  difftool: /^(?:-x|--extcmd(?:=|$)|-t|--tool(?:=|$))/,
  mergetool: /^(?:-t|--tool(?:=|$))/,
  commit: /^--(?:template|cleanup)(?:=|$)|^-t$/,
  "send-email": /^--(?:sendmail-cmd|smtp-server|to-cmd|cc-cmd)(?:=|$)/,
  "fast-import": /^--(?:export-marks|import-marks)(?:=|$)/,
};
// Subcommands whose work is a program or a script they are given.
const ALWAYS: Record<string, string> = {
  "filter-branch": "git filter-branch runs the shell code it is given",
  "filter-repo": "git filter-repo runs the code it is given",
  "bisect run": "git bisect run runs the command it is given",
  "submodule foreach": "git submodule foreach runs the shell code it is given in other repositories",
  "worktree add": "", // only a write
};

/** Why `git sub args...` runs a program given on the line, or undefined. */
export function runsProgram(sub: string, args: readonly string[]): string | undefined {
  const always = ALWAYS[sub] ?? ALWAYS[`${sub} ${args.find((a) => !a.startsWith("-")) ?? ""}`];
  if (always) return always;
  const pattern = OPTIONS[sub];
  const option = pattern ? args.find((arg) => pattern.test(arg)) : undefined;
  return option ? `git ${sub} ${option} runs a program given on the line` : undefined;
}
