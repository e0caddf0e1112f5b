// Shell state a line can change under the analysis: variables that decide how later commands are
// found, started or configured (PATH, LD_PRELOAD, GIT_*...), and the builtins that assign variables
// by name (`printf -v`, `read`, `mapfile`...). After such an assignment the rest of the line is
// opaque: what its commands run is no longer what their words say.
import type { Word } from "./words.ts";

const RISKY = new RegExp(
  "^(?:" +
    [
      "PATH", "CDPATH", "PWD", "BASH_ENV", "ENV", "IFS", "PS[0-4]", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "GLOBIGNORE",
      "BASH_XTRACEFD", "BASH_LOADABLES_PATH", "FPATH", "HOME", "OLDPWD", "SHELL", "EXECIGNORE", "INPUTRC", "HISTFILE",
      "LD_\\w*", "DYLD_\\w*", "GIT_\\w*", "PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESS\\w*", "EDITOR", "VISUAL", "BROWSER",
      "NODE_\\w*", "NPM_\\w*", "YARN_\\w*", "PNPM_\\w*", "BUN_\\w*", "DENO_\\w*", "PYTHON\\w*", "PIP_\\w*", "VIRTUAL_ENV",
      "PERL\\w*", "RUBY\\w*", "GEM_\\w*", "BUNDLE_\\w*", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
      "CLASSPATH", "XDG_\\w*", "GNUPGHOME", "GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES", "GLIBC_TUNABLES",
      "MALLOC_\\w*", "\\w*_ASKPASS", "TAR_OPTIONS", "RIPGREP_CONFIG_PATH", "JQ_\\w*", "GREP_OPTIONS", "CURL_HOME",
      "WGETRC", "POSIXLY_CORRECT", "MAKEFLAGS", "MFLAGS", "CARGO_\\w*", "RUSTC\\w*", "RUSTFLAGS", "GOFLAGS", "GOPATH", "GOROOT", "GOPROXY", "GOBIN", "GOENV", "GOTOOLCHAIN", "npm_config_\\w*",
      "SSH_\\w*", "TERMINFO\\w*", "PROMPT_\\w*", "BASH_\\w*", "ZDOTDIR", "KUBECONFIG", "DOCKER_\\w*", "AWKPATH",
      "AWKLIBPATH", "ZIPOPT", "UNZIP\\w*", "GZIP", "XZ_\\w*", "BZIP2?", "ZSTD_\\w*", "SUDO_EDITOR", "FCEDIT", "LUA_\\w*",
      "PHPRC", "PHP_INI_SCAN_DIR", "\\w+_OPTS", "\\w+_OPTIONS", "AWS_\\w*", "CLOUDSDK_\\w*", "AZURE_CONFIG_DIR",
      "R_PROFILE\\w*", "R_ENVIRON\\w*", "JULIA_\\w*", "EMACS\\w*", "VIMINIT", "EXINIT", "MYVIMRC", "NANORC",
    ].join("|") +
    ")$",
);

/** A variable whose value changes how later commands are found, started or configured. */
export function riskyVariable(name: string): boolean {
  return RISKY.test(name);
}

/** `NAME=...`, `NAME+=...`, `NAME[...]=...` -> NAME (undefined when the text is not an assignment). */
export function assignedName(text: string): string | undefined {
  return /^([A-Za-z_]\w*)(?:\[|\+?=)/.exec(text)?.[1];
}

const IDENTIFIER = /^[A-Za-z_]\w*$/;

export type Targets = { names: string[]; bad?: string };

/**
 * The variables a builtin assigns by name: `printf -v NAME`, `read [-a] NAME...`, `mapfile NAME`,
 * `getopts spec NAME`, `wait -p NAME`. `bad` is set when a target is not a plain identifier (bash
 * evaluates the subscript of `a[$(...)]` as arithmetic, running it) or is only known at run time.
 */
export function builtinTargets(name: string, args: readonly Word[]): Targets | undefined {
  switch (name) {
    case "printf":
      return optionTarget(args, "v");
    case "wait":
      return optionTarget(args, "p");
    case "read":
      return readTargets(args);
    case "mapfile":
    case "readarray":
      return lastOperand(args, "dnOsuCc");
    case "getopts":
      return check(args.slice(1, 2));
  }
  return undefined;
}

function optionTarget(args: readonly Word[], letter: string): Targets {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic) return { names: [], bad: word.text };
    if (word.value === "--" || !word.value.startsWith("-")) break;
    const at = word.value.indexOf(letter);
    if (at < 1) continue;
    const rest = word.value.slice(at + 1);
    return check(rest ? [{ value: rest, text: rest, dynamic: false }] : args.slice(i + 1, i + 2));
  }
  return { names: [] };
}

// read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]
function readTargets(args: readonly Word[]): Targets {
  const valued = "adinNptu";
  const names: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic) return { names: [], bad: word.text };
    const v = word.value;
    if (v === "--") {
      names.push(...args.slice(i + 1));
      break;
    }
    if (!v.startsWith("-") || v === "-") {
      names.push(word);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      if (!valued.includes(v[j]!)) continue;
      const value = v.slice(j + 1) ? { value: v.slice(j + 1), text: v, dynamic: false } : args[++i];
      if (v[j] === "a" && value) names.push(value);
      break;
    }
  }
  return check(names);
}

function lastOperand(args: readonly Word[], valued: string): Targets {
  let target: Word | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic) return { names: [], bad: word.text };
    const v = word.value;
    if (v.startsWith("-") && v.length > 1) {
      if (valued.includes(v[v.length - 1]!)) i++;
      continue;
    }
    target = word;
  }
  return check(target ? [target] : []);
}

function check(words: readonly Word[]): Targets {
  const bad = words.find((word) => word.dynamic || !IDENTIFIER.test(word.value));
  return bad ? { names: [], bad: bad.text } : { names: words.map((word) => word.value) };
}
