// What a shell command is checked as, and the pattern "always" saves for it.
//
// A command is checked by its full text, wrappers and env assignments included (`sudo rm -rf x`,
// `LD_PRELOAD=x npm test`), so an allow written for the inner command (`rm *`, `npm test *`) does
// not silently allow the wrapped one. Deny and ask rules must still see the inner command: with
// `--allow 'bash(*)' --deny 'bash(rm *)'`, `sudo rm -rf x` is denied. Hence `alsoCheck`.
import { commandPrefix } from "./arity.ts";
import type { ShellCommand } from "./shell/types.ts";

export type CommandPatterns = {
  /** The request pattern: wrappers, then env assignments, then argv (`sudo LD_PRELOAD=x rm -rf x`). */
  pattern: string;
  /**
   * The same command with leading wrappers and the env assignments dropped, outermost first
   * (`LD_PRELOAD=x rm -rf x`, `sudo rm -rf x`, `rm -rf x`); empty when there are none. The engine
   * evaluates each with the same rules; only a deny, or an ask from a rule whose pattern is not the
   * bare `*`, counts: such a rule was written for the inner command and a wrapper must not escape
   * it. An allow found there does not count.
   */
  alsoCheck: string[];
};

export function commandPatterns(command: ShellCommand): CommandPatterns {
  const { wrappers, argv } = command;
  const env = command.env.filter((assignment) => !PRINTING_ENV.test(assignment));
  const pattern = commandText([...wrappers, ...env, ...argv]);
  const forms: string[] = [];
  for (let i = 0; i <= wrappers.length; i++) {
    const outer = wrappers.slice(i);
    forms.push(commandText([...outer, ...env, ...argv]), commandText([...outer, ...argv]));
  }
  const alsoCheck = forms.filter((form, i) => form !== pattern && forms.indexOf(form) === i);
  return { pattern, alsoCheck };
}

/**
 * Assignments that change only how a command prints (locale, time zone, colours, width), with a
 * plain value: left out of the pattern, so `LC_ALL=C sort f` is checked as `sort f`.
 */
const PRINTING_ENV = /^(?:LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|GREP_COLORS?|TIME_STYLE|BLOCK_SIZE)=[\w.+:@,-]*$/;

/**
 * The pattern "always" saves: the command's prefix by the arity table and ` *` (`git checkout *`),
 * or the command's exact pattern when it must not be generalised: a wrapper or env assignment, an
 * opaque command, a wrapper that the analysis did not look through, a destructive command, or no
 * prefix by the arity table. An exact pattern escapes `*` and `\` as `\*` and `\\` (see escapeWildcard).
 */
export function alwaysPattern(command: ShellCommand): string {
  const { argv } = command;
  const env = command.env.filter((assignment) => !PRINTING_ENV.test(assignment));
  const exact = command.wrappers.length > 0 || env.length > 0 || command.opaque !== undefined;
  const prefix = exact || WRAPPERS.has(argv[0] ?? "") || isDestructive(argv) ? [] : commandPrefix(argv);
  if (prefix.length === 0) return escapeWildcard(commandPatterns(command).pattern);
  return `${prefix.join(" ")} *`;
}

/**
 * Words joined by single spaces; a word that is empty or holds whitespace is single-quoted, so
 * `rm 'a b'` and `rm a b` stay different commands.
 */
export function commandText(words: readonly string[]): string {
  return words.map((word) => (word === "" || /\s/.test(word) ? `'${word.replaceAll("'", `'\\''`)}'` : word)).join(" ");
}

/**
 * A saved exact pattern must match only its own command, but `*` is the wildcard: `rm -rf build/*`
 * saved as is would match `rm -rf build/ /`. So `*` and `\` are escaped. NOTE: wildcard.ts does not
 * read escapes yet; until it does, such a pattern matches nothing (safe: the command asks again).
 */
export function escapeWildcard(text: string): string {
  return text.replace(/[\\*]/g, "\\$&");
}

// Commands that run another command; normally looked through by the analysis (they then appear
// in `wrappers`), and never generalised (`sudo *`) when one reaches argv[0].
const WRAPPERS = new Set([
  "sudo", "doas", "su", "env", "xargs", "timeout", "nice", "ionice", "nohup", "stdbuf", "time",
  "command", "exec", "builtin", "watch", "chroot", "unshare", "nsenter", "setsid", "strace", "ltrace",
  "flock", "parallel", "bash", "sh", "zsh", "dash", "fish", "ksh", "eval",
]);

/**
 * Destructive commands are saved exactly. The list: rm, rmdir, unlink, shred, srm, dd, truncate,
 * mkfs and mkfs.*, mke2fs, mkswap, wipefs, fdisk, sfdisk, parted, shutdown, reboot, halt, poweroff;
 * chmod/chown/chgrp -R; find -delete; rsync --delete* or --remove-source-files; git push with
 * force or delete (-f, --force*, --mirror, -d, --delete, --prune, a `+` or `:` refspec), git reset
 * --hard, git clean, git branch -D (or --delete --force), git stash drop/clear, git filter-branch;
 * docker/podman system prune, volume rm/prune; kubectl delete; helm uninstall/delete; terraform and
 * tofu destroy; aws s3 rm/rb. Not kill/pkill/killall: they stop processes, not data, and a saved
 * PID would never match again.
 */
export function isDestructive(argv: readonly string[]): boolean {
  const [name = "", sub = "", third = ""] = argv;
  const args = argv.slice(1);
  if (ALWAYS_DESTRUCTIVE.has(name) || name.startsWith("mkfs")) return true;
  switch (name) {
    case "chmod":
    case "chown":
    case "chgrp":
      return hasFlag(args, "R", "--recursive");
    case "find":
      return args.includes("-delete");
    case "rsync":
      return args.some((a) => a.startsWith("--delete") || a === "--remove-source-files");
    case "git":
      return isDestructiveGit(sub, argv.slice(2));
    case "docker":
    case "podman":
      return (sub === "system" && third === "prune") || (sub === "volume" && (third === "rm" || third === "prune"));
    case "kubectl":
      return sub === "delete";
    case "helm":
      return sub === "uninstall" || sub === "delete";
    case "terraform":
    case "tofu":
      return sub === "destroy";
    case "aws":
      return sub === "s3" && (third === "rm" || third === "rb");
  }
  return false;
}

const ALWAYS_DESTRUCTIVE = new Set([
  "rm", "rmdir", "unlink", "shred", "srm", "dd", "truncate", "mke2fs", "mkswap", "wipefs", "fdisk",
  "sfdisk", "parted", "shutdown", "reboot", "halt", "poweroff",
]);

function isDestructiveGit(sub: string, args: readonly string[]): boolean {
  switch (sub) {
    case "push":
      return (
        hasFlag(args, "f", "--force", "--force-with-lease", "--force-if-includes", "--mirror") ||
        hasFlag(args, "d", "--delete", "--prune") ||
        args.some((a) => a.startsWith("+") || a.startsWith(":"))
      );
    case "reset":
      return args.includes("--hard");
    case "clean":
    case "filter-branch":
      return true;
    case "branch":
      return hasFlag(args, "D") || (hasFlag(args, "d", "--delete") && hasFlag(args, "f", "--force"));
    case "stash":
      return args[0] === "drop" || args[0] === "clear";
  }
  return false;
}

/** A short flag (alone or in a bundle like `-fu`) or a long one (also as `--long=value`). */
function hasFlag(args: readonly string[], short: string, ...long: string[]): boolean {
  return args.some(
    (a) =>
      (/^-[^-]/.test(a) && a.slice(1).includes(short)) || long.some((l) => a === l || a.startsWith(`${l}=`)),
  );
}
