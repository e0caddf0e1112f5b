// Commands that run another command (`sudo rm x`), as data: which options they take, so the command
// they run is found after them. An option not listed here means the command cannot be found safely:
// the wrapper is then reported opaque rather than guessed through.
import { literal, type Word } from "./words.ts";

export type WrapperSpec = {
  /** Options without a value. */
  flags?: readonly string[];
  /** Options with a value: the next word, or attached (`-n10`, `--user=root`). */
  values?: readonly string[];
  /** Options whose value, if any, is attached (`xargs -i[R]`, `--replace[=R]`). */
  attached?: readonly string[];
  /** `-N` is an option (`nice -10`). */
  numeric?: boolean;
  /** Words between the options and the command (timeout's duration, chroot's root). */
  positional?: number;
  /** NAME=value words before the command are environment (`env A=b cmd`). */
  assignments?: boolean;
  /** With these, nothing is run: the wrapper itself is the command (`command -v x`). */
  quiet?: readonly string[];
  /** Options giving the directory the command runs in. */
  chdir?: readonly string[];
  /** With these and no command, an interactive shell starts, reading its input. */
  shell?: readonly string[];
};

const help = ["--help", "--version"];

export const WRAPPERS = new Map<string, WrapperSpec>([
  [
    "sudo",
    {
      flags: [
        ...["-A", "-B", "-b", "-E", "-e", "-H", "-i", "-K", "-k", "-l", "-N", "-n", "-P", "-S", "-s", "-V", "-v"],
        ...["--askpass", "--bell", "--background", "--preserve-env", "--edit", "--set-home", "--login", "--remove-timestamp"],
        ...["--reset-timestamp", "--list", "--no-update", "--non-interactive", "--preserve-groups", "--stdin", "--shell", "--validate", ...help],
      ],
      values: [
        ...["-a", "-C", "-c", "-D", "-g", "-p", "-R", "-r", "-T", "-t", "-U", "-u", "--auth-type", "--close-from", "--login-class"],
        ...["--chdir", "--group", "--host", "--prompt", "--chroot", "--role", "--command-timeout", "--type", "--other-user", "--user"],
      ],
      attached: ["-h"], // -h alone is help, -hHOST a host
      assignments: true,
      quiet: ["-e", "--edit", "-l", "--list", "-v", "--validate", "-K", "--remove-timestamp", "-V", ...help],
      chdir: ["-D", "--chdir"],
      shell: ["-s", "--shell", "-i", "--login"],
    },
  ],
  ["doas", { flags: ["-n", "-s", "-L"], values: ["-u", "-C"], quiet: ["-C", "-L"], shell: ["-s"] }],
  [
    "env",
    {
      flags: ["-i", "-0", "-v", "-", "--ignore-environment", "--null", "--debug", ...help],
      values: ["-u", "-C", "-S", "--unset", "--chdir", "--split-string"],
      attached: ["--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"],
      assignments: true,
      quiet: [...help, "--list-signal-handling"],
      chdir: ["-C", "--chdir"],
    },
  ],
  [
    "timeout",
    {
      flags: ["-v", "--verbose", "--preserve-status", "--foreground", ...help],
      values: ["-s", "-k", "--signal", "--kill-after"],
      positional: 1,
      quiet: help,
    },
  ],
  ["nice", { flags: help, values: ["-n", "--adjustment"], numeric: true, quiet: help }],
  ["nohup", { flags: help, quiet: help }],
  [
    "time",
    {
      flags: ["-p", "-a", "-v", "-q", "-V", "--portability", "--append", "--verbose", "--quiet", ...help],
      values: ["-f", "-o", "--format", "--output"],
      assignments: true, // the `time` keyword times `A=1 cmd`
      quiet: ["-V", ...help],
    },
  ],
  ["command", { flags: ["-p", "-v", "-V"], quiet: ["-v", "-V"] }],
  ["builtin", {}],
  ["exec", { flags: ["-c", "-l"], values: ["-a"] }],
  ["stdbuf", { flags: help, values: ["-i", "-o", "-e", "--input", "--output", "--error"], quiet: help }],
  [
    "xargs",
    {
      flags: [
        ...["-0", "-o", "-p", "-r", "-t", "-x", "--null", "--open-tty", "--interactive", "--no-run-if-empty"],
        ...["--verbose", "--exit", "--show-limits", ...help],
      ],
      values: [
        ...["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-args", "--max-procs"],
        ...["--max-chars", "--process-slot-var"],
      ],
      attached: ["-e", "-i", "-l", "--eof", "--replace", "--max-lines"],
      quiet: help,
    },
  ],
  [
    "watch",
    {
      flags: [
        ...["-b", "-c", "-C", "-e", "-f", "-g", "-p", "-r", "-t", "-w", "-x", "--beep", "--color", "--no-color", "--errexit"],
        ...["--follow", "--chgexit", "--precise", "--no-rerun", "--no-title", "--no-wrap", "--exec", ...help],
      ],
      values: ["-n", "-q", "--interval", "--equexit"],
      attached: ["-d", "--differences"],
      quiet: help,
    },
  ],
  [
    "parallel",
    {
      flags: [
        ...["-0", "-k", "-q", "-r", "-t", "-u", "-v", "-X", "-m", "--null", "--keep-order", "--quote", "--no-run-if-empty"],
        ...["--verbose", "--ungroup", "--xargs", "--dry-run", "--tag", "--bar", "--progress", "--eta", "--line-buffer", "--lb"],
        ...["--group", "--pipe", "--no-notice", "--will-cite", "--citation", "--shuf", "--plus", ...help],
      ],
      values: [
        ...["-a", "-C", "-d", "-E", "-I", "-j", "-L", "-n", "-N", "-P", "-S", "--arg-file", "--arg-sep", "--arg-file-sep"],
        ...["--colsep", "--delimiter", "--jobs", "--max-procs", "--max-lines", "--max-args", "--sshlogin", "--sshloginfile"],
        ...["--slf", "--results", "--res", "--joblog", "--tmpdir", "--workdir", "--wd", "--timeout", "--delay", "--memfree"],
        ...["--load", "--retries", "--tagstring", "--halt", "--basefile", "--bf", "--return", "--transfer-file", "--tf"],
        ...["--env", "--nice", "--block", "--blocksize", "--header", "--rpl"],
      ],
      quiet: [...help, "--citation"],
    },
  ],
  ["setsid", { flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait", ...help], quiet: help }],
  [
    "ionice",
    {
      flags: ["-t", "--ignore", ...help],
      values: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata", "--pid", "--pgid", "--uid"],
      quiet: ["-p", "-P", "-u", "--pid", "--pgid", "--uid", ...help],
    },
  ],
  [
    "flock",
    {
      flags: ["-s", "-x", "-e", "-n", "-u", "-o", "-F", "--shared", "--exclusive", "--nonblock", "--nb", "--unlock", "--close", "--no-fork", "--verbose", ...help],
      values: ["-w", "-E", "--timeout", "--wait", "--conflict-exit-code"],
      positional: 1,
      quiet: help,
    },
  ],
  ["chroot", { flags: ["--skip-chdir", ...help], values: ["--userspec", "--groups"], positional: 1, quiet: help }],
  ["busybox", { flags: ["--list", "--list-full", "--install", ...help], quiet: ["--list", "--list-full", "--install", ...help] }],
  ["unbuffer", { flags: ["-p"] }],
  ["pkexec", { flags: ["--disable-internal-agent", "--keep-cwd", ...help], values: ["--user"], quiet: help }],
  ["coproc", { assignments: true }],
]);

export type Options = {
  /** Index of the first word after the options (and positionals): the command. */
  at: number;
  seen: Map<string, Word | undefined>;
  env: Word[];
  unknown?: string;
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function parseOptions(words: Word[], spec: WrapperSpec): Options {
  const seen = new Map<string, Word | undefined>();
  const env: Word[] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const a = word.value;
    if (spec.assignments && ASSIGNMENT.test(a) && !word.splits) {
      env.push(word);
      continue;
    }
    if (word.dynamic) break; // not known to be an option: it is taken as the command, which is then opaque
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-" && spec.flags?.includes("-")) {
      seen.set(a, undefined);
      continue;
    }
    if (!a.startsWith("-") || a === "-") break;
    if (spec.numeric && /^-\d+$/.test(a)) continue;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a : a.slice(0, eq);
      const attachedValue = eq < 0 ? undefined : literal(a.slice(eq + 1));
      if (spec.values?.includes(name)) seen.set(name, attachedValue ?? words[++i]);
      else if (spec.flags?.includes(name) || spec.attached?.includes(name)) seen.set(name, attachedValue);
      else return { at: i, seen, env, unknown: name };
      continue;
    }
    const unknown = shortOptions(a, words, spec, seen, () => ++i);
    if (unknown) return { at: i, seen, env, unknown };
  }
  for (; spec.assignments && i < words.length && ASSIGNMENT.test(words[i]!.value) && !words[i]!.splits; i++) env.push(words[i]!);
  const at = Math.min(i + (spec.positional ?? 0), words.length);
  // A value or positional that can split into several words moves the command by an unknown amount.
  const shifting = [...seen.values(), ...words.slice(i, at)].find((word) => word?.splits);
  if (shifting) return { at, seen, env, unknown: shifting.text };
  return { at, seen, env };
}

/** A bundle of short options (`-Eu root`, `-oL`, `-n10`); returns an unknown option, if any. */
function shortOptions(a: string, words: Word[], spec: WrapperSpec, seen: Map<string, Word | undefined>, next: () => number): string | undefined {
  for (let j = 1; j < a.length; j++) {
    const option = "-" + a[j];
    const rest = a.slice(j + 1);
    if (spec.values?.includes(option)) {
      seen.set(option, rest ? literal(rest) : words[next()]);
      return undefined;
    }
    if (spec.attached?.includes(option)) {
      seen.set(option, literal(rest));
      return undefined;
    }
    if (!spec.flags?.includes(option)) return option;
    seen.set(option, undefined);
  }
  return undefined;
}
