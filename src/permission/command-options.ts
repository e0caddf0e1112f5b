// A command's arguments read the way its own parser reads them, from its option table
// (options/table.ts): short bundles (`-rf`), attached values (`-n5`, `--lines=5`), values in the
// next word, optional values only when attached, `--` ending the options, options after operands
// (GNU permutation), and a unique prefix of a long option standing for it (`--outp` is `--output`)
// where the program uses getopt_long. What the table does not know is reported, never guessed.
import { lookupLong, optionTable, type OptionDef, type OptionTable } from "./options/table.ts";

export type OptionItem = { flag: string; value?: string; def?: OptionDef } | { operand: string };

export type Options = {
  /** Flags and operands in the order written; a short bundle is split (`-rf` -> `-r`, `-f`); a long prefix is spelled out. */
  items: OptionItem[];
  operands: string[];
  /** Options the table does not have (`--frobnicate`, `-Z`). */
  unknown: string[];
  /** Long prefixes that fit several options (`--s` for sort: --sort, --stable...). */
  ambiguous: string[];
};

export function parseOptions(words: readonly string[], table: OptionTable): Options {
  const out: Options = { items: [], operands: [], unknown: [], ambiguous: [] };
  const operand = (word: string) => {
    out.items.push({ operand: word });
    out.operands.push(word);
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      words.slice(i + 1).forEach(operand);
      break;
    }
    if (word === "-" || !word.startsWith("-") || (table.numeric && /^-\d+[a-z]*$/.test(word))) {
      if (table.stopAtOperand && !(table.numeric && word.startsWith("-"))) {
        words.slice(i).forEach(operand);
        break;
      }
      if (word.startsWith("-") && word !== "-") out.items.push({ flag: word });
      else operand(word);
      continue;
    }
    const long = word.startsWith("--") || table.singleDashLong;
    i = long ? longOption(words, i, table, out) : shortBundle(words, i, table, out);
  }
  return out;
}

function longOption(words: readonly string[], i: number, table: OptionTable, out: Options): number {
  const word = words[i]!;
  const eq = word.indexOf("=");
  const written = eq < 0 ? word : word.slice(0, eq);
  const name = table.singleDashLong ? written.replace(/^--?/, "-") : written;
  const attached = eq < 0 ? undefined : word.slice(eq + 1);
  const found = lookupLong(table, name);
  if ("ambiguous" in found) out.ambiguous.push(name);
  if ("unknown" in found) out.unknown.push(name);
  if (!("def" in found)) {
    // Unknown: without a table entry its value cannot be told from an operand; keep what is written.
    out.items.push(attached === undefined ? { flag: name } : { flag: name, value: attached });
    return i;
  }
  const def = found.def;
  if (attached !== undefined) {
    if (def.arity === "none") out.unknown.push(`${name}=`); // getopt refuses a value here: the command fails
    out.items.push({ flag: def.name, value: attached, def });
    return i;
  }
  if (def.arity === "required" && i + 1 < words.length) {
    out.items.push({ flag: def.name, value: words[i + 1]!, def });
    return i + 1;
  }
  out.items.push({ flag: def.name, def });
  return i;
}

function shortBundle(words: readonly string[], i: number, table: OptionTable, out: Options): number {
  const word = words[i]!;
  for (let j = 1; j < word.length; j++) {
    const flag = `-${word[j]}`;
    const rest = word.slice(j + 1);
    const def = table.options.get(flag);
    if (!def) {
      out.unknown.push(flag);
      out.items.push({ flag });
      continue;
    }
    if (def.arity === "none") {
      out.items.push({ flag, def });
      continue;
    }
    if (rest) out.items.push({ flag, value: rest, def });
    else if (def.arity === "required" && i + 1 < words.length) out.items.push({ flag, value: words[++i]!, def });
    else out.items.push({ flag, def });
    return i;
  }
  return i;
}

export function hasOption(options: Options, ...flags: string[]): boolean {
  return options.items.some((item) => "flag" in item && flags.includes(item.flag));
}

export function optionValues(options: Options, ...flags: string[]): string[] {
  return options.items.flatMap((item) => ("flag" in item && item.value !== undefined && flags.includes(item.flag) ? [item.value] : []));
}

/** Where a command's file arguments go; a relative word is taken against `base` (default: the command's cwd). */
export type PathSink = {
  cwd: string;
  read(word: string, base?: string): void;
  write(word: string, base?: string): void;
  /** The absolute path a word names, or undefined when it cannot be known (an expansion). */
  resolve(word: string, base?: string): string | undefined;
  /** The command runs what the analysis cannot see, or reads what it cannot name: it must not be allowed by a pattern. */
  opaque(reason: string): void;
};

export type PathHandler = (args: readonly string[], sink: PathSink) => void;
export type Operands = (options: Options, sink: PathSink) => void;

/**
 * A command read with its option table: values of `read`/`write` options are files, `runs`,
 * `names` and `effect` options make it opaque, and so does an option a complete table does not
 * know (or an ambiguous prefix): the program would take it for something the analysis cannot see.
 */
export function withTable(name: string, table: OptionTable, operands: Operands): PathHandler {
  return (args, sink) => {
    const options = parseOptions(args, table);
    for (const item of options.items) {
      if (!("flag" in item) || !item.def) continue;
      const { cls } = item.def;
      if (cls === "read" || cls === "names") if (item.value !== undefined) sink.read(item.value);
      if (cls === "write" && item.value !== undefined) sink.write(item.value);
      if (cls === "runs") sink.opaque(`${name} ${item.flag} runs a program or loads code or configuration`);
      if (cls === "names") sink.opaque(`${name} ${item.flag} reads the names of what it reads from a file or its input`);
      if (cls === "effect") sink.opaque(`${name} ${item.flag} does more than read`);
    }
    if (options.ambiguous.length > 0) sink.opaque(`${name}: ${options.ambiguous[0]} is an ambiguous abbreviation of several options`);
    if (table.complete && options.unknown.length > 0) sink.opaque(`${name}: rein does not know the option ${options.unknown[0]}`);
    operands(options, sink);
  };
}

/** A command whose options are only partly known: `valued` flags take a value, of which `reads`/`writes` are files. */
export function getopt(flags: { valued?: string; reads?: string; writes?: string; attached?: string }, operands: Operands): PathHandler {
  const table = optionTable({
    complete: false,
    harmless: `${words(flags.valued, "=")} ${words(flags.attached, "[=]")}`,
    read: words(flags.reads, "="),
    write: words(flags.writes, "="),
  });
  return withTable("", table, operands);
}

function words(list: string | undefined, suffix: string): string {
  return (list ?? "").split(/\s+/).filter(Boolean).map((w) => w + suffix).join(" ");
}

export const readAll: Operands = (o, s) => o.operands.forEach((w) => s.read(w));
export const writeAll: Operands = (o, s) => o.operands.forEach((w) => s.write(w));
