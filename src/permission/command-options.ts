// A getopt-style reading of a command's arguments, enough to tell flag values from operands:
// short bundles (`-rf`), attached values (`-n5`, `--lines=5`), values in the next word for the
// flags that take one, `--` ending the flags, and flags after operands (GNU permutation).
// Long options must be written in full: GNU's unique abbreviations (`--out` for `--output`) are
// not recognised.

export type OptionItem = { flag: string; value?: string } | { operand: string };

export type Options = {
  /** Flags and operands in the order written; a short bundle is split (`-rf` -> `-r`, `-f`). */
  items: OptionItem[];
  operands: string[];
};

export type OptionSpec = {
  /** Flags whose value is the rest of the word or else the next word: `-n`, `--lines`. */
  valued: ReadonlySet<string>;
  /** Short flags whose value can only be attached (`sed -i.bak`): the rest of the bundle. */
  attached?: ReadonlySet<string>;
};

export function parseOptions(words: readonly string[], spec: OptionSpec): Options {
  const items: OptionItem[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      for (const operand of words.slice(i + 1)) items.push({ operand });
      break;
    }
    if (word === "-" || !word.startsWith("-")) {
      items.push({ operand: word });
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      if (eq > 0) items.push({ flag: word.slice(0, eq), value: word.slice(eq + 1) });
      else if (spec.valued.has(word) && i + 1 < words.length) items.push({ flag: word, value: words[++i]! });
      else items.push({ flag: word });
      continue;
    }
    for (let j = 1; j < word.length; j++) {
      const flag = `-${word[j]}`;
      const rest = word.slice(j + 1);
      if (spec.attached?.has(flag)) {
        items.push(rest ? { flag, value: rest } : { flag });
        break;
      }
      if (!spec.valued.has(flag)) {
        items.push({ flag });
        continue;
      }
      if (rest) items.push({ flag, value: rest });
      else if (i + 1 < words.length) items.push({ flag, value: words[++i]! });
      else items.push({ flag });
      break;
    }
  }
  return { items, operands: items.flatMap((item) => ("operand" in item ? [item.operand] : [])) };
}

export function hasOption(options: Options, ...flags: string[]): boolean {
  return options.items.some((item) => "flag" in item && flags.includes(item.flag));
}

export function optionValues(options: Options, ...flags: string[]): string[] {
  return options.items.flatMap((item) => ("flag" in item && item.value !== undefined && flags.includes(item.flag) ? [item.value] : []));
}

/** A whitespace-separated flag list as a set: `flagSet("-n -c --lines")`. */
export function flagSet(list = ""): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

/** Where a command's file arguments go; a relative word is taken against `base` (default: the command's cwd). */
export type PathSink = {
  cwd: string;
  read(word: string, base?: string): void;
  write(word: string, base?: string): void;
  /** The absolute path a word names, or undefined when it cannot be known (an expansion). */
  resolve(word: string, base?: string): string | undefined;
};

export type PathHandler = (args: readonly string[], sink: PathSink) => void;
export type Operands = (options: Options, sink: PathSink) => void;

/** A command read with getopt rules: `valued` flags take a value, of which `reads`/`writes` are files. */
export function getopt(flags: { valued?: string; reads?: string; writes?: string; attached?: string }, operands: Operands): PathHandler {
  const reads = [...flagSet(flags.reads)];
  const writes = [...flagSet(flags.writes)];
  const spec = { valued: flagSet(`${flags.valued ?? ""} ${flags.reads ?? ""} ${flags.writes ?? ""}`), attached: flagSet(flags.attached) };
  return (args, sink) => {
    const options = parseOptions(args, spec);
    for (const value of optionValues(options, ...reads)) sink.read(value);
    for (const value of optionValues(options, ...writes)) sink.write(value);
    operands(options, sink);
  };
}

export const readAll: Operands = (o, s) => o.operands.forEach((w) => s.read(w));
export const writeAll: Operands = (o, s) => o.operands.forEach((w) => s.write(w));
