// A command's options as data: every option it has, how it takes a value, and what the option
// does. Written as one string per class, each token an option with its spellings joined by `|`
// (`-o|--output`) and its value marked: `=` a value (attached or the next word), `[=]` an optional
// value that can only be attached (`--color[=WHEN]`, `-i[SUFFIX]`), nothing for a flag.
//
//   harmless  changes only what is printed, or how
//   read      its value is a file the command reads
//   write     its value is a file (or folder) the command writes
//   runs      it runs a program, or loads code or configuration: the command is opaque
//   names     it reads the names of files, or its data, from a file or stdin: what it then reads
//             is unknown, so the command is opaque (the value is a read as well)
//   effect    it does something beyond reading (sets the clock, sends a signal): opaque

export type OptionClass = "harmless" | "read" | "write" | "runs" | "names" | "effect";
export type Arity = "none" | "required" | "optional";
export type OptionDef = { name: string; cls: OptionClass; arity: Arity; aliases: readonly string[] };

export type OptionTable = {
  /** Long options by every spelling (`--output`), short ones (`-o`) too. */
  options: ReadonlyMap<string, OptionDef>;
  /** Long spellings, for prefix lookups. */
  longs: readonly string[];
  /** GNU getopt_long: a unique prefix of a long option is that option (`--outp` is `--output`). */
  abbreviations: boolean;
  /** Every option the program has is listed: an option it does not list makes the command opaque. */
  complete: boolean;
  /** `-5` is an option (head, tail: the old `-NUM` form). */
  numeric: boolean;
  /** Options stop at the first operand (no GNU permutation). */
  stopAtOperand: boolean;
  /** `-name` is a long option, as `--name` (Go's flag package): no short bundles. */
  singleDashLong: boolean;
};

export type TableSpec = Partial<Record<OptionClass, string>> & {
  abbreviations?: boolean;
  complete?: boolean;
  numeric?: boolean;
  stopAtOperand?: boolean;
  singleDashLong?: boolean;
};

export function optionTable(spec: TableSpec): OptionTable {
  const options = new Map<string, OptionDef>();
  const classes: OptionClass[] = ["harmless", "read", "write", "runs", "names", "effect"];
  for (const cls of classes) {
    for (const token of (spec[cls] ?? "").split(/\s+/).filter(Boolean)) {
      const arity: Arity = token.endsWith("[=]") ? "optional" : token.endsWith("=") ? "required" : "none";
      const aliases = token.split("|").map((alias) => alias.replace(/\[?=\]?$/, ""));
      for (const name of aliases) {
        if (options.has(name)) throw new Error(`option table: ${name} is listed twice`);
        options.set(name, { name, cls, arity, aliases });
      }
    }
  }
  return {
    options,
    longs: [...options.keys()].filter((name) => name.startsWith("--") || spec.singleDashLong),
    abbreviations: spec.abbreviations ?? true,
    complete: spec.complete ?? true,
    numeric: spec.numeric ?? false,
    stopAtOperand: spec.stopAtOperand ?? false,
    singleDashLong: spec.singleDashLong ?? false,
  };
}

/** The same table, with more options (a family: egrep is grep). */
export function extendTable(base: OptionTable, more: TableSpec): OptionTable {
  const extra = optionTable({ ...more, abbreviations: base.abbreviations, complete: base.complete });
  const options = new Map([...base.options, ...extra.options]);
  return { ...base, options, longs: [...options.keys()].filter((name) => name.startsWith("--")) };
}

export type Lookup = { def: OptionDef } | { unknown: string } | { ambiguous: string; candidates: string[] };

/** A long option as the program's parser finds it: exact spelling first, then a unique prefix. */
export function lookupLong(table: OptionTable, name: string): Lookup {
  const exact = table.options.get(name);
  if (exact) return { def: exact };
  if (!table.abbreviations || name === "--") return { unknown: name };
  const candidates = table.longs.filter((long) => long.startsWith(name));
  if (candidates.length === 0) return { unknown: name };
  // getopt_long accepts a prefix shared by several spellings of one option (`--col`: --color|--colour).
  const first = table.options.get(candidates[0]!)!;
  if (candidates.every((c) => table.options.get(c)!.aliases === first.aliases)) return { def: first };
  return { ambiguous: name, candidates };
}
